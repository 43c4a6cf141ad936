// SPDX-License-Identifier: Apache-2.0
// allocator_linear: every live range at its own address, one after another (Vela's LinearAlloc, which
// Vela uses for permanent storage). The allocation itself is in allocator_common.
#include "allocator_common/linear_allocation.hpp"

#include "npu/plugin/allocator.hpp"

namespace {

class LinearAllocatorPlugin final : public npu::AllocatorPlugin {
public:
  [[nodiscard]] std::vector<std::int64_t> allocate(std::span<const npu::LiveRange> ranges,
                                                   const npu::OptionValues& /*options*/) const override {
    return allocation::allocateLinearly(ranges);
  }
};

} // namespace

NPU_PIPELINE_PLUGIN("allocator_linear", npu::PluginKind::Allocator, "1.0.0",
                    "Vela 3.10 linear allocator: ranges side by side, no reuse over time", LinearAllocatorPlugin)
