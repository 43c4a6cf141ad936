// SPDX-License-Identifier: Apache-2.0
#pragma once
// Candidate generation: how an operation runs for a given OFM stripe (block config, IFM stripes,
// full-depth weight encoding, compute cycles), and the three families of whole-region proposals Vela's
// scheduler starts from: MAX (every operation whole), MIN (the smallest stripes the next operation
// allows) and striped proposals derived backwards from a stripe of a cascade's last operation.

#include "schedule_plan.hpp"

#include <utility>

namespace npu::cascade {

/// Vela: SchedulerOperation.create_scheduler_info.
[[nodiscard]] OperationPlan makeOperationPlan(const SchedulingContext& context, const SchedulingOperation& op,
                                              const Shape4& ofmStripe);

/// Compute cycles of the operation producing `ofmDepth` channels with `block` (Vela:
/// Scheduler.estimate_op_performance), with the feature maps where `placement` homes them.
[[nodiscard]] double estimateCycles(const SchedulingContext& context, const TensorPlacement& placement,
                                    const SchedulingOperation& op, const BlockConfig& block, int ofmDepth);

/// Elements read and written (Vela: Scheduler.estimate_element_access).
[[nodiscard]] ElementAccess estimateAccess(const SchedulingContext& context, const TensorPlacement& placement,
                                           const SchedulingOperation& op, const BlockConfig& block);

/// Every operation whole, no cascades, no buffering (Vela: create_initial_schedule).
[[nodiscard]] SchedulePlan maxSchedule(const SchedulingContext& context, const TensorPlacement& placement);

/// Every operation in the smallest stripes the following operation's stride allows (Vela:
/// propose_minimal_schedule).
[[nodiscard]] SchedulePlan minimalSchedule(const SchedulingContext& context, const TensorPlacement& placement);

/// maxSchedule and minimalSchedule, computed together: one parallel batch whose tasks start with the
/// largest weights, so that two threads share the work evenly.
[[nodiscard]] std::pair<SchedulePlan, SchedulePlan> maxAndMinimalSchedules(const SchedulingContext& context,
                                                                           const TensorPlacement& placement);

/// Stripes derived backwards from `finalStripe` for the operations `reference` covers, keeping the
/// reference's weight buffering (Vela: propose_schedule_striping).
[[nodiscard]] SchedulePlan stripedSchedule(const SchedulingContext& context, const TensorPlacement& placement,
                                           const Shape4& finalStripe, const std::string& label,
                                           const SchedulePlan& reference);

/// Upscaling factor of a resampling mode (Vela: architecture_allocator.to_upscale).
[[nodiscard]] int upscaleOf(Resampling resampling);

} // namespace npu::cascade
