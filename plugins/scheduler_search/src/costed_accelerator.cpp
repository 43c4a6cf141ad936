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
  const std::optional<BlockChoice> choice = objectiveOf_(op);
  // Binary operations are judged with their operands in model order (the question does not say whether
  // they were swapped); the estimate only ranks block configs, the schedule is judged afterwards.
  if (!choice || op.ifm() == kNoTensor || op.ofm() == kNoTensor) {
    return selector.choose(subgraph, op, shapes);
  }
  const auto ranking = cache_->get(op, shapes, choice->objective, [&] {
    const std::optional<BlockConfig> own = selector.choose(subgraph, op, shapes);
    return own ? rank(subgraph, op, shapes, *own, choice->objective) : BlockRankingCache::Ranking{};
  });
  if (ranking->empty()) {
    return std::nullopt; // no block config fits: the accelerator's answer
  }
  return (*ranking)[std::min(static_cast<std::size_t>(std::max(choice->rank, 0)), ranking->size() - 1)];
}

BlockRankingCache::Ranking CostedBlockConfigs::rank(const Subgraph& subgraph, const Operation& op,
                                                    const OperationShapes& shapes, const BlockConfig& own,
                                                    BlockObjective objective) const {
  // The accelerator's choice first, then the other candidates in their order; a stable sort by cost.
  std::vector<std::pair<double, BlockConfig>> ranked{{cost(subgraph, op, shapes, own, objective), own}};
  for (const BlockConfig& candidate : base_.blockConfigs().candidates(subgraph, op, shapes)) {
    if (!(candidate == own)) {
      ranked.emplace_back(cost(subgraph, op, shapes, candidate, objective), candidate);
    }
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  BlockRankingCache::Ranking blocks;
  blocks.reserve(ranked.size());
  for (auto& [cycles, block] : ranked) {
    blocks.push_back(std::move(block));
  }
  return blocks;
}

std::shared_ptr<const BlockRankingCache::Ranking> BlockRankingCache::get(const Operation& op,
                                                                         const OperationShapes& shapes,
                                                                         BlockObjective objective,
                                                                         const std::function<Ranking()>& rank) const {
  const Shape4 ifm2 = shapes.ifm2.value_or(Shape4{0, 0, 0, 0});
  const Key key{&op,
                {shapes.ifm.batch, shapes.ifm.height, shapes.ifm.width, shapes.ifm.depth, shapes.ifm2 ? 1 : 0,
                 ifm2.height, ifm2.width, ifm2.depth, shapes.ofm.batch, shapes.ofm.height, shapes.ofm.width,
                 shapes.ofm.depth, ifm2.batch, static_cast<int>(objective)}};
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = entries_.find(key); found != entries_.end()) {
      return found->second;
    }
  }
  // Ranked outside the lock; two tasks may rank the same question once each, with equal results.
  auto ranking = std::make_shared<const Ranking>(rank());
  const std::lock_guard lock(mutex_);
  return entries_.emplace(key, std::move(ranking)).first->second;
}

} // namespace npu::search
