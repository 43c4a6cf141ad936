// SPDX-License-Identifier: Apache-2.0
#pragma once
// Application: a plan becomes the framework's Schedule: per operation the block config, stripes,
// cascade and weight plan; the home and format of every feature map; and every buffer that needs an
// address with its live range (feature maps, rolling buffers, weight buffers, constants).

#include "schedule_plan.hpp"

#include "npu/schedule/schedule.hpp"

#include <string>

namespace npu::cascade {

/// `placement` with the IFMs of cascaded operations (the rolling buffers) in the fast storage (Vela:
/// Scheduler.apply_schedule).
[[nodiscard]] TensorPlacement withRollingBuffers(const SchedulingContext& context, TensorPlacement placement,
                                                 const SchedulePlan& plan);

/// The operations `plan` covers, their tensor homes and cascades; with `withBuffers` (for a plan that
/// covers the region) also every buffer to allocate.
[[nodiscard]] Schedule toSchedule(const SchedulingContext& context, const TensorPlacement& placement,
                                  const SchedulePlan& plan, const std::string& label, bool withBuffers);

} // namespace npu::cascade
