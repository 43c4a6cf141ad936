// SPDX-License-Identifier: Apache-2.0
#pragma once
// Block config candidates of every pass and their figures through the accelerator's cost model, as
// the search sees them: feature maps in their default memory (Vela 2.1 scores passes before any memory
// decision), weights in their fast-storage copy when the pass copies them.
// Everything is computed up front, in parallel, so the search itself only combines numbers.

#include "pass_graph.hpp"
#include "strategy.hpp"

#include <vector>

namespace npu::dp {

/// Vela 2.1 scheduler.get_block_configs: sorted by OFM block area then depth, largest first; with a
/// limit, that many from each end of the order.
[[nodiscard]] std::vector<BlockConfig> limitBlockConfigs(std::vector<BlockConfig> configs, int limit);

/// The cost model's question for one pass with a block config.
[[nodiscard]] PerformanceContext searchContext(const PassGraph& graph, int pass, const BlockConfig& block,
                                               bool outputToFastStorage);

/// The figures of a pass whose outputs go to fast storage (Vela 2.1 performance_metrics_for_pass with
/// force_outputs_to_fast_storage): only the bandwidth moves there; the NPU cycles stay those of the
/// output in its own memory, whose latency and bandwidth the command overhead still assumes.
[[nodiscard]] Metrics withOutputBandwidthInFastStorage(const Metrics& inPlace, Metrics inFastStorage);

class PassEvaluator {
public:
  /// `progress`, when given, advances one step per pass evaluated.
  PassEvaluator(const PassGraph& graph, int blockConfigLimit, bool withFastStorageOutputs,
                Progress* progress = nullptr);

  [[nodiscard]] const std::vector<BlockConfig>& blockConfigs(int pass) const {
    return blockConfigs_.at(static_cast<std::size_t>(pass));
  }
  /// Figures of `pass` run with its block config `block`; with `outputToFastStorage` its OFM is
  /// written to fast storage (an IFM-streamed predecessor when feature maps spill).
  [[nodiscard]] const Metrics& metrics(int pass, int block, bool outputToFastStorage) const;

private:
  std::vector<std::vector<BlockConfig>> blockConfigs_;
  std::vector<std::vector<Metrics>> metrics_;
  std::vector<std::vector<Metrics>> fastOutputMetrics_;
};

} // namespace npu::dp
