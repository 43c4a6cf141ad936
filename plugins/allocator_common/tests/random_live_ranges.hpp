// SPDX-License-Identifier: Apache-2.0
#pragma once

// Seeded random live ranges for the allocator tests. Drawn with PythonRandom, whose stream is fixed by
// its algorithm (std:: distributions differ between standard libraries), so every platform sees the
// same cases.
#include "allocator_common/python_random.hpp"

#include "npu/schedule/live_range.hpp"

#include <string>
#include <vector>

namespace allocation::test {

struct RandomRangeShape {
  std::int64_t maxRanges = 30;
  std::int64_t maxTime = 30;
  std::vector<std::int64_t> alignments{16};
  bool zeroSizes = false;
  /// Sizes rounded up to the range's alignment, as Vela's storage sizes always are.
  bool alignedSizes = false;
};

/// Ranges like a schedule's: mostly short-lived, some long-lived, sizes from a few bytes to tens of KiB.
inline std::vector<npu::LiveRange> randomLiveRanges(std::uint32_t seed, const RandomRangeShape& shape = {}) {
  PythonRandom random(seed);
  const std::int64_t count = random.integerBetween(1, shape.maxRanges);
  const std::int64_t horizon = random.integerBetween(0, shape.maxTime);
  std::vector<npu::LiveRange> ranges;
  for (std::int64_t i = 0; i < count; ++i) {
    npu::LiveRange range;
    range.name = "t" + std::to_string(i);
    range.start = random.integerBetween(0, horizon);
    const bool longLived = random.integerBetween(0, 4) == 0;
    range.end = range.start + (longLived ? random.integerBetween(0, horizon) : random.integerBetween(0, 2));
    switch (random.integerBetween(0, 2)) {
    case 0:
      range.size = 16 * random.integerBetween(1, 64);
      break;
    case 1:
      range.size = random.integerBetween(1, 5000);
      break;
    default:
      range.size = 1024 * random.integerBetween(1, 48);
      break;
    }
    if (shape.zeroSizes && random.integerBetween(0, 6) == 0) {
      range.size = 0;
    }
    const auto alignmentChoice = random.integerBetween(0, static_cast<std::int64_t>(shape.alignments.size()) - 1);
    range.alignment = shape.alignments[static_cast<std::size_t>(alignmentChoice)];
    if (shape.alignedSizes) {
      range.size = (range.size + range.alignment - 1) / range.alignment * range.alignment;
    }
    ranges.push_back(range);
  }
  return ranges;
}

/// Highest end address of an allocation.
inline std::int64_t peakOf(const std::vector<npu::LiveRange>& ranges, const std::vector<std::int64_t>& addresses) {
  return npu::allocationPeak(ranges, addresses);
}

} // namespace allocation::test
