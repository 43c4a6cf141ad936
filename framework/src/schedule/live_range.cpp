// SPDX-License-Identifier: Apache-2.0
#include "npu/schedule/live_range.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace npu {

std::vector<AllocationIssue> verifyAllocation(std::span<const LiveRange> ranges,
                                              std::span<const std::int64_t> addresses) {
  require(ranges.size() == addresses.size(), "verifyAllocation: one address per range");
  std::vector<AllocationIssue> issues;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (addresses[i] < 0) {
      issues.push_back({i, i, "'" + ranges[i].name + "' has a negative address"});
    }
    if (ranges[i].alignment > 0 && addresses[i] % ranges[i].alignment != 0) {
      issues.push_back({i, i,
                        "'" + ranges[i].name + "' at " + std::to_string(addresses[i]) + " is not aligned to " +
                            std::to_string(ranges[i].alignment)});
    }
  }
  // Sweep over ranges sorted by start time; compare each with those still live.
  std::vector<std::size_t> order(ranges.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(ranges[a].start, a) < std::tie(ranges[b].start, b);
  });
  std::vector<std::size_t> active;
  for (std::size_t current : order) {
    std::erase_if(active, [&](std::size_t other) { return ranges[other].end < ranges[current].start; });
    for (std::size_t other : active) {
      const bool disjoint = addresses[current] + ranges[current].size <= addresses[other] ||
                            addresses[other] + ranges[other].size <= addresses[current];
      if (!disjoint && ranges[current].size > 0 && ranges[other].size > 0) {
        issues.push_back({std::min(current, other), std::max(current, other),
                          "'" + ranges[other].name + "' and '" + ranges[current].name +
                              "' are live at the same time and overlap in memory"});
      }
    }
    active.push_back(current);
  }
  return issues;
}

std::int64_t allocationPeak(std::span<const LiveRange> ranges, std::span<const std::int64_t> addresses) {
  require(ranges.size() == addresses.size(), "allocationPeak: one address per range");
  std::int64_t peak = 0;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    peak = std::max(peak, addresses[i] + ranges[i].size);
  }
  return peak;
}

std::vector<std::int64_t> memoryUsageOverTime(std::span<const LiveRange> ranges, std::int64_t timeCount) {
  std::vector<std::int64_t> usage(static_cast<std::size_t>(std::max<std::int64_t>(timeCount, 0)), 0);
  for (const auto& range : ranges) {
    const std::int64_t first = std::max<std::int64_t>(range.start, 0);
    const std::int64_t last = std::min<std::int64_t>(range.end, timeCount - 1);
    for (std::int64_t t = first; t <= last; ++t) {
      usage[static_cast<std::size_t>(t)] += range.size;
    }
  }
  return usage;
}

} // namespace npu
