// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/schedule/live_range.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace allocation {

/// Vela's greedy allocator (greedy_allocation.py): visits the ranges by start time (longer ranges first,
/// then smaller, then by name, then by position), frees those that ended, and puts each range into the
/// tightest gap between the live allocations that holds it, or on top of them.
[[nodiscard]] std::vector<std::int64_t> allocateGreedily(std::span<const npu::LiveRange> ranges);

} // namespace allocation
