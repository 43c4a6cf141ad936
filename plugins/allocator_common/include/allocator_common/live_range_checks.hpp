// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/schedule/live_range.hpp"

#include <cstdint>
#include <span>

namespace allocation {

/// Checks what every allocator relies on: start >= 0, end >= start, size >= 0, alignment >= 0. Live
/// ranges come from a scheduler, so a violation is an Internal error naming the range.
void checkLiveRanges(std::span<const npu::LiveRange> ranges);

/// The alignment an allocator honours: the range's, where 0 means "any address" (as in verifyAllocation).
[[nodiscard]] constexpr std::int64_t alignmentOf(const npu::LiveRange& range) {
  return range.alignment > 0 ? range.alignment : 1;
}

} // namespace allocation
