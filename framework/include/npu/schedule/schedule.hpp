// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/shape.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/schedule/live_range.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npu {

/// A contiguous run of NPU operations of one subgraph, scheduled together (Vela's NPU subgraph).
struct NpuRegion {
  int subgraph = 0;
  std::vector<OperationId> operations; ///< in execution order
  /// Tensors produced outside the region and read inside it, and produced inside and read outside
  /// (or subgraph outputs). They must exist whole in memory.
  std::vector<TensorId> inputs;
  std::vector<TensorId> outputs;
};

/// How the weights of one operation are stored and moved.
struct WeightPlan {
  std::int64_t encodedBytes = 0;            ///< whole stream
  std::vector<int> depthSlices;             ///< OFM depth boundaries the stream was encoded for
  std::vector<std::int64_t> bufferBytes;    ///< sizes of the weight buffers in fast storage (0, 1 or 2)
  MemoryArea storageArea = MemoryArea::Unknown; ///< permanent home of the stream
  MemoryArea bufferArea = MemoryArea::Unknown;  ///< home of the buffers, if any
  std::int64_t firstTransferBytes = 0;
  double fullTransferCycles = 0.0;
  bool scalesBuffered = false; ///< scales/biases copied into bufferArea once (see WeightTransfer)
  /// What a weight buffer receives of a slice: the whole encoded slice, scales included (Vela 3.x), or
  /// only its weights, the scales then being read from the permanent stream (Vela 2.x).
  bool buffersHoldScales = true;
  [[nodiscard]] bool buffered() const { return !bufferBytes.empty(); }
  [[nodiscard]] bool doubleBuffered() const { return bufferBytes.size() > 1; }
};

/// The decisions for one operation.
struct ScheduledOperation {
  OperationId op = 0;
  BlockConfig blockConfig;
  Shape4 ifmStripe;
  std::optional<Shape4> ifm2Stripe;
  Shape4 ofmStripe;
  bool reversedOperands = false; ///< ifm and ifm2 swapped (binary elementwise) for cascading
  int cascade = 0;               ///< 0: not cascaded; otherwise the id of its cascade
  std::optional<WeightPlan> weights;
  std::string strategy; ///< scheduler-specific label (e.g. DP "WeightStream"/"IfmStream")
  double estimatedCycles = 0.0; ///< the scheduler's own estimate (the report recomputes)
  /// NPU cycles under which the next operation's buffered weight DMA can run (Vela's
  /// slack_buffering_cycles); 0 when the scheduler does not overlap transfers.
  double slackBufferingCycles = 0.0;
  std::int64_t memoryUsage = 0; ///< fast-storage bytes in use while the operation runs
  /// Inside a cascade: the IFM is held in a rolling buffer of this shape (its height is the number of
  /// rows kept; rows wrap around) instead of whole.
  std::optional<Shape4> ifmRollingBuffer;
};

struct CascadeInfo {
  int id = 0;
  OperationId first = 0;
  OperationId last = 0;
  std::int64_t memoryUsage = 0;
};

/// Where and how one tensor is stored.
struct TensorHome {
  MemoryArea area = MemoryArea::Unknown;
  TensorFormat format = TensorFormat::NHWC;
};

/// What a buffer holds.
enum class BufferContent : std::uint8_t {
  Tensors,       ///< the tensors listed (whole, or a rolling buffer of the first)
  WeightBuffer,  ///< a depth slice of an operation's weight stream, copied in by DMA
  ScalesBuffer,  ///< an operation's scales and biases, copied in once
};

/// A memory object the allocator must place: a tensor, a rolling buffer, a weight buffer, ...
struct BufferRequest {
  LiveRange range;
  MemoryArea area = MemoryArea::Unknown;
  std::vector<TensorId> tensors; ///< tensors stored in the buffer (empty for scheduler-made buffers)
  BufferContent content = BufferContent::Tensors;
  int operation = -1;  ///< owner of a weight or scales buffer: its position in Schedule::operations
  int bufferIndex = 0; ///< which of the owner's weight buffers (0, or 1 when double buffered)
};

/// The result of scheduling one region.
struct Schedule {
  std::string label;  ///< e.g. "main_split_1_MAX_BUFFERED"
  NpuRegion region;
  std::vector<ScheduledOperation> operations; ///< in execution order; the position is the time index
  std::vector<CascadeInfo> cascades;
  std::map<TensorId, TensorHome> tensorHomes;
  std::vector<BufferRequest> buffers; ///< everything that needs an address in some memory
  std::int64_t fastStoragePeak = 0;   ///< the scheduler's own estimate of the peak
  /// Time of each operation on the timeline of the buffers' live ranges, ascending; operations that run
  /// interleaved (a cascade) may share one, and a scheduler may leave time between operations (Vela
  /// gives every step two: a buffer freed half-way through a step makes room for one filled in its
  /// second half). Empty: operation i runs at time i.
  std::vector<std::int64_t> operationTimes;

  [[nodiscard]] std::int64_t timeOf(std::size_t position) const {
    return operationTimes.empty() ? static_cast<std::int64_t>(position) : operationTimes.at(position);
  }
  /// Number of time indices the schedule's live ranges span (at least one per operation).
  [[nodiscard]] std::int64_t timelineLength() const {
    std::int64_t length = operations.empty() ? 0 : timeOf(operations.size() - 1) + 1;
    for (const BufferRequest& buffer : buffers) {
      length = std::max(length, buffer.range.end + 1);
    }
    return length;
  }
  /// The operation running at `time`: the last one starting at or before it.
  [[nodiscard]] std::size_t operationAt(std::int64_t time) const {
    std::size_t position = 0;
    for (std::size_t i = 0; i < operations.size() && timeOf(i) <= time; ++i) {
      position = i;
    }
    return position;
  }
};

/// Addresses chosen for the buffers of a schedule (same order as Schedule::buffers).
struct Allocation {
  std::vector<std::int64_t> addresses;
  std::array<std::int64_t, kMemoryAreaCount> peak{}; ///< per memory
};

} // namespace npu
