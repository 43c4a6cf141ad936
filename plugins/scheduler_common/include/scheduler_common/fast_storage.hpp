// SPDX-License-Identifier: Apache-2.0
#pragma once
// Choosing which feature maps stay in the fast storage when not all of them fit (Vela:
// Scheduler.use_fast_storage_for_feature_maps and FastStorageComponentAllocator). Every candidate is
// first assumed resident; ranges that can never fit are evicted, ranges that always fit are kept, and
// the rest compete in small groups of overlapping ranges, searched exhaustively for the selection with
// the most element accesses.

#include "scheduler_common/live_ranges.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace npu::scheduling {

struct FastStorageSelection {
  /// Candidate ranges (indices into the live range graph) that must leave the fast storage.
  std::vector<std::size_t> evicted;
  /// Of those, the ones Vela remembers as evicted feature maps (Scheduler.evicted_fms), in its order;
  /// ranges dropped only to keep the search small are not among them.
  std::vector<std::size_t> rememberedEvictions;
  /// Fast-storage usage over time with the selection applied (Vela's max_mem_usage afterwards).
  std::vector<std::int64_t> usage;
  /// Whether the usage stays within the limit everywhere (Vela asserts it).
  bool fits = true;
};

struct FastStorageSearchLimits {
  int maxExhaustiveItems = 20;     ///< Vela: FastStorageComponentAllocator.MAX_EXHAUSTIVE_ITEMS
  int maxExhaustiveLifeRange = 20; ///< Vela: FastStorageComponentAllocator.MAX_EXHAUSTIVE_LIFE_RANGE
};

/// `ranges` and `usage` describe the fast storage with every candidate resident; `candidates` are the
/// indices of the ranges that may be evicted, `scores[i]` the benefit of keeping range i resident
/// (indexed like `ranges`).
[[nodiscard]] FastStorageSelection selectFastStorageResidents(std::span<const TimedLiveRange> ranges,
                                                              std::vector<std::int64_t> usage,
                                                              std::span<const std::size_t> candidates,
                                                              std::span<const double> scores, std::int64_t limit,
                                                              const FastStorageSearchLimits& limits = {});

} // namespace npu::scheduling
