// SPDX-License-Identifier: Apache-2.0
// The scheduler_cascade plugin: Vela 3.x's cascade scheduler behind npu::SchedulerPlugin.

#include "cascade_scheduler.hpp"

#include "npu/plugin/scheduler.hpp"

namespace npu::cascade {

namespace {

class CascadeSchedulerPlugin final : public SchedulerPlugin {
public:
  [[nodiscard]] std::vector<OptionSpec> options() const override { return optionSpecs(); }
  [[nodiscard]] Schedule schedule(const ScheduleRequest& request) const override {
    return scheduleRegion(request, readOptions(request.options, request.accelerator));
  }
};

} // namespace

} // namespace npu::cascade

NPU_PIPELINE_PLUGIN("scheduler_cascade", npu::PluginKind::Scheduler, "1.0.0",
                    "Vela 3.x cascade scheduler: cascades with rolling buffers, striping, weight buffering",
                    npu::cascade::CascadeSchedulerPlugin)
