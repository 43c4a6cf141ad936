// SPDX-License-Identifier: Apache-2.0
// The scheduler_dp plugin: Vela 2.1's dynamic-programming scheduler behind npu::SchedulerPlugin.

#include "dp_scheduler.hpp"

#include "npu/plugin/scheduler.hpp"

namespace npu::dp {

namespace {

class DpSchedulerPlugin final : public SchedulerPlugin {
public:
  [[nodiscard]] std::vector<OptionSpec> options() const override { return optionSpecs(); }
  [[nodiscard]] Schedule schedule(const ScheduleRequest& request) const override {
    return scheduleRegion(request, readOptions(request.options));
  }
};

} // namespace

} // namespace npu::dp

NPU_PIPELINE_PLUGIN("scheduler_dp", npu::PluginKind::Scheduler, "1.0.0",
                    "Vela 2.1 dynamic-programming scheduler: weight/IFM streaming, cascades through rolling "
                    "buffers, Pareto-frontier search",
                    npu::dp::DpSchedulerPlugin)
