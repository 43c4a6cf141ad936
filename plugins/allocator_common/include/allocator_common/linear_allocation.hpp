// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/schedule/live_range.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace allocation {

/// Places the ranges one after another in the given order, ignoring time: Vela's linear allocator
/// (tensor_allocation.py, linear_allocate_live_ranges). Each range starts at the end of the previous one
/// rounded up to its alignment and takes its size rounded up to its alignment. Ranges that may share
/// storage arrive merged, so Vela's sharing of identical constant tensors has no counterpart here.
[[nodiscard]] std::vector<std::int64_t> allocateLinearly(std::span<const npu::LiveRange> ranges);

} // namespace allocation
