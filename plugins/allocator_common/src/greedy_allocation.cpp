// SPDX-License-Identifier: Apache-2.0
#include "allocator_common/greedy_allocation.hpp"

#include "allocator_common/address_arithmetic.hpp"
#include "allocator_common/live_range_checks.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

namespace allocation {
namespace {

/// Vela's LiveRange.__lt__ (live_range.py), with the position as the last tie-break: Vela's order of
/// ranges equal in all four fields comes from a Python set and is not reproducible.
bool precedes(std::span<const npu::LiveRange> ranges, std::size_t a, std::size_t b) {
  const npu::LiveRange& first = ranges[a];
  const npu::LiveRange& second = ranges[b];
  return std::tie(first.start, first.end, first.size, first.name, a) <
         std::tie(second.start, second.end, second.size, second.name, b);
}

/// A range placed and still live, kept in address order like Vela's `current_allocs`.
struct Placement {
  WideAddress address = 0;
  std::size_t range = 0;
};

class GreedyAllocator {
public:
  explicit GreedyAllocator(std::span<const npu::LiveRange> ranges) : ranges_(ranges), addresses_(ranges.size(), 0) {}

  std::vector<std::int64_t> run() {
    for (const std::size_t index : visitingOrder()) {
      release(ranges_[index].start);
      place(index);
    }
    return narrowAddresses(ranges_, addresses_);
  }

private:
  /// greedy_allocation.py allocate_live_ranges: by start time, the longest first, then LiveRange order.
  [[nodiscard]] std::vector<std::size_t> visitingOrder() const {
    std::vector<std::size_t> order(ranges_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (ranges_[a].start != ranges_[b].start) {
        return ranges_[a].start < ranges_[b].start;
      }
      if (ranges_[a].end != ranges_[b].end) {
        return ranges_[a].end > ranges_[b].end;
      }
      return precedes(ranges_, a, b);
    });
    return order;
  }

  void release(std::int64_t now) {
    std::erase_if(live_, [&](const Placement& placement) { return ranges_[placement.range].end < now; });
  }

  /// greedy_allocation.py GreedyAllocator.alloc: the tightest gap below the live allocations that holds
  /// the range's aligned size, else the top of the live allocations.
  void place(std::size_t index) {
    const npu::LiveRange& range = ranges_[index];
    const std::int64_t alignment = alignmentOf(range);
    const WideAddress alignedSize = roundUp(range.size, alignment);

    WideAddress top = 0;
    for (const Placement& placement : live_) {
      top = std::max(top, placement.address + ranges_[placement.range].size);
    }
    WideAddress best = roundUp(top, alignment);
    std::optional<WideAddress> bestGap;
    WideAddress gapStart = 0;
    for (const Placement& placement : live_) {
      const WideAddress candidate = roundUp(gapStart, alignment);
      if (candidate + alignedSize <= placement.address && (!bestGap || placement.address - candidate < *bestGap)) {
        best = candidate;
        bestGap = placement.address - candidate;
      }
      // Vela sets the gap start to this allocation's end; never stepping back keeps a zero-size range
      // sharing an address with a larger one from reopening the larger one's bytes (Vela never sees
      // zero sizes: its storage sizes are at least one allocation quantum).
      gapStart = std::max(gapStart, placement.address + ranges_[placement.range].size);
    }

    addresses_[index] = best;
    const Placement placed{best, index};
    const auto position =
        std::upper_bound(live_.begin(), live_.end(), placed, [&](const Placement& a, const Placement& b) {
          return a.address != b.address ? a.address < b.address : precedes(ranges_, a.range, b.range);
        });
    live_.insert(position, placed);
  }

  std::span<const npu::LiveRange> ranges_;
  std::vector<WideAddress> addresses_;
  std::vector<Placement> live_; ///< sorted by address, then LiveRange order
};

} // namespace

std::vector<std::int64_t> allocateGreedily(std::span<const npu::LiveRange> ranges) {
  checkLiveRanges(ranges);
  return GreedyAllocator(ranges).run();
}

} // namespace allocation
