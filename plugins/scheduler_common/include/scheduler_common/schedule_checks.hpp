// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks every scheduler's result must pass before the framework allocates it, and the evaluation of
// a (possibly partial) schedule through the accelerator's cost model exactly as the final report does.

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::scheduling {

/// Problems of a schedule, each a sentence; empty when it is valid: every region operation scheduled
/// exactly once and in an order that respects the dataflow, cascades contiguous and consistent, every
/// buffer with a non-empty lifetime inside the schedule and a positive size, and the bytes live at any
/// time in the fast storage within `fastStorageLimit` (0: no limit).
[[nodiscard]] std::vector<std::string> checkSchedule(const Schedule& schedule, const Subgraph& subgraph,
                                                     MemoryArea fastStorage, std::int64_t fastStorageLimit);

/// Throws an Internal error listing the problems checkSchedule finds.
void requireValidSchedule(const Schedule& schedule, const Subgraph& subgraph, MemoryArea fastStorage,
                          std::int64_t fastStorageLimit);

/// Bytes live at each time of the schedule's timeline in one memory (the sum of the buffers live then);
/// Schedule::timeOf gives an operation's time.
[[nodiscard]] std::vector<std::int64_t> usageOverTime(const Schedule& schedule, MemoryArea area);

/// The network figures of a schedule (Vela: calc_new_performance_for_network), computed by the
/// framework's evaluation, i.e. exactly what the report will say. The schedule may cover only part of
/// its region.
[[nodiscard]] OperationPerformance evaluateSchedule(const Graph& graph, const Schedule& schedule,
                                                    const Accelerator& accelerator);

} // namespace npu::scheduling
