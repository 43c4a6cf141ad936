// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the search scheduler's unit tests share: one NPU region of a hand-made graph, ready to be asked
// for, and the fast-storage peak of a schedule.

#include "support/scheduling_fakes.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include "npu/core/progress.hpp"
#include "npu/plugin/scheduler.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace npu::test {

/// The first NPU region of a graph with empty scheduler options.
struct SearchRegion {
  Graph graph;
  std::vector<NpuRegion> regions;
  OptionValues values;
  SilentProgress progress;
  explicit SearchRegion(Graph g) : graph(std::move(g)), regions(npuRegions(graph)) {}
  [[nodiscard]] ScheduleRequest request(const Accelerator& accelerator) {
    return ScheduleRequest{graph, regions.front(), accelerator, values, progress};
  }
};

/// Bytes live at once in `area` at the schedule's busiest time.
inline std::int64_t peakOf(const Schedule& schedule, MemoryArea area) {
  const auto usage = scheduling::usageOverTime(schedule, area);
  return usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end());
}

} // namespace npu::test
