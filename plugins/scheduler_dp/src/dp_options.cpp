// SPDX-License-Identifier: Apache-2.0
#include "dp_options.hpp"

#include <algorithm>

namespace npu::dp {

namespace {

constexpr std::int64_t kUnlimitedSram = std::int64_t{9999} * 1024 * 1024; // Vela 2.1's sram_size without spilling

} // namespace

std::vector<OptionSpec> optionSpecs() {
  return {
      {"cascading",
       OptionType::Boolean,
       "true",
       "cascade IFM-streamed passes through rolling buffers (Vela's --cascading)",
       {},
       false},
      {"ifm_streaming",
       OptionType::Boolean,
       "true",
       "consider IFM streaming besides weight streaming (--ifm-streaming)",
       {},
       false},
      {"pareto_metric",
       OptionType::Choice,
       "BwCycMem",
       "values the Pareto frontier compares: bandwidth/cycles/memory, or also the block height (--pareto-metric)",
       {"BwCycMem", "BwCycMemBlkH"},
       false},
      {"nhcwb16_between_cascaded_passes",
       OptionType::Boolean,
       "true",
       "store feature maps between cascaded passes in the brick format (--nhcwb16-between-cascaded-passes)",
       {},
       false},
      {"cache_bias_scale_tensor",
       OptionType::Boolean,
       "true",
       "copy scales and biases of IFM-streamed passes into fast storage (--cache-bias-scale-tensor)",
       {},
       false},
      {"block_config_limit",
       OptionType::Integer,
       "16",
       "block configs tried per pass from each end of the size order; 0 tries all (--block-config-limit)",
       {},
       false},
      {"pareto_max_candidates", OptionType::Integer, "16", "candidates kept on each Pareto frontier", {}, false},
      {"weight_estimation_scaling",
       OptionType::Number,
       "1.0",
       "extra scaling of the weight compression estimate (--weight-estimation-scaling)",
       {},
       false},
      {"sram_limit",
       OptionType::Bytes,
       "0",
       "bytes of fast storage the search may plan for; 0: the accelerator's arena cache size",
       {},
       false},
  };
}

DpOptions readOptions(const OptionValues& values) {
  DpOptions options;
  const auto flag = [&](const char* name, bool fallback) { return values.has(name) ? values.getBool(name) : fallback; };
  options.useCascading = flag("cascading", options.useCascading);
  options.useIfmStreaming = flag("ifm_streaming", options.useIfmStreaming);
  options.nhcwb16BetweenCascadedPasses = flag("nhcwb16_between_cascaded_passes", options.nhcwb16BetweenCascadedPasses);
  options.cacheBiasScaleTensor = flag("cache_bias_scale_tensor", options.cacheBiasScaleTensor);
  if (values.has("pareto_metric") && values.getString("pareto_metric") == "BwCycMemBlkH") {
    options.paretoMetric = ParetoMetric::BandwidthCyclesMemoryBlockHeight;
  }
  if (values.has("block_config_limit")) {
    options.blockConfigLimit = static_cast<int>(std::max<std::int64_t>(values.getInt("block_config_limit"), 0));
  }
  if (values.has("pareto_max_candidates")) {
    options.paretoMaxCandidates = static_cast<int>(std::max<std::int64_t>(values.getInt("pareto_max_candidates"), 1));
  }
  if (values.has("weight_estimation_scaling")) {
    options.weightEstimationScaling = values.getNumber("weight_estimation_scaling");
  }
  if (values.has("sram_limit")) {
    options.sramLimit = values.getInt("sram_limit");
  }
  return options;
}

std::int64_t effectiveSramLimit(const DpOptions& options, const MemorySystem& memory) {
  if (options.sramLimit > 0) {
    return options.sramLimit;
  }
  return memory.arenaCacheSize > 0 ? std::min(memory.arenaCacheSize, kUnlimitedSram) : kUnlimitedSram;
}

} // namespace npu::dp
