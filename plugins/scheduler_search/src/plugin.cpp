// SPDX-License-Identifier: Apache-2.0
// The scheduler_search plugin: the fastest of several complete schedules that fits, Vela's among them.

#include "search_scheduler.hpp"

#include "npu/plugin/scheduler.hpp"

namespace npu::search {

namespace {

class SearchSchedulerPlugin final : public SchedulerPlugin {
public:
  [[nodiscard]] std::vector<OptionSpec> options() const override { return optionSpecs(); }
  [[nodiscard]] Schedule schedule(const ScheduleRequest& request) const override {
    return scheduleRegion(request, readOptions(request.options));
  }
};

} // namespace

} // namespace npu::search

NPU_PIPELINE_PLUGIN("scheduler_search", npu::PluginKind::Scheduler, "1.0.0",
                    "search: the fastest within the SRAM limit of Vela 3.x's cascade schedule, cascades with "
                    "costed block configs and exhaustive stripes, and Vela 2.1's DP schedule",
                    npu::search::SearchSchedulerPlugin)
