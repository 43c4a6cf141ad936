// SPDX-License-Identifier: Apache-2.0
// Behaviour of Vela 3.10's hillclimb_allocation.py (HillClimbAllocator); comments name the Vela method
// each part reproduces. The search state (addresses, predecessors, turns) is deliberately left stale
// between attempts where Vela leaves it stale, because the next bottleneck is read from it.
#include "allocator_common/hill_climb_allocation.hpp"

#include "allocator_common/address_arithmetic.hpp"
#include "allocator_common/live_range_checks.hpp"
#include "allocator_common/python_random.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

namespace allocation {
namespace {

constexpr std::size_t kNoPredecessor = static_cast<std::size_t>(-1);
/// After this many iterations without improvement the search also swaps around non-neighbours' neighbours.
constexpr std::int64_t kIterationsStuck = 50;
/// The search runs at least this many iterations past its last improvement (unless optimal).
constexpr std::int64_t kIterationsSinceImprovement = 500;
/// Percent chance of picking the first swap partner among the bottleneck's non-neighbours (Vela's tuning).
constexpr std::int64_t kNonNeighbourPercent = 30;
/// Vela seeds Python's generator with 1 on every call, so every allocation is reproducible.
constexpr std::uint32_t kSeed = 1;

/// One live range as the search sees it (Vela's LiveRangeInfo).
struct SearchRange {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::int64_t size = 0;
  std::int64_t alignment = 1;
  WideAddress urgency = 0;             ///< largest total size live at any time of this range
  std::vector<std::size_t> neighbours; ///< ranges live at the same time, in Vela's order
  // State of the latest allocation attempt (stale for ranges that attempt did not reach).
  bool allocated = false;
  WideAddress address = 0;
  WideAddress endAddress = 0;
  std::size_t predecessor = kNoPredecessor; ///< the range whose end pushed this one to its address
  std::size_t turn = 0;                     ///< position in the allocation order that placed it

  [[nodiscard]] bool livesWith(const SearchRange& other) const { return start <= other.end && other.start <= end; }
};

/// Urgency and the lower bound (HillClimbAllocator.__init__), without a per-time-step table so that
/// far-apart time indices cost nothing: the usage of live ranges only rises at a range's start, so the
/// maximum over any range's lifetime is reached at some start time inside it.
WideAddress computeUrgencies(std::vector<SearchRange>& ranges) {
  std::vector<std::int64_t> startTimes;
  for (const SearchRange& range : ranges) {
    startTimes.push_back(range.start);
  }
  std::sort(startTimes.begin(), startTimes.end());
  startTimes.erase(std::unique(startTimes.begin(), startTimes.end()), startTimes.end());
  std::vector<WideAddress> usage(startTimes.size(), 0);
  for (const SearchRange& range : ranges) {
    const auto first = std::lower_bound(startTimes.begin(), startTimes.end(), range.start);
    const auto last = std::upper_bound(startTimes.begin(), startTimes.end(), range.end);
    for (auto time = first; time != last; ++time) {
      usage[static_cast<std::size_t>(time - startTimes.begin())] += range.size;
    }
  }
  for (SearchRange& range : ranges) {
    const auto first = std::lower_bound(startTimes.begin(), startTimes.end(), range.start) - startTimes.begin();
    const auto last = std::upper_bound(startTimes.begin(), startTimes.end(), range.end) - startTimes.begin();
    range.urgency = *std::max_element(usage.begin() + first, usage.begin() + last);
  }
  return *std::max_element(usage.begin(), usage.end());
}

/// Vela walks the time steps of a range and appends each new range live at that step, in index order:
/// so neighbours come ordered by the time they first share with the range, then by index. The pairs are
/// found by a sweep in order of start time, each range against those started before it and not yet
/// ended (all pairs against all would be quadratic: seconds at ten thousand layers).
void collectNeighbours(std::vector<SearchRange>& ranges) {
  std::vector<std::size_t> byStart(ranges.size());
  std::iota(byStart.begin(), byStart.end(), std::size_t{0});
  std::stable_sort(byStart.begin(), byStart.end(),
                   [&](std::size_t a, std::size_t b) { return ranges[a].start < ranges[b].start; });
  std::vector<std::vector<std::pair<std::int64_t, std::size_t>>> found(ranges.size());
  std::vector<std::size_t> started;
  for (const std::size_t i : byStart) {
    // A range that ended before this one starts lives with no range that starts later either.
    std::erase_if(started, [&](std::size_t j) { return ranges[j].end < ranges[i].start; });
    for (const std::size_t j : started) {
      if (ranges[i].livesWith(ranges[j])) {
        const std::int64_t firstSharedTime = std::max(ranges[i].start, ranges[j].start);
        found[i].emplace_back(firstSharedTime, j);
        found[j].emplace_back(firstSharedTime, i);
      }
    }
    started.push_back(i);
  }
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    std::sort(found[i].begin(), found[i].end());
    ranges[i].neighbours.reserve(found[i].size());
    for (const auto& [firstSharedTime, neighbour] : found[i]) {
      ranges[i].neighbours.push_back(neighbour);
    }
  }
}

class HillClimbSearch {
public:
  HillClimbSearch(std::span<const npu::LiveRange> input, const HillClimbSettings& settings)
      : settings_(settings), random_(kSeed) {
    ranges_.reserve(input.size());
    for (const npu::LiveRange& range : input) {
      SearchRange& added = ranges_.emplace_back();
      added.start = range.start;
      added.end = range.end;
      added.size = range.size;
      added.alignment = alignmentOf(range);
    }
    lowerBound_ = computeUrgencies(ranges_);
    collectNeighbours(ranges_);
  }

