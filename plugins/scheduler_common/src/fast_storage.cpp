// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/fast_storage.hpp"

#include <algorithm>
#include <tuple>

namespace npu::scheduling {

namespace {

using Usage = std::vector<std::int64_t>;

std::int64_t peakOver(const Usage& usage, const TimedLiveRange& range) {
  std::int64_t peak = 0;
  const auto last = std::min<std::int64_t>(range.end, static_cast<std::int64_t>(usage.size()) - 1);
  for (std::int64_t t = range.start; t <= last; ++t) {
    peak = std::max(peak, usage[static_cast<std::size_t>(t)]);
  }
  return peak;
}

void addOver(Usage& usage, const TimedLiveRange& range, std::int64_t bytes) {
  const auto last = std::min<std::int64_t>(range.end, static_cast<std::int64_t>(usage.size()) - 1);
  for (std::int64_t t = range.start; t <= last; ++t) {
    usage[static_cast<std::size_t>(t)] += bytes;
  }
}

/// Exhaustive search over one component (Vela: FastStorageComponentAllocator.allocate_exhaustive):
/// every subset that fits, scored by the accesses it keeps in fast storage; the first best wins.
class ComponentSearch {
public:
  ComponentSearch(std::span<const TimedLiveRange> ranges, std::span<const std::size_t> component,
                  std::span<const double> scores, Usage& base, Usage& maximum, std::int64_t limit)
      : ranges_(ranges), component_(component), scores_(scores), base_(base), maximum_(maximum), limit_(limit),
        current_(component.size(), false), best_(component.size(), false) {}

  /// Evicted flags of the best selection.
  std::vector<bool> run() {
    search(0, 0.0);
    return best_;
  }

private:
  void search(std::size_t item, double score) {
    if (item >= component_.size()) {
      if (score > bestScore_) {
        bestScore_ = score;
        best_ = current_;
      }
      return;
    }
    const TimedLiveRange& range = ranges_[component_[item]];
    if (peakOver(base_, range) + range.size <= limit_) {
      current_[item] = false;
      addOver(base_, range, range.size);
      search(item + 1, score + scores_[component_[item]]);
      addOver(base_, range, -range.size);
    }
    // When it fits even with everything resident, leaving it out cannot help.
    if (peakOver(maximum_, range) > limit_) {
      current_[item] = true;
      addOver(maximum_, range, -range.size);
      search(item + 1, score);
      addOver(maximum_, range, range.size);
    }
  }

  std::span<const TimedLiveRange> ranges_;
  std::span<const std::size_t> component_;
  std::span<const double> scores_;
  Usage& base_;
  Usage& maximum_;
  std::int64_t limit_;
  std::vector<bool> current_;
  std::vector<bool> best_;
  double bestScore_ = -1.0;
};

void remember(std::vector<std::size_t>& list, std::size_t range) {
  if (std::find(list.begin(), list.end(), range) == list.end()) {
    list.push_back(range);
  }
}

void forget(std::vector<std::size_t>& list, std::size_t range) {
  list.erase(std::remove(list.begin(), list.end(), range), list.end());
}

} // namespace

FastStorageSelection selectFastStorageResidents(std::span<const TimedLiveRange> ranges, std::vector<std::int64_t> usage,
                                                std::span<const std::size_t> candidates, std::span<const double> scores,
                                                std::int64_t limit, const FastStorageSearchLimits& limits) {
  FastStorageSelection selection;
  const auto peak = [](const Usage& values) { return values.empty() ? 0 : *std::max_element(values.begin(), values.end()); };
  if (peak(usage) <= limit) {
    selection.usage = std::move(usage);
    return selection;
  }
  Usage& maximum = usage;
  Usage base = usage;
  for (const std::size_t candidate : candidates) {
    addOver(base, ranges[candidate], -ranges[candidate].size);
  }
  const auto evict = [&](std::size_t candidate) {
    addOver(maximum, ranges[candidate], -ranges[candidate].size);
    remember(selection.evicted, candidate);
  };

  std::vector<std::size_t> remaining;
  for (const std::size_t candidate : candidates) {
    const TimedLiveRange& range = ranges[candidate];
    if (peakOver(base, range) + range.size > limit) {
      evict(candidate); // can never fit
      remember(selection.rememberedEvictions, candidate);
    } else {
      remaining.push_back(candidate);
    }
  }
  std::vector<std::size_t> competing;
  for (const std::size_t candidate : remaining) {
    if (peakOver(maximum, ranges[candidate]) <= limit) {
      addOver(base, ranges[candidate], ranges[candidate].size); // always fits
    } else {
      competing.push_back(candidate);
    }
  }
  if (!competing.empty()) {
    std::stable_sort(competing.begin(), competing.end(), [&](std::size_t a, std::size_t b) {
      const TimedLiveRange& x = ranges[a];
      const TimedLiveRange& y = ranges[b];
      return std::tuple(x.start, x.end, x.size) < std::tuple(y.start, y.end, y.size);
    });
    const auto maxItems = static_cast<std::size_t>(limits.maxExhaustiveItems);
    if (competing.size() > maxItems) {
      // Ranges living much longer than their neighbours make the search slow and the allocation hard;
      // they leave the fast storage (Vela does not count them as evicted feature maps).
      const std::vector<std::size_t> sorted = competing;
      for (std::size_t i = 0; i < sorted.size(); ++i) {
        const TimedLiveRange& range = ranges[sorted[i]];
        if (range.end - range.start < limits.maxExhaustiveLifeRange) {
          continue;
        }
        const std::size_t compared = std::min(i + maxItems, competing.size() - 1);
        if (range.end > ranges[sorted[compared]].end + limits.maxExhaustiveLifeRange) {
          evict(sorted[i]);
          forget(competing, sorted[i]);
        }
      }
    }
    // Groups of overlapping ranges, at most maxItems each, searched one after the other.
    std::vector<std::pair<std::size_t, std::size_t>> components;
    if (!competing.empty()) {
      std::size_t start = 0;
      std::int64_t endTime = ranges[competing.front()].end;
      for (std::size_t i = 0; i < competing.size(); ++i) {
        const TimedLiveRange& range = ranges[competing[i]];
        if (range.start <= endTime && i - start < maxItems) {
          endTime = std::max(endTime, range.end);
        } else {
          components.emplace_back(start, i);
          start = i;
          endTime = range.end;
        }
      }
      components.emplace_back(start, competing.size());
    }
    for (const auto& [first, last] : components) {
      const std::span<const std::size_t> component(competing.data() + first, last - first);
      const std::vector<bool> evicted = ComponentSearch(ranges, component, scores, base, maximum, limit).run();
      for (std::size_t i = 0; i < component.size(); ++i) {
        if (evicted[i]) {
          evict(component[i]);
          remember(selection.rememberedEvictions, component[i]);
        } else {
          addOver(base, ranges[component[i]], ranges[component[i]].size);
          forget(selection.rememberedEvictions, component[i]);
        }
      }
    }
  }
  // Vela checks only when ranges competed (scheduler.use_fast_storage_for_feature_maps asserts
  // "Allocation exceeds staging limit" after allocating the components).
  selection.fits = competing.empty() || peak(maximum) <= limit;
  selection.usage = std::move(usage);
  return selection;
}

} // namespace npu::scheduling
