// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/schedule/live_range.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace allocation {

/// Addresses while an allocator works. 128 bits, so that no intermediate sum of 64-bit sizes, offsets
/// and alignment padding can overflow; only the final result must fit the 64-bit addresses of the API.
__extension__ using WideAddress = __int128;

/// The smallest multiple of `alignment` (>= 1) that is >= `value` (>= 0).
[[nodiscard]] constexpr WideAddress roundUp(WideAddress value, std::int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// The final addresses, one per range. Throws a Compile error naming the range when a range would end
/// beyond the largest 64-bit address, i.e. the live ranges cannot be allocated at all.
[[nodiscard]] std::vector<std::int64_t> narrowAddresses(std::span<const npu::LiveRange> ranges,
                                                        std::span<const WideAddress> addresses);

} // namespace allocation
