// SPDX-License-Identifier: Apache-2.0
#pragma once
// Spilling feature maps out of the fast storage: a schedule that needs more fast storage than the limit
// is made to fit by homing chosen feature maps in the slower memory instead, greedily by the fewest
// cycles added per byte saved (docs/search-scheduler.md, "Spilling round"). Works on any Schedule
// through the framework's evaluation, so it serves any accelerator plugin.

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace npu::search {

/// Where feature maps may be spilled: the memory system's feature-map area when the fast storage is a
/// separate memory (the runtime then gives the accelerator two working regions, scratch and fast
/// scratch, as in Vela's Dedicated_Sram); nullopt when feature maps already live in the fast storage
/// (Shared_Sram, Sram_Only), where no other writable region exists to spill to.
[[nodiscard]] std::optional<MemoryArea> spillAreaOf(const MemorySystem& memory);

/// A schedule made to fit, and what was moved.
struct SpilledSchedule {
  Schedule schedule;
  std::vector<TensorId> spilled; ///< tensors moved to the spill area, in the order chosen
};

/// Moves whole feature-map buffers of `schedule` from the fast storage to `spillArea` until the fast
/// storage's peak is within `limit`: at each step the first time of the peak is relieved by the buffer
/// live then with the fewest cycles added (by `scheduling::evaluateSchedule`) per byte, ties to the
/// earlier buffer. Rolling buffers, weight and scales buffers and constants stay. Nullopt when what
/// cannot be spilled alone exceeds the limit. Deterministic at any thread count.
[[nodiscard]] std::optional<SpilledSchedule> spillToFit(const Graph& graph, Schedule schedule,
                                                        const Accelerator& accelerator, std::int64_t limit,
                                                        MemoryArea spillArea);

} // namespace npu::search
