// SPDX-License-Identifier: Apache-2.0
#pragma once
// Live ranges of a complete plan, and the memory snapshot the scheduler steers by (Vela:
// Scheduler.update_op_memory_snapshot): fast-storage bytes live at every step, and each operation's
// step time.

#include "schedule_plan.hpp"

#include <vector>

namespace npu::cascade {

/// What the live range analysis needs of each operation of a plan that covers the whole region.
[[nodiscard]] std::vector<scheduling::StepLayout> stepLayouts(const SchedulingContext& context,
                                                              const SchedulePlan& plan);

/// Live ranges of `plan` in one memory.
[[nodiscard]] scheduling::LiveRangeGraph planLiveRanges(const SchedulingContext& context,
                                                        const TensorPlacement& placement, const SchedulePlan& plan,
                                                        const scheduling::MemoryScope& scope);

/// The scope of the fast storage as the scheduler sees it: every scratch tensor in it.
[[nodiscard]] scheduling::MemoryScope fastStorageScope(const SchedulingContext& context);

/// Recomputes the memory snapshot, the peak and every operation's time index of a complete plan.
void updateMemorySnapshot(const SchedulingContext& context, const TensorPlacement& placement, SchedulePlan& plan);

} // namespace npu::cascade
