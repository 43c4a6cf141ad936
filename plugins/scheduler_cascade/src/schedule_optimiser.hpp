// SPDX-License-Identifier: Apache-2.0
#pragma once
// Selection: the cascades of the MIN schedule are optimised one by one (in parallel, they are
// independent) by proposing larger stripes for each cascade's last operation and keeping the best
// proposal that fits the memory limit (Vela: Scheduler.optimize_sub_schedule and optimize_schedule).

#include "schedule_plan.hpp"

#include <functional>
#include <optional>

namespace npu::cascade {

/// Cycles of a partial plan as the final report would count them (evaluation for the exhaustive
/// search); supplied by the scheduler so the optimiser does not depend on the output format.
using PlanEvaluator = std::function<double(const SchedulePlan& plan)>;

/// The best re-striping of one cascade of `reference`, or nothing when no proposal fits.
[[nodiscard]] std::optional<SchedulePlan> optimizeSubSchedule(const SchedulingContext& context,
                                                              const TensorPlacement& placement,
                                                              const CascadeSpan& cascade,
                                                              const SchedulePlan& reference,
                                                              const SchedulePlan& maxTemplate,
                                                              std::int64_t memoryLimit,
                                                              const PlanEvaluator& evaluate);

/// Optimises every cascade of `schedule` (updated in place, as Vela does) and proposes weight buffering
/// for the result. Returns `maxSchedule` itself when it fits and the fast storage is not separate.
[[nodiscard]] SchedulePlan optimizeSchedule(const SchedulingContext& context, const TensorPlacement& placement,
                                            SchedulePlan& schedule, const SchedulePlan& maxSchedule,
                                            const SchedulePlan& maxTemplate, std::int64_t memoryLimit,
                                            const PlanEvaluator& evaluate);

/// Peak memory a proposal needs, cascade by cascade and operation by operation, with `nonLocalUsage`
/// bytes live beside each operation (Vela: estimate_schedule_memory_usage).
[[nodiscard]] std::int64_t estimateMemoryUsage(const SchedulingContext& context, const SchedulePlan& plan,
                                               const std::map<int, std::int64_t>& nonLocalUsage);

} // namespace npu::cascade