  /// HillClimbAllocator.allocate: the urgency order first, then the search if that was not optimal.
  std::vector<WideAddress> run() {
    std::vector<std::size_t> order = priorityOrder();
    bestSize_ = allocateInOrder(order);
    recordBestAddresses();
    if (bestSize_ > lowerBound_) {
      search(std::move(order));
    }
    return bestAddresses_;
  }

  [[nodiscard]] std::int64_t iterations() const { return iterations_; }
  [[nodiscard]] WideAddress lowerBound() const { return lowerBound_; }

private:
  /// LiveRangeInfo.__lt__: most urgent, then longest, then earliest, then largest, then by index.
  [[nodiscard]] std::vector<std::size_t> priorityOrder() const {
    std::vector<std::size_t> order(ranges_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const SearchRange& first = ranges_[a];
      const SearchRange& second = ranges_[b];
      if (first.urgency != second.urgency) {
        return first.urgency > second.urgency;
      }
      if (first.end - first.start != second.end - second.start) {
        return first.end - first.start > second.end - second.start;
      }
      if (first.start != second.start) {
        return first.start < second.start;
      }
      if (first.size != second.size) {
        return first.size > second.size;
      }
      return a < b;
    });
    return order;
  }

  /// HillClimbAllocator.allocate_lr: the lowest aligned address no allocated neighbour overlaps; the
  /// neighbour that last pushed the address up becomes the predecessor.
  void allocateRange(SearchRange& range) {
    WideAddress address = 0;
    std::size_t predecessor = kNoPredecessor;
    bool fits = false;
    while (!fits) {
      fits = true;
      for (const std::size_t index : range.neighbours) {
        const SearchRange& other = ranges_[index];
        if (!other.allocated || other.endAddress <= address) {
          continue;
        }
        if (other.address < address + range.size) {
          fits = false;
          address = roundUp(other.endAddress, range.alignment);
          predecessor = index;
        }
      }
    }
    range.allocated = true;
    range.address = address;
    range.endAddress = address + range.size;
    range.predecessor = predecessor;
  }

  /// HillClimbAllocator.allocate_indices: allocates in `order`, giving up once it is worse than the best.
  WideAddress allocateInOrder(std::span<const std::size_t> order) {
    for (SearchRange& range : ranges_) {
      range.allocated = false;
    }
    WideAddress size = 0;
    for (std::size_t turn = 0; turn < order.size(); ++turn) {
      SearchRange& range = ranges_[order[turn]];
      allocateRange(range);
      range.turn = turn;
      size = std::max(size, range.endAddress);
      if (bestSize_ && size > *bestSize_) {
        break;
      }
    }
    return size;
  }

  /// HillClimbAllocator.add_predecessor_turns.
  void addPredecessorTurns(std::size_t index, std::vector<bool>& turnSeen, std::vector<std::size_t>& turns) const {
    const auto add = [&](std::size_t turn) {
      if (!turnSeen[turn]) {
        turnSeen[turn] = true;
        turns.push_back(turn);
      }
    };
    add(ranges_[index].turn);
    // Predecessor chains always end (each step goes to an earlier placement); the bound only guards that.
    for (std::size_t step = 0; ranges_[index].predecessor != kNoPredecessor && step < ranges_.size(); ++step) {
      index = ranges_[index].predecessor;
      add(ranges_[index].turn);
    }
  }

  /// One element of `turns`, chosen like Vela's `turns[random.randint(0, len(turns) - 1 - fewer)]`.
  std::size_t pick(const std::vector<std::size_t>& turns, std::size_t fewer = 0) {
    if (turns.size() <= fewer) {
      // Vela's randint would raise on this empty range; take the first turn without drawing.
      return turns.front();
    }
    const auto last = static_cast<std::int64_t>(turns.size() - 1 - fewer);
    return turns[static_cast<std::size_t>(random_.integerBetween(0, last))];
  }

