// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/plugin/plugin.hpp"
#include "npu/schedule/live_range.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace npu {

/// Assigns an address to every live range of one memory so that ranges live at the same time never
/// overlap and every address honours the range's alignment. Deterministic for equal input.
class NPU_API AllocatorPlugin : public Plugin {
public:
  /// Returns one address per range, in the order given.
  [[nodiscard]] virtual std::vector<std::int64_t> allocate(std::span<const LiveRange> ranges,
                                                           const OptionValues& options) const = 0;
};

} // namespace npu
