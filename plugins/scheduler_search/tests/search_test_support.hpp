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

/// What the graph of `invertedResiduals` looks like.
struct InvertedResidualShape {
  int stemStride = 2;   ///< of the 3x3 stem convolution
  int width = 16;       ///< depth of the residual path
  int expanded = 96;    ///< depth inside each block
  int outputDepth = 32; ///< of the last, strided 3x3 convolution
};

/// A 3x3 stem convolution of a size x size x 8 input, three inverted residual blocks (1x1 expansion,
/// depthwise, 1x1 projection, add) and a strided 3x3 convolution.
inline Graph invertedResiduals(int size, const InvertedResidualShape& shape = {}) {
  GraphBuilder builder;
  TensorId x = builder.conv(builder.input({1, size, size, 8}), shape.width, 3, shape.stemStride);
  for (int block = 0; block < 3; ++block) {
    const TensorId expanded = builder.conv(x, shape.expanded, 1, 1);
    x = builder.add(x, builder.conv(builder.depthwise(expanded), shape.width, 1, 1));
  }
  builder.output(builder.conv(x, shape.outputDepth, 3, 2));
  return builder.build();
}

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
