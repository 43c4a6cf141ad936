// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/schedule/live_range.hpp"

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace allocation {

struct HillClimbSettings {
  /// Vela's --hillclimb-max-iterations default (HillClimbAllocator.MAX_ITERATIONS). Only bounds the
  /// search while the best allocation is above `memoryLimit`; below it, the search stops 500 iterations
  /// after its last improvement, as in Vela.
  std::int64_t maxIterations = 99999;
  /// The size the search tries to get under. Vela passes the arena cache size for fast storage with
  /// spilling (Dedicated_Sram), else the whole address space; the default means "no limit".
  std::int64_t memoryLimit = std::numeric_limits<std::int64_t>::max();
};

/// What one hill-climb run did, for tests and reports.
struct HillClimbOutcome {
  std::vector<std::int64_t> addresses; ///< one per range, in the order given
  std::int64_t iterations = 0;         ///< search iterations run (0 when the first allocation was optimal)
  std::int64_t lowerBound = 0;         ///< largest total size live at one time: no allocation is smaller
};

/// Vela's hill-climb allocator (hillclimb_allocation.py): a first allocation in order of urgency, then a
/// search that swaps the allocation order of ranges around the bottleneck with Vela's random choices
/// (CPython's generator seeded with 1), keeping swaps that do not make the allocation larger. The same
/// ranges in the same order give Vela's addresses.
[[nodiscard]] HillClimbOutcome allocateByHillClimb(std::span<const npu::LiveRange> ranges,
                                                   const HillClimbSettings& settings = {});

} // namespace allocation
