// SPDX-License-Identifier: Apache-2.0
#pragma once
// A region of a hand-made graph ready to schedule against the fake accelerator (shared by the test
// files of scheduler_cascade).

#include "schedule_plan.hpp"

#include "support/scheduling_fakes.hpp"

#include "npu/core/progress.hpp"
#include "npu/plugin/scheduler.hpp"

#include <memory>

namespace npu::test {

using namespace npu::cascade;

struct Fixture {
  Graph graph;
  FakeSchedulingAccelerator accelerator;
  std::vector<NpuRegion> regions;
  std::unique_ptr<SchedulingGraph> view;
  std::unique_ptr<scheduling::WeightEncodingCache> cache;
  std::unique_ptr<SchedulingContext> context;
  std::unique_ptr<TensorPlacement> placement;

  Fixture(const GraphBuilder& builder, const FakeSystem& system, SchedulerOptions options = {})
      : graph(builder.build()), accelerator(system), regions(npuRegions(graph)) {
    view = std::make_unique<SchedulingGraph>(graph, regions.front(), accelerator);
    cache = std::make_unique<scheduling::WeightEncodingCache>(accelerator);
    if (options.sramLimit == 0) {
      options.sramLimit = accelerator.memory().arenaCacheSize;
    }
    context = std::make_unique<SchedulingContext>(SchedulingContext{graph, *view, accelerator, *cache, options});
    placement = std::make_unique<TensorPlacement>(view->subgraph(), accelerator.memory());
  }
};

/// input 32x32x8 -> conv(64) -> +constant -> conv(8) -> output: a large intermediate pair worth cascading.
inline GraphBuilder wideMiddleChain() {
  GraphBuilder builder;
  const TensorId a = builder.conv(builder.input({1, 32, 32, 8}), 64, 3, 1, "expand");
  const TensorId b = builder.addConstant(a, false, "bias_add");
  builder.output(builder.conv(b, 8, 3, 1, "project"));
  return builder;
}

} // namespace npu::test
