// SPDX-License-Identifier: Apache-2.0
#include "cascade_scheduler.hpp"

namespace npu::cascade {

std::vector<OptionSpec> optionSpecs() {
  return {
      {"optimise",
       OptionType::Choice,
       "performance",
       "performance: fastest schedule within the SRAM limit; size: smallest SRAM use (Vela's --optimise)",
       {"performance", "size"},
       false},
      {"sram_limit",
       OptionType::Bytes,
       "0",
       "bytes of fast storage the schedule may use; 0 takes the accelerator's arena cache size",
       {},
       false},
      {"search",
       OptionType::Choice,
       "vela",
       "vela: Vela's stripe search (taller stripes until one does not fit); exhaustive: every stripe height "
       "evaluated in parallel, the fastest that fits kept",
       {"vela", "exhaustive"},
       false},
  };
}

SchedulerOptions readOptions(const OptionValues& values, const Accelerator& accelerator) {
  SchedulerOptions options;
  if (values.has("optimise") && values.getString("optimise") == "size") {
    options.strategy = OptimisationStrategy::Size;
  }
  const std::int64_t limit = values.has("sram_limit") ? values.getInt("sram_limit") : 0;
  options.sramLimit = limit > 0 ? limit : accelerator.memory().arenaCacheSize;
  if (values.has("search") && values.getString("search") == "exhaustive") {
    options.search = StripeSearch::Exhaustive;
  }
  return options;
}

} // namespace npu::cascade
