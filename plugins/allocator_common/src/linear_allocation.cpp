// SPDX-License-Identifier: Apache-2.0
#include "allocator_common/linear_allocation.hpp"

#include "allocator_common/address_arithmetic.hpp"
#include "allocator_common/live_range_checks.hpp"

namespace allocation {

std::vector<std::int64_t> allocateLinearly(std::span<const npu::LiveRange> ranges) {
  checkLiveRanges(ranges);
  std::vector<WideAddress> addresses;
  addresses.reserve(ranges.size());
  WideAddress end = 0;
  for (const npu::LiveRange& range : ranges) {
    // tensor_allocation.py linear_allocate_live_ranges: the next range starts where the previous one's
    // rounded-up size ends (Vela rounds to one granularity for all; with equal alignments this is it).
    const WideAddress address = roundUp(end, alignmentOf(range));
    addresses.push_back(address);
    end = address + roundUp(range.size, alignmentOf(range));
  }
  return narrowAddresses(ranges, addresses);
}

} // namespace allocation
