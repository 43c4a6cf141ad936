// SPDX-License-Identifier: Apache-2.0
#include "allocator_common/address_arithmetic.hpp"

#include "npu/core/diagnostics.hpp"

#include <limits>
#include <string>

namespace allocation {

std::vector<std::int64_t> narrowAddresses(std::span<const npu::LiveRange> ranges,
                                          std::span<const WideAddress> addresses) {
  npu::require(ranges.size() == addresses.size(), "narrowAddresses: one address per range");
  constexpr WideAddress kLargestAddress = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> narrowed;
  narrowed.reserve(addresses.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (addresses[i] + ranges[i].size > kLargestAddress) {
      npu::SourceLocation where;
      where.object = "live range '" + ranges[i].name + "'";
      npu::throwCompileError("live range '" + ranges[i].name + "' of " + std::to_string(ranges[i].size) +
                                 " bytes does not fit below the largest 64-bit address",
                             where, "the buffers live at the same time need more than 2^63 bytes; check their sizes");
    }
    narrowed.push_back(static_cast<std::int64_t>(addresses[i]));
  }
  return narrowed;
}

} // namespace allocation
