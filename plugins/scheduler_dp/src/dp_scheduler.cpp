// SPDX-License-Identifier: Apache-2.0
#include "dp_scheduler.hpp"

#include "dp_search.hpp"
#include "pass_evaluator.hpp"
#include "pass_graph.hpp"
#include "schedule_writer.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include "npu/ir/graph_algorithms.hpp"

namespace npu::dp {

namespace {

/// Vela names NPU subgraphs "<subgraph>_split_<n>", counting the NPU runs of the subgraph.
std::string regionName(const Subgraph& subgraph, const NpuRegion& region) {
  const OperationId first = region.operations.empty() ? 0 : region.operations.front();
  int split = 0;
  for (const auto& run : partitionByPlacement(subgraph)) {
    if (run.placement == Placement::Npu && !run.operations.empty() && run.operations.front() <= first) {
      ++split;
    }
  }
  return subgraph.name + "_split_" + std::to_string(split);
}

} // namespace

Schedule scheduleRegion(const ScheduleRequest& request, const DpOptions& options) {
  const Subgraph& subgraph = request.graph.subgraphs.at(static_cast<std::size_t>(request.region.subgraph));
  const std::string label = regionName(subgraph, request.region);
  const bool spilling = request.accelerator.memory().fastStorageIsSeparate();
  const std::int64_t sramLimit = effectiveSramLimit(options, request.accelerator.memory());

  // One step per pass in each of four phases, so the bar moves through a long search: weight
  // estimates, block config figures, the search, and the weights encoded for the chosen blocks.
  const auto passes = static_cast<std::int64_t>(request.region.operations.size());
  request.progress.begin("scheduling " + label, 4 * passes);
  const PassGraph graph(request.graph, request.region, request.accelerator, &request.progress);
  const PassEvaluator evaluator(graph, options.blockConfigLimit, spilling && options.useCascading, &request.progress);

  CandidateWeights weights = CandidateWeights::vela(spilling);
  weights.blockHeightInFrontier = options.paretoMetric == ParetoMetric::BandwidthCyclesMemoryBlockHeight;
  weights.maxCandidates = options.paretoMaxCandidates;
  weights.sramLimit = sramLimit;
  weights.setSramFloor = graph.startupSram();
  DpSearch search(graph, evaluator, options, weights, &request.progress);
  const StrategySetPtr best = search.run();

  Schedule schedule =
      buildSchedule(request.graph, graph, evaluator, *best, options, sramLimit, label, &request.progress);
  if (!graph.hasLoops()) {
    // A region with a loop has no order that respects every link; the framework still checks that
    // every operation is scheduled once.
    scheduling::requireValidSchedule(schedule, graph.subgraph(), request.accelerator.memory().fastStorageArea, 0);
  }
  request.progress.end();
  return schedule;
}

} // namespace npu::dp
