// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 2.1's dynamic-programming scheduler for one NPU region: build the pass view, score every block
// config of every pass, search, write the schedule.

#include "dp_options.hpp"

#include "npu/plugin/scheduler.hpp"

namespace npu::dp {

[[nodiscard]] Schedule scheduleRegion(const ScheduleRequest& request, const DpOptions& options);

} // namespace npu::dp
