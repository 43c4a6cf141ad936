// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace npu {

/// A buffer that must hold its contents from time `start` to time `end` (inclusive; times are the
/// positions of scheduled operations), in one memory. Tensors that may share storage (an OFM written
/// over its IFM, a reshaped alias) are merged into one range before allocation.
struct LiveRange {
  std::string name;       ///< tensor or buffer names, for reports and error messages
  std::int64_t start = 0; ///< first time index the buffer is live
  std::int64_t end = 0;   ///< last time index the buffer is live (>= start)
  std::int64_t size = 0;  ///< bytes
  std::int64_t alignment = 16;

  [[nodiscard]] bool overlapsInTime(const LiveRange& other) const {
    return start <= other.end && other.start <= end;
  }
};

/// A problem found by verifyAllocation.
struct AllocationIssue {
  std::size_t first = 0;
  std::size_t second = 0; ///< equals `first` for alignment/negative-address issues
  std::string message;
};

/// Checks that no two ranges live at the same time share bytes and every address is aligned.
[[nodiscard]] std::vector<AllocationIssue> verifyAllocation(std::span<const LiveRange> ranges,
                                                            std::span<const std::int64_t> addresses);
/// Highest end address (address + size) over all ranges: the memory the allocation needs.
[[nodiscard]] std::int64_t allocationPeak(std::span<const LiveRange> ranges,
                                          std::span<const std::int64_t> addresses);
/// Sum of the sizes of ranges live at each time index in [0, timeCount): a lower bound on the peak.
[[nodiscard]] std::vector<std::int64_t> memoryUsageOverTime(std::span<const LiveRange> ranges,
                                                            std::int64_t timeCount);

} // namespace npu
