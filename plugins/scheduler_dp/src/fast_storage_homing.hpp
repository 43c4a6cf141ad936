// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where the tensors of the chosen cascaded passes live and for how long: rolling buffers and weight
// buffers in fast storage, feature maps inside a cascade in the brick format, and (when feature maps
// live outside fast storage) the feature maps between cascaded passes that Vela 2.1 moves into fast
// storage while every cascaded pass they span still fits (scheduler.use_fast_storage_for_feature_maps).
// The live ranges follow Vela's cascaded-pass time model through scheduler_common.

#include "dp_options.hpp"
#include "pass_graph.hpp"
#include "strategy.hpp"

#include "scheduler_common/live_ranges.hpp"

#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace npu::dp {

class CascadeLayout {
public:
  CascadeLayout(const PassGraph& graph, const DpOptions& options) : graph_(graph), options_(options) {}

  /// Adds the next pass in execution order with the buffers it needs in fast storage.
  void addPass(int pass, int cascade, int rollingBufferHeight, std::vector<scheduling::WeightBufferUse> buffers);
  /// Closes the cascaded pass whose passes were added last; `sramUsed` is its fast storage estimate.
  void endCascadedPass(std::int64_t sramUsed);
  /// Moves feature maps between cascaded passes into fast storage, shortest-lived and largest first,
  /// while every cascaded pass they span stays within `limit`.
  void moveFeatureMapsToFastStorage(std::int64_t limit);
  /// Fills the tensor homes and the buffers of `schedule` (whose operations are in execution order).
  void writeHomesAndBuffers(const Graph& ir, Schedule& schedule) const;

private:
  struct CascadedPass {
    std::vector<int> passes;
    std::set<TensorId> inputs;
    std::set<TensorId> outputs;
    std::int64_t sramUsed = 0;
  };

  [[nodiscard]] TensorHome homeOf(TensorId tensor) const;
  [[nodiscard]] std::int64_t storedBytes(TensorId tensor) const;
  void addConstantBuffers(Schedule& schedule) const;

  const PassGraph& graph_;
  const DpOptions& options_;
  std::vector<scheduling::StepLayout> steps_; ///< per scheduled operation
  std::vector<CascadedPass> cascadedPasses_;
  CascadedPass open_;
  std::set<TensorId> brickFormat_;             ///< feature maps between passes of one cascade
  std::map<TensorId, MemoryArea> fastStorage_; ///< feature maps and rolling buffers moved to fast storage
};

} // namespace npu::dp
