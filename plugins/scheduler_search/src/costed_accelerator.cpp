// SPDX-License-Identifier: Apache-2.0
#include "costed_accelerator.hpp"

#include "npu/ir/graph.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace npu::search {

namespace {

FeatureMapQuery featureMap(const Subgraph& subgraph, TensorId tensor, const Shape4& shape, MemoryArea area) {
  const Tensor& t = subgraph.tensor(tensor);
  return FeatureMapQuery{shape, t.type, t.format, area};
}

} // namespace

double CostedBlockConfigs::cost(const Subgraph& subgraph, const Operation& op, const OperationShapes& shapes,
                                const BlockConfig& block, BlockObjective objective) const {
  const MemorySystem& memory = base_.memory();
  const CostModel& model = base_.costModel();
  PerformanceContext context;
  CostQuery& query = context.query;
  query.ifm = featureMap(subgraph, op.ifm(), shapes.ifm, memory.featureMapArea);
  if (shapes.ifm2 && op.ifm2() != kNoTensor) {
    query.ifm2 = featureMap(subgraph, op.ifm2(), *shapes.ifm2, memory.featureMapArea);
  }
  query.ofm = featureMap(subgraph, op.ofm(), shapes.ofm, memory.featureMapArea);
  query.block = &block;
  query.hasScalesBiases = op.bias() != kNoTensor;
  query.constantArea = query.hasScalesBiases ? memory.constantArea : MemoryArea::Unknown;
  if (objective == BlockObjective::Compute) {
    return model.cycles(subgraph, op, query).cycles;
  }
  if (op.weights() != kNoTensor) {
    WeightTransfer& weights = context.weights;
    weights.present = true;
    weights.encodedBytes = subgraph.tensor(op.weights()).byteSize();
    weights.sourceArea = memory.constantArea;
    weights.firstTransferBytes = weights.encodedBytes;
    if (objective == BlockObjective::BufferedWeights) {
      weights.bufferArea = memory.fastStorageArea;
      query.constantArea = memory.fastStorageArea;
      weights.fullTransferCycles =
          model.transferCycles(memory.constantArea, memory.fastStorageArea, weights.encodedBytes);
    }
  }
  if (op.bias() != kNoTensor) {
    context.scaleBytes = subgraph.tensor(op.bias()).byteSize();
  }
  return model.estimate(subgraph, op, context).cycle(CycleComponent::Total);
}

std::optional<BlockConfig> CostedBlockConfigs::choose(const Subgraph& subgraph, const Operation& op,
                                                      const OperationShapes& shapes) const {
  const BlockConfigSelector& selector = base_.blockConfigs();
  std::optional<BlockConfig> best = selector.choose(subgraph, op, shapes);
  // Binary operations are judged with their operands in model order (the question does not say whether
  // they were swapped); the estimate only ranks block configs, the schedule is judged afterwards.
  if (!best || op.ifm() == kNoTensor || op.ofm() == kNoTensor) {
    return best;
  }
  const std::optional<BlockChoice> choice = objectiveOf_(op);
  if (!choice) {
    return best;
  }
  // The accelerator's choice first, then the other candidates in their order; a stable sort by cost.
  std::vector<std::pair<double, BlockConfig>> ranked{{cost(subgraph, op, shapes, *best, choice->objective), *best}};
  for (const BlockConfig& candidate : selector.candidates(subgraph, op, shapes)) {
    if (!(candidate == *best)) {
      ranked.emplace_back(cost(subgraph, op, shapes, candidate, choice->objective), candidate);
    }
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  best = ranked[std::min(static_cast<std::size_t>(std::max(choice->rank, 0)), ranked.size() - 1)].second;
  return best;
}

} // namespace npu::search
