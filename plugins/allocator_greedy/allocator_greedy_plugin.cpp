// SPDX-License-Identifier: Apache-2.0
// allocator_greedy: Vela's Greedy tensor allocator (tightest gap first). The allocation itself is in
// allocator_common.
#include "allocator_common/greedy_allocation.hpp"

#include "npu/plugin/allocator.hpp"

namespace {

class GreedyAllocatorPlugin final : public npu::AllocatorPlugin {
public:
  [[nodiscard]] std::vector<std::int64_t> allocate(std::span<const npu::LiveRange> ranges,
                                                   const npu::OptionValues& /*options*/) const override {
    return allocation::allocateGreedily(ranges);
  }
};

} // namespace

NPU_PIPELINE_PLUGIN("allocator_greedy", npu::PluginKind::Allocator, "1.0.0",
                    "Vela 3.10 greedy allocator: each range into the tightest free gap", GreedyAllocatorPlugin)
