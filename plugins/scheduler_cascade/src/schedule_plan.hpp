// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cascade scheduler's working representation (Vela 3.x scheduler.py): a SchedulePlan holds, for
// the operations it covers, how each one runs (an OperationPlan: block config, stripes, cascade, weight
// encoding and buffering) plus the cascades and the memory snapshot. Plans are values: proposals are
// copied and compared, never shared.

#include "scheduler_common/live_ranges.hpp"
#include "scheduler_common/scheduling_graph.hpp"
#include "scheduler_common/tensor_placement.hpp"
#include "scheduler_common/weight_encoding_cache.hpp"

#include "npu/plugin/accelerator.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npu::cascade {

using scheduling::SchedulingGraph;
using scheduling::SchedulingOperation;
using scheduling::TensorPlacement;
using scheduling::WeightStreamSummary;

enum class OptimisationStrategy : std::uint8_t { Performance, Size };
/// How stripe heights of a cascade are searched: Vela's scan that stops at the first proposal that does
/// not fit, or every height evaluated (in parallel) and the fastest that fits chosen.
enum class StripeSearch : std::uint8_t { Vela, Exhaustive };

struct SchedulerOptions {
  OptimisationStrategy strategy = OptimisationStrategy::Performance;
  std::int64_t sramLimit = 0; ///< bytes of fast storage the schedule may use
  StripeSearch search = StripeSearch::Vela;
};

/// A weight buffer in fast storage (Vela: a tensor made by Scheduler.buffer_tensor).
struct BufferedWeights {
  std::int64_t bytes = 0;    ///< requested size
  bool doubleBuffer = false; ///< one of two buffers used in turn (Vela's TensorSubPurpose.DoubleBuffer)
  bool preBuffer = false;    ///< filled under the previous operation
  [[nodiscard]] std::int64_t allocatedBytes() const { return scheduling::allocatedBufferBytes(bytes); }
};

/// How one operation runs in one schedule (Vela: SchedulerOpInfo).
struct OperationPlan {
  BlockConfig block;
  Shape4 ifmStripe;
  std::optional<Shape4> ifm2Stripe;
  Shape4 ofmStripe;
  int cascade = 0;              ///< Vela's id: region index of the cascade's last operation; 0: none
  std::int64_t timeIndex = 0;   ///< step time in the last memory snapshot
  std::vector<int> depthSlices; ///< OFM depth boundaries of the weight stream
  std::shared_ptr<const WeightStreamSummary> weights; ///< null without weights
  std::vector<BufferedWeights> bufferedWeights;
  double cycles = 0.0; ///< compute cycles of the whole operation (Vela: cycles.op_cycles)
  double slackBufferingCycles = 0.0;
  std::int64_t slackBufferingMemory = 0;
  double fullWeightTransferCycles = 0.0;

  [[nodiscard]] std::int64_t bufferedWeightBytes() const;
};

/// Operations run interleaved stripe by stripe, linked by rolling buffers (Vela: CascadeInfo).
struct CascadeSpan {
  int start = 0;
  int end = 0;
  std::map<int, Shape4> rollingBuffers; ///< by consuming operation: the buffer holding its IFM
  std::int64_t memoryUsage = 0;
};

/// A complete or partial schedule of one region (Vela: Schedule).
struct SchedulePlan {
  std::string label;
  std::vector<std::optional<OperationPlan>> operations; ///< by region index; unset: not covered
  std::map<int, CascadeSpan> cascades;                  ///< by last operation
  std::vector<std::int64_t> memorySnapshot;             ///< fast-storage bytes live per step time
  std::int64_t fastStoragePeak = 0;

  SchedulePlan() = default;
  SchedulePlan(std::string name, int operationCount)
      : label(std::move(name)), operations(static_cast<std::size_t>(operationCount)) {}

  [[nodiscard]] bool covers(int index) const { return operations.at(static_cast<std::size_t>(index)).has_value(); }
  [[nodiscard]] const OperationPlan& at(int index) const { return *operations.at(static_cast<std::size_t>(index)); }
  [[nodiscard]] OperationPlan& at(int index) { return *operations.at(static_cast<std::size_t>(index)); }
  void set(int index, OperationPlan plan) { operations.at(static_cast<std::size_t>(index)) = std::move(plan); }
  [[nodiscard]] const CascadeSpan* cascadeOf(int index) const;
  /// Bytes live at a step time (0 beyond the snapshot).
  [[nodiscard]] std::int64_t snapshotAt(std::int64_t time) const;
};

/// What every part of the scheduler reads: the region, the accelerator, the options.
struct SchedulingContext {
  const Graph& graph;
  const SchedulingGraph& operations;
  const Accelerator& accelerator;
  const scheduling::WeightEncodingCache& weightCache;
  SchedulerOptions options;

  [[nodiscard]] const MemorySystem& memory() const { return accelerator.memory(); }
  [[nodiscard]] const Subgraph& subgraph() const { return operations.subgraph(); }
  /// Feature maps live outside the fast storage, which caches them (Vela: is_spilling_enabled()).
  [[nodiscard]] bool spilling() const { return memory().fastStorageIsSeparate(); }
  [[nodiscard]] int operationCount() const { return operations.size(); }
};

} // namespace npu::cascade
