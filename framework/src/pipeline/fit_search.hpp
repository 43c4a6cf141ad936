// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/pipeline/compiler.hpp"

#include <cstdint>
#include <functional>

namespace npu {

/// Searches for the smallest limit above `failingLimit` at which `fits` holds: the ceiling first (so a
/// failure that no limit cures costs one run), then doubling from `failingLimit`, then bisection until
/// a failing and a fitting limit are `granularity` apart (limits tried are multiples of it, the ceiling
/// and the doubled limits aside). At most `maxRuns` calls of `fits`. The limit named has been seen to
/// fit and the failing one below it to fail; that nothing smaller fits assumes fitting is monotone in
/// the limit (docs/fitting.md: how that was checked).
[[nodiscard]] FitSearchOutcome searchSmallestFittingLimit(std::int64_t failingLimit,
                                                          const std::function<bool(std::int64_t)>& fits,
                                                          std::int64_t granularity, std::int64_t ceiling, int maxRuns);

/// "791,552 bytes (773 KiB)": the exact figure with thousands separators, then KiB to a tenth.
[[nodiscard]] std::string describeBytes(std::int64_t bytes);

} // namespace npu
