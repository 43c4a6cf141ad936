// SPDX-License-Identifier: Apache-2.0
// allocator_hillclimb: Vela's HillClimb tensor allocator, Vela's default. The search itself is in
// allocator_common; this file maps the pipeline options onto it.
#include "allocator_common/hill_climb_allocation.hpp"

#include "npu/plugin/allocator.hpp"

#include <limits>

namespace {

constexpr const char* kMaxIterations = "max_iterations";
constexpr const char* kMemoryLimit = "memory_limit";

class HillClimbAllocatorPlugin final : public npu::AllocatorPlugin {
public:
  [[nodiscard]] std::vector<npu::OptionSpec> options() const override {
    return {
        {.name = kMaxIterations,
         .type = npu::OptionType::Integer,
         .defaultValue = "99999",
         .description = "iterations the search may run while the allocation is above memory_limit "
                        "(Vela's --hillclimb-max-iterations)",
         .choices = {},
         .required = false},
        {.name = kMemoryLimit,
         .type = npu::OptionType::Bytes,
         .defaultValue = "0",
         .description = "size the search tries to get under before max_iterations ends it; 0 means none "
                        "(Vela passes the arena cache size for fast storage in Dedicated_Sram mode)",
         .choices = {},
         .required = false},
    };
  }

  [[nodiscard]] std::vector<std::int64_t> allocate(std::span<const npu::LiveRange> ranges,
                                                   const npu::OptionValues& options) const override {
    allocation::HillClimbSettings settings;
    if (options.has(kMaxIterations)) {
      settings.maxIterations = options.getInt(kMaxIterations);
    }
    if (options.has(kMemoryLimit) && options.getInt(kMemoryLimit) > 0) {
      settings.memoryLimit = options.getInt(kMemoryLimit);
    }
    return allocation::allocateByHillClimb(ranges, settings).addresses;
  }
};

} // namespace

NPU_PIPELINE_PLUGIN("allocator_hillclimb", npu::PluginKind::Allocator, "1.0.0",
                    "Vela 3.10 hill-climb allocator (Vela's default): search over allocation orders",
                    HillClimbAllocatorPlugin)
