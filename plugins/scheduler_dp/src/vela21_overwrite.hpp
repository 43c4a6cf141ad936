// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 2.1's rule for an OFM written over one of its inputs (live_range.merge_elementwise_op_ranges),
// which the final allocation of the DP scheduler's schedules follows.

#include "scheduler_common/scheduling_graph.hpp"

#include <optional>

namespace npu::dp {

/// The input whose live range an elementwise operation's OFM joins under Vela 2.1: never for SHL and
/// SHR; the candidates are the IFM and then IFM2 (IFM2 only when the IFM itself is a scratch tensor,
/// as 2.1 checks the IFM's memory type for both), each with a shape, in the memory considered; the
/// first candidate of the OFM's format and type, read and written by one operation each, whose
/// operand shape matches the OFM's. Vela 2.1 compares the shape of the operand slot numbered like the
/// candidate's position in that list, so an IFM2 that is the only candidate is compared through the
/// IFM's shape. No other reason (a network input) protects an input.
[[nodiscard]] std::optional<TensorId> vela21InputOverwrittenByOfm(const scheduling::SchedulingGraph& graph, int index,
                                                                  const scheduling::TensorFilter& considered);

/// The same rule as the search sees it (scheduler.calc_non_local_mem_usage, before any scheduling
/// decision): every feature map is still in Vela's default linear format (mark_tensors.get_format), so
/// formats always agree.
[[nodiscard]] std::optional<TensorId>
vela21InputOverwrittenBeforeScheduling(const scheduling::SchedulingGraph& graph, int index,
                                       const scheduling::TensorFilter& considered);

} // namespace npu::dp