  /// HillClimbAllocator.attempt_bottleneck_fix: swaps two turns among the ranges that decided where the
  /// bottleneck (the range ending highest) went: its neighbours and all their predecessors.
  void attemptBottleneckFix(std::vector<std::size_t>& order, std::int64_t iterationsStuck) {
    std::size_t bottleneck = 0;
    for (std::size_t i = 1; i < ranges_.size(); ++i) {
      if (ranges_[i].endAddress > ranges_[bottleneck].endAddress) {
        bottleneck = i;
      }
    }
    std::vector<bool> turnSeen(ranges_.size(), false);
    std::vector<std::size_t> turns;
    addPredecessorTurns(bottleneck, turnSeen, turns);
    for (const std::size_t neighbour : ranges_[bottleneck].neighbours) {
      addPredecessorTurns(neighbour, turnSeen, turns);
    }
    // Ranges not live with the bottleneck cause the gaps below it: they are picked more often.
    std::vector<std::size_t> nonNeighbourTurns;
    for (const std::size_t turn : turns) {
      if (!ranges_[bottleneck].livesWith(ranges_[order[turn]])) {
        nonNeighbourTurns.push_back(turn);
      }
    }
    const bool preferNonNeighbour = random_.integerBetween(0, 100) < kNonNeighbourPercent;
    const std::size_t first = preferNonNeighbour && !nonNeighbourTurns.empty() ? pick(nonNeighbourTurns) : pick(turns);
    std::size_t second = pick(turns, 1);
    if (first == second) {
      second = turns.back();
    }
    std::swap(order[first], order[second]);
    if (iterationsStuck > kIterationsStuck) {
      // No progress for a while: widen the set with the non-neighbours' neighbours and swap once more.
      for (const std::size_t turn : nonNeighbourTurns) {
        for (const std::size_t neighbour : ranges_[order[turn]].neighbours) {
          if (!turnSeen[ranges_[neighbour].turn]) {
            turnSeen[ranges_[neighbour].turn] = true;
            turns.push_back(ranges_[neighbour].turn);
          }
        }
      }
      const std::size_t third = pick(turns);
      const std::size_t fourth = pick(turns);
      std::swap(order[third], order[fourth]);
    }
  }

  /// HillClimbAllocator.search: keeps a reordering when it is no worse than the best, else reverts it.
  void search(std::vector<std::size_t> order) {
    std::vector<std::size_t> bestOrder = order;
    std::int64_t lastImprovement = 0;
    std::int64_t iteration = 0;
    while ((*bestSize_ > settings_.memoryLimit && iteration < settings_.maxIterations) ||
           iteration - lastImprovement < kIterationsSinceImprovement) {
      attemptBottleneckFix(order, iteration - lastImprovement);
      const WideAddress size = allocateInOrder(order);
      iterations_ = iteration + 1;
      if (size <= *bestSize_) {
        if (size < *bestSize_) {
          lastImprovement = iteration;
        }
        bestSize_ = size;
        bestOrder = order;
        recordBestAddresses();
        if (size <= lowerBound_) {
          return;
        }
      } else {
        order = bestOrder;
      }
      ++iteration;
    }
  }

  void recordBestAddresses() {
    bestAddresses_.clear();
    for (const SearchRange& range : ranges_) {
      bestAddresses_.push_back(range.address);
    }
  }

  HillClimbSettings settings_;
  PythonRandom random_;
  std::vector<SearchRange> ranges_;
  WideAddress lowerBound_ = 0;
  std::optional<WideAddress> bestSize_; ///< none before the first allocation (Vela starts at 2**63)
  std::vector<WideAddress> bestAddresses_;
  std::int64_t iterations_ = 0;
};

} // namespace

HillClimbOutcome allocateByHillClimb(std::span<const npu::LiveRange> ranges, const HillClimbSettings& settings) {
  checkLiveRanges(ranges);
  if (settings.maxIterations < 0) {
    npu::throwConfigError("hill-climb max_iterations is " + std::to_string(settings.maxIterations), {},
                          "give 0 or more iterations");
  }
  HillClimbOutcome outcome;
  if (ranges.empty()) {
    return outcome;
  }
  HillClimbSearch search(ranges, settings);
  const std::vector<WideAddress> addresses = search.run();
  outcome.addresses = narrowAddresses(ranges, addresses);
  outcome.iterations = search.iterations();
  outcome.lowerBound = static_cast<std::int64_t>(search.lowerBound()); // fits: the allocation above does
  return outcome;
}

} // namespace allocation
