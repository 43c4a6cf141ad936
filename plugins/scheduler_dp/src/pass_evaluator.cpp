// SPDX-License-Identifier: Apache-2.0
#include "pass_evaluator.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <tuple>

namespace npu::dp {

namespace {

/// A feature map as the search asks about it. Vela 2.1 scores passes while every feature map is still
/// stored linearly (its bytes unrounded); the cost model judges burst efficiency by the format the
/// lowering allows, as Vela 2.1 does.
FeatureMapQuery searchFeatureMap(const PassGraph& graph, TensorId tensor, const Shape4& shape, MemoryArea area) {
  const Tensor& t = graph.subgraph().tensor(tensor);
  return FeatureMapQuery{shape, t.type, TensorFormat::NHWC, t.isConstant() ? graph.memory().constantArea : area};
}

} // namespace

Metrics withOutputBandwidthInFastStorage(const Metrics& inPlace, Metrics inFastStorage) {
  const auto npu = static_cast<std::size_t>(CycleComponent::Npu);
  const auto total = static_cast<std::size_t>(CycleComponent::Total);
  inFastStorage.cycles[npu] = inPlace.cycles[npu];
  inFastStorage.cycles[total] = *std::max_element(inFastStorage.cycles.begin(), inFastStorage.cycles.begin() + total);
  return inFastStorage;
}

std::vector<BlockConfig> limitBlockConfigs(std::vector<BlockConfig> configs, int limit) {
  // Vela 2.1 generates blocks width-major, then height, then depth, and sorts that list stably by
  // (area << 8 | depth), largest first.
  std::stable_sort(configs.begin(), configs.end(), [](const BlockConfig& a, const BlockConfig& b) {
    const auto key = [](const BlockConfig& c) {
      return std::tuple(c.ofmBlock.width, c.ofmBlock.height, c.ofmBlock.depth);
    };
    return key(a) < key(b);
  });
  const auto sizeKey = [](const BlockConfig& c) {
    return (std::int64_t{c.ofmBlock.height} * c.ofmBlock.width << 8) | c.ofmBlock.depth;
  };
  std::stable_sort(configs.begin(), configs.end(),
                   [&](const BlockConfig& a, const BlockConfig& b) { return sizeKey(a) > sizeKey(b); });
  if (limit <= 0) {
    return configs;
  }
  const auto count = static_cast<std::ptrdiff_t>(configs.size());
  const std::ptrdiff_t bound = std::min<std::ptrdiff_t>(count, limit);
  std::vector<BlockConfig> limited(configs.begin(), configs.begin() + bound);
  limited.insert(limited.end(), configs.begin() + std::max(bound, count - bound), configs.end());
  return limited;
}

PerformanceContext searchContext(const PassGraph& graph, int index, const BlockConfig& block,
                                 bool outputToFastStorage) {
  const DpPass& pass = graph.pass(index);
  const Operation& op = graph.operation(index);
  const MemorySystem& memory = graph.memory();
  PerformanceContext context;
  CostQuery& query = context.query;
  if (pass.ifm != kNoTensor) {
    query.ifm = searchFeatureMap(graph, pass.ifm, pass.shapes.ifm, memory.featureMapArea);
  }
  if (pass.ifm2 != kNoTensor) {
    query.ifm2 = searchFeatureMap(graph, pass.ifm2, pass.shapes.ifm2.value_or(Shape4{}), memory.featureMapArea);
  }
  query.ofm = searchFeatureMap(graph, pass.ofm, pass.shapes.ofm,
                               outputToFastStorage ? memory.fastStorageArea : memory.featureMapArea);
  query.block = &block;
  query.reversedOperands = pass.reversedOperands;
  query.hasScalesBiases = pass.hasBias;
  query.constantArea = memory.constantArea;
  if (pass.weights != kNoTensor && pass.weightEstimate) {
    WeightTransfer& weights = context.weights;
    weights.present = true;
    weights.encodedBytes = pass.weightEstimate->streamBytes;
    weights.sliceDepth = pass.weightEstimate->sliceDepth;
    weights.sourceArea = memory.constantArea;
    if (pass.weightsBuffered) {
      weights.bufferArea = memory.fastStorageArea;
      query.constantArea = memory.fastStorageArea;
    }
    weights.firstTransferBytes = weights.encodedBytes;
    weights.fullTransferCycles = graph.accelerator().costModel().transferCycles(
        memory.constantArea, memory.fastStorageArea, weights.encodedBytes);
  }
  // A pass no other pass of the region feeds cannot hide its DMA behind one (npu_performance: the
  // first NPU pass).
  context.startsRegion = pass.predecessors.empty();
  context.phase = npu::EstimatePhase::Search;
  // Before scheduling Vela 2.1 has not packed scales yet: the search reads the model's biases.
  if (pass.hasBias) {
    context.scaleBytes = graph.subgraph().tensor(op.bias()).byteSize();
  }
  if (op.activation && graph.subgraph().validTensorId(op.activation->lut)) {
    context.lutTransfer = ConstantTransfer{memory.constantArea, MemoryArea::Shram,
                                           graph.subgraph().tensor(op.activation->lut).byteSize(), TensorPurpose::Lut};
  }
  return context;
}

PassEvaluator::PassEvaluator(const PassGraph& graph, int blockConfigLimit, bool withFastStorageOutputs,
                             Progress* progress) {
  const auto count = static_cast<std::size_t>(graph.size());
  blockConfigs_.resize(count);
  metrics_.resize(count);
  fastOutputMetrics_.resize(count);
  const CostModel& costModel = graph.accelerator().costModel();
  tbb::parallel_for(std::size_t{0}, count, [&](std::size_t i) {
    const int index = static_cast<int>(i);
    const DpPass& pass = graph.pass(index);
    const BlockConfigSelector& selector = graph.accelerator().blockConfigs();
    auto configs = selector.candidates(graph.subgraph(), graph.operation(index), pass.shapes);
    if (configs.empty()) {
      // Operations the selector cannot block (e.g. memory copies) run with its choice or a unit block.
      configs.push_back(selector.choose(graph.subgraph(), graph.operation(index), pass.shapes).value_or(BlockConfig{}));
    }
    blockConfigs_[i] = limitBlockConfigs(std::move(configs), blockConfigLimit);
    const auto& blocks = blockConfigs_[i];
    metrics_[i].resize(blocks.size());
    if (withFastStorageOutputs && pass.ifmStreamable) {
      fastOutputMetrics_[i].resize(blocks.size());
    }
    tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t b) {
      const Operation& op = graph.operation(index);
      metrics_[i][b] = costModel.estimate(graph.subgraph(), op, searchContext(graph, index, blocks[b], false));
      if (!fastOutputMetrics_[i].empty()) {
        fastOutputMetrics_[i][b] = withOutputBandwidthInFastStorage(
            metrics_[i][b], costModel.estimate(graph.subgraph(), op, searchContext(graph, index, blocks[b], true)));
      }
    });
    if (progress != nullptr) {
      progress->advance(1);
    }
  });
}

const Metrics& PassEvaluator::metrics(int pass, int block, bool outputToFastStorage) const {
  const auto& table = outputToFastStorage && !fastOutputMetrics_.at(static_cast<std::size_t>(pass)).empty()
                          ? fastOutputMetrics_[static_cast<std::size_t>(pass)]
                          : metrics_.at(static_cast<std::size_t>(pass));
  return table.at(static_cast<std::size_t>(block));
}

} // namespace npu::dp
