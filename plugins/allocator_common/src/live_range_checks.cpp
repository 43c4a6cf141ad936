// SPDX-License-Identifier: Apache-2.0
#include "allocator_common/live_range_checks.hpp"

#include "npu/core/diagnostics.hpp"

#include <string>

namespace allocation {
namespace {

[[noreturn]] void throwInvalidRange(const npu::LiveRange& range, const std::string& problem) {
  npu::SourceLocation where;
  where.object = "live range '" + range.name + "'";
  npu::throwInternalError("live range '" + range.name + "' " + problem + " (start " + std::to_string(range.start) +
                              ", end " + std::to_string(range.end) + ", size " + std::to_string(range.size) +
                              ", alignment " + std::to_string(range.alignment) + ")",
                          where);
}

} // namespace

void checkLiveRanges(std::span<const npu::LiveRange> ranges) {
  for (const npu::LiveRange& range : ranges) {
    if (range.start < 0) {
      throwInvalidRange(range, "starts before time 0");
    }
    if (range.end < range.start) {
      throwInvalidRange(range, "ends before it starts");
    }
    if (range.size < 0) {
      throwInvalidRange(range, "has a negative size");
    }
    if (range.alignment < 0) {
      throwInvalidRange(range, "has a negative alignment");
    }
  }
}

} // namespace allocation
