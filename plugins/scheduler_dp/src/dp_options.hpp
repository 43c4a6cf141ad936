// SPDX-License-Identifier: Apache-2.0
#pragma once
// Options of the dynamic-programming scheduler: Vela 2.1's SchedulerOptions and the search limits it
// fixed (block_config_limit, pareto_max_candidates, weight_estimation_scaling).

#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/options.hpp"

#include <cstdint>
#include <vector>

namespace npu::dp {

/// Which values the Pareto frontier compares (Vela's ParetoMetric).
enum class ParetoMetric : std::uint8_t {
  BandwidthCyclesMemory,            ///< BwCycMem
  BandwidthCyclesMemoryBlockHeight, ///< BwCycMemBlkH: also the last block height
};

struct DpOptions {
  bool useCascading = true;    ///< IFM streaming may cascade passes through rolling buffers
  bool useIfmStreaming = true; ///< consider IFM streaming besides weight streaming
  ParetoMetric paretoMetric = ParetoMetric::BandwidthCyclesMemory;
  bool nhcwb16BetweenCascadedPasses = true;
  bool cacheBiasScaleTensor = true; ///< IFM-streamed passes copy scales and biases into fast storage
  int blockConfigLimit = 16;        ///< block configs tried per pass from each end of the size order; 0: all
  int paretoMaxCandidates = 16;     ///< candidates kept on each frontier
  double weightEstimationScaling = 1.0;
  /// Bytes of fast storage the search may plan for; 0: the accelerator's arena cache (Vela 2.1's
  /// sram_size: cache_sram_size when spilling, else practically unlimited).
  std::int64_t sramLimit = 0;
};

[[nodiscard]] std::vector<OptionSpec> optionSpecs();
[[nodiscard]] DpOptions readOptions(const OptionValues& values);

/// The limit the search applies for `memory`: at most Vela 2.1's 9999 MiB.
[[nodiscard]] std::int64_t effectiveSramLimit(const DpOptions& options, const MemorySystem& memory);

} // namespace npu::dp
