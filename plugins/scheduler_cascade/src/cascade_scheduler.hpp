// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cascade scheduler of Vela 3.x (scheduler.py: schedule_passes) for one NPU region: MAX and MIN
// schedules, cascades built on the MIN schedule, cascades re-striped and weights buffered within the
// memory limit, feature maps homed in the fast storage, and the result as a framework Schedule.

#include "schedule_plan.hpp"

#include "npu/plugin/scheduler.hpp"

namespace npu::cascade {

/// Schedules `request.region` with the given options; throws a Compile error naming the operation when
/// the region cannot fit the fast-storage limit.
[[nodiscard]] Schedule scheduleRegion(const ScheduleRequest& request, const SchedulerOptions& options);

/// The same with the region's scheduling graph and weight-encoding cache given, so that several
/// schedules of one region (e.g. scheduler_search's candidates) share them; the result is identical.
[[nodiscard]] Schedule scheduleRegion(const ScheduleRequest& request, const SchedulerOptions& options,
                                      const SchedulingGraph& graph, const scheduling::WeightEncodingCache& weightCache);

/// Reads the plugin options (optimise, sram_limit, search) for an accelerator.
[[nodiscard]] SchedulerOptions readOptions(const OptionValues& values, const Accelerator& accelerator);

/// The options the plugin accepts.
[[nodiscard]] std::vector<OptionSpec> optionSpecs();

} // namespace npu::cascade
