// SPDX-License-Identifier: Apache-2.0
#include "dp_search.hpp"

#include "npu/core/diagnostics.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

namespace npu::dp {

namespace {

Candidates appendSram(std::int64_t sram, const Candidates& data) {
  Candidates result;
  result.reserve(data.size());
  for (const Candidate& candidate : data) {
    auto strategy = std::make_shared<Strategy>(*candidate.strategy);
    strategy->sramUsed += sram;
    result.push_back({std::move(strategy), candidate.set});
  }
  return result;
}

/// Returns the cached value of `slot`, computing it with `solve` the first time.
template <typename Solve>
const Candidates& memoised(std::optional<Candidates>& slot, const Solve& solve) {
  if (!slot) {
    slot = solve();
  }
  return *slot;
}

} // namespace

Candidates collate(const std::vector<Candidates>& lists) {
  if (lists.empty()) {
    return {{emptyStrategy(), emptyStrategySet()}};
  }
  if (lists.size() == 1) {
    return lists.front();
  }
  std::vector<StrategySetPtr> combinations{emptyStrategySet()};
  for (const Candidates& list : lists) {
    std::vector<StrategySetPtr> next;
    for (const Candidate& alternative : list) {
      for (const StrategySetPtr& previous : combinations) {
        if (StrategySetPtr combined = joined(previous, alternative.set)) {
          next.push_back(std::move(combined));
        }
      }
    }
    combinations = std::move(next);
  }
  Candidates result;
  result.reserve(combinations.size());
  for (StrategySetPtr& combination : combinations) {
    result.push_back({emptyStrategy(), std::move(combination)});
  }
  return result;
}

DpSearch::DpSearch(const PassGraph& graph, const PassEvaluator& evaluator, const DpOptions& options,
                   const CandidateWeights& weights, Progress* progress)
    : graph_(graph), evaluator_(evaluator), options_(options), weights_(weights), progress_(progress) {
  spilling_ = graph.memory().fastStorageIsSeparate();
  // IFM/OFM overlap only where feature maps live in the searched memory.
  ifmOfmOverlap_ = graph.featureMapsInSearchedMemory();
  const Subgraph& subgraph = graph.subgraph();
  consumersOfTensor_.assign(subgraph.tensors.size(), 0);
  producersOfTensor_.assign(subgraph.tensors.size(), 0);
  for (const Operation& op : subgraph.operations) {
    for (const TensorId input : op.inputs) {
      if (subgraph.validTensorId(input)) {
        ++consumersOfTensor_[static_cast<std::size_t>(input)];
      }
    }
    for (const TensorId output : op.outputs) {
      if (subgraph.validTensorId(output)) {
        ++producersOfTensor_[static_cast<std::size_t>(output)];
      }
    }
  }
  const auto count = static_cast<std::size_t>(graph.size());
  unsolvedConsumers_.assign(count, 0);
  for (const DpPass& pass : graph.passes()) {
    for (const int predecessor : pass.predecessors) {
      ++unsolvedConsumers_[static_cast<std::size_t>(predecessor)];
    }
  }
  outputs_.resize(count);
  weightBodies_.resize(count);
  for (auto& bodies : ifmBodies_) {
    bodies.resize(count);
  }
}

StrategySetPtr DpSearch::run() {
  // Every sub-problem depends only on earlier passes, so solving them in region order keeps the
  // recursion of searchOutput one level deep.
  for (int pass = 0; pass < graph_.size(); ++pass) {
    if (spilling_ && options_.useCascading) {
      static_cast<void>(ifmStreamingBody(pass, true));
    }
    static_cast<void>(searchOutput(pass));
    weightBodies_[static_cast<std::size_t>(pass)].reset(); // read only by this pass's output
    releaseSolvedPredecessors(pass);
    if (progress_ != nullptr) {
      progress_->advance(1);
    }
  }
  // The passes nobody reads; passes only a loop reads are added, latest first, until every pass is
  // reached through DAG predecessors.
  std::vector<int> starting;
  std::vector<bool> reached(static_cast<std::size_t>(graph_.size()), false);
  const auto reach = [&](int start) {
    std::vector<int> stack{start};
    while (!stack.empty()) {
      const int pass = stack.back();
      stack.pop_back();
      if (reached[static_cast<std::size_t>(pass)]) {
        continue;
      }
      reached[static_cast<std::size_t>(pass)] = true;
      const auto& predecessors = graph_.pass(pass).predecessors;
      stack.insert(stack.end(), predecessors.begin(), predecessors.end());
    }
  };
  for (const DpPass& pass : graph_.passes()) {
    if (pass.successors.empty()) {
      starting.push_back(pass.index);
      reach(pass.index);
    }
  }
  for (int pass = graph_.size() - 1; pass >= 0; --pass) {
    if (!reached[static_cast<std::size_t>(pass)]) {
      starting.push_back(pass);
      reach(pass);
    }
  }
  const Candidates data = searchPassList(starting);
  const Candidate best = bestCandidate(data, weights_);
  if (!best.set) {
    throwCompileError(
        "the dynamic-programming scheduler found no schedule within " + std::to_string(weights_.sramLimit) +
            " bytes of " + std::string(displayNameOf(graph_.searchedMemory())),
        SourceLocation{graph_.sourcePath(), 0, 0, {}}, "raise the arena cache size or the scheduler's sram_limit");
  }
  return best.set;
}

void DpSearch::releaseSolvedPredecessors(int pass) {
  // A sub-problem released too early would only be solved again; one kept too long costs memory.
  for (const int predecessor : graph_.pass(pass).predecessors) {
    const auto index = static_cast<std::size_t>(predecessor);
    if (--unsolvedConsumers_[index] == 0) {
      outputs_[index].reset();
      for (auto& bodies : ifmBodies_) {
        bodies[index].reset();
      }
    }
  }
}

const Candidates& DpSearch::searchOutput(int pass) {
  return memoised(outputs_.at(static_cast<std::size_t>(pass)), [&] {
    Candidates candidates = weightStreamingOutput(pass);
    if (options_.useIfmStreaming) {
      Candidates ifm = ifmStreamingOutput(pass);
      candidates.insert(candidates.end(), ifm.begin(), ifm.end());
    }
    Candidates best = paretoFrontier(std::move(candidates), weights_);
    if (best.empty()) {
      throwCompileError(
          "pass " + graph_.describe(pass) + " does not fit in " + std::to_string(weights_.sramLimit) + " bytes of " +
              std::string(displayNameOf(graph_.searchedMemory())) + " with any streaming strategy",
          SourceLocation{graph_.sourcePath(), 0, 0, {}}, "raise the arena cache size or the scheduler's sram_limit");
    }
    return best;
  });
}

Candidates DpSearch::searchPassList(const std::vector<int>& passes) {
  std::vector<Candidates> lists;
  lists.reserve(passes.size());
  for (const int pass : passes) {
    lists.push_back(searchOutput(pass));
  }
  return collate(lists);
}

Candidates DpSearch::searchPredecessors(int pass) {
  return searchPassList(graph_.pass(pass).predecessors);
}

Candidates DpSearch::graduate(StreamingStrategy kind, std::int64_t sramUsed, const Candidates& data) const {
  Candidates result;
  for (const Candidate& candidate : data) {
    if (candidate.strategy->sramUsed + sramUsed > weights_.sramLimit ||
        std::max(candidate.set->maxSramUsed, weights_.setSramFloor) > weights_.sramLimit) {
      continue;
    }
    auto strategy = std::make_shared<Strategy>(*candidate.strategy);
    strategy->kind = kind;
    strategy->sramUsed += sramUsed;
    if (ifmOfmOverlap_) {
      strategy->sramUsed -= allowedOverlap(*strategy);
    }
    result.push_back({emptyStrategy(), withStrategy(candidate.set, strategy)});
  }
  return paretoFrontier(std::move(result), weights_);
}

Candidates DpSearch::weightStreamingOutput(int pass) {
  const std::int64_t sram = graph_.nonLocalUsage(pass) + graph_.outputBytesInSearchedMemory(pass);
  return graduate(StreamingStrategy::WeightStream, sram, weightStreamingBody(pass));
}

template <typename ExtensionsOf, typename SramOf>
Candidates DpSearch::extendedFrontier(int pass, bool outputToFastStorage, const ExtensionsOf& extensionsOf,
                                      const SramOf& sramOf) {
  const auto& blocks = evaluator_.blockConfigs(pass);
  std::vector<std::vector<Extension>> extensions(blocks.size());
  std::vector<std::vector<CandidateFigures>> figures(blocks.size());
  // Figures per block config in parallel, concatenated in block order so that the result does not
  // depend on the thread count.
  tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t b) {
    const int block = static_cast<int>(b);
    extensions[b] = extensionsOf(block);
    const Metrics& metrics = evaluator_.metrics(pass, block, outputToFastStorage);
    const std::int64_t sram = sramOf(block);
    figures[b].reserve(extensions[b].size());
    for (const Extension& extension : extensions[b]) {
      figures[b].push_back(figuresOfExtension(*extension.source, metrics, sram + extension.extraSram,
                                              blocks[b].ofmBlock.height, weights_));
    }
  });
  std::vector<CandidateFigures> all;
  std::vector<std::pair<int, std::size_t>> positions; // (block config, extension)
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    all.insert(all.end(), figures[b].begin(), figures[b].end());
    for (std::size_t i = 0; i < figures[b].size(); ++i) {
      positions.emplace_back(static_cast<int>(b), i);
    }
  }
  combinations_ += static_cast<std::int64_t>(all.size());
  Candidates frontier;
  for (const std::size_t kept : paretoSelection(all, weights_)) {
    const auto [block, i] = positions[kept];
    const Extension& extension = extensions[static_cast<std::size_t>(block)][i];
    frontier.push_back(withPass(*extension.source, pass, block, sramOf(block) + extension.extraSram,
                                evaluator_.metrics(pass, block, outputToFastStorage), extension.rollingBufferHeight));
  }
  return frontier;
}

const Candidates& DpSearch::weightStreamingBody(int pass) {
  return memoised(weightBodies_.at(static_cast<std::size_t>(pass)), [&] {
    const Candidates data = appendSram(graph_.inputBytesInSearchedMemory(pass), searchPredecessors(pass));
    std::vector<Extension> extensions;
    extensions.reserve(data.size());
    for (const Candidate& candidate : data) {
      extensions.push_back({&candidate, 0, 0});
    }
    const auto& blocks = evaluator_.blockConfigs(pass);
    return extendedFrontier(
        pass, false, [&](int) { return extensions; },
        [&](int b) {
          // Weights are double-buffered in slices of the block depth.
          return graph_.doubleBufferBytes(pass, blocks[static_cast<std::size_t>(b)].ofmBlock.depth,
                                          options_.weightEstimationScaling);
        });
  });
}

Candidates DpSearch::ifmStreamingOutput(int pass) {
  if (!graph_.pass(pass).ifmStreamable) {
    return {};
  }
  const std::int64_t sram = graph_.nonLocalUsage(pass) + graph_.outputBytesInSearchedMemory(pass);
  return graduate(StreamingStrategy::IfmStream, sram, ifmStreamingBody(pass, false));
}

const Candidates& DpSearch::ifmStreamingBody(int pass, bool outputToFastStorage) {
  auto& slot = ifmBodies_.at(outputToFastStorage ? 1 : 0).at(static_cast<std::size_t>(pass));
  return memoised(slot, [&] {
    if (!graph_.pass(pass).ifmStreamable) {
      return Candidates{};
    }
    const Candidates inputData = appendSram(graph_.inputBytesInSearchedMemory(pass), searchPredecessors(pass));
    // IFM streaming keeps the whole weight stream resident.
    const std::int64_t base = graph_.residentWeightBytes(pass, options_.weightEstimationScaling);
    // Cascading options depend on the predecessors only, so they are found once for every block config.
    const auto cascades = options_.useCascading ? cascadeOptions(pass) : std::vector<CascadeOption>{};
    return extendedFrontier(
        pass, outputToFastStorage,
        [&](int b) {
          std::vector<Extension> extensions = ifmStreamingPartial(pass, b, cascades);
          for (const Candidate& candidate : inputData) {
            extensions.push_back({&candidate, 0, 0});
          }
          return extensions;
        },
        [&](int) { return base; });
  });
}

Candidate DpSearch::withPass(const Candidate& candidate, int pass, int block, std::int64_t sram, const Metrics& metrics,
                             int rollingBufferHeight) const {
  const Strategy& open = *candidate.strategy;
  auto step = std::make_shared<CascadeStep>();
  step->pass = pass;
  step->blockConfig = block;
  step->rollingBufferHeight = rollingBufferHeight;
  step->digest = stepDigest(open.empty() ? 0 : open.lastStep->digest, pass, block, rollingBufferHeight);
  step->previous = open.lastStep;
  step->length = open.length() + 1;
  step->firstPass = open.empty() ? pass : open.firstPass();
  step->firstBlockConfig = open.empty() ? block : open.lastStep->firstBlockConfig;
  if (ifmOfmOverlap_ && !open.empty()) {
    const CascadeStep& producer = *open.lastStep;
    step->firstPassRows = extendFirstPassRows(producer.firstPassRows, stripedPass(producer.pass, producer.blockConfig),
                                              stripedPass(pass, block));
  }
  auto strategy = std::make_shared<Strategy>(open);
  strategy->lastStep = std::move(step);
  strategy->lastBlockHeight = evaluator_.blockConfigs(pass).at(static_cast<std::size_t>(block)).ofmBlock.height;
  strategy->metrics += metrics;
  strategy->sramUsed += sram;
  return {std::move(strategy), candidate.set};
}

bool DpSearch::isCascadePredecessor(int pass, int predecessor) const {
  const DpPass& consumer = graph_.pass(pass);
  const DpPass& producer = graph_.pass(predecessor);
  const Subgraph& subgraph = graph_.subgraph();
  const Operation& producerOp = graph_.operation(predecessor);
  const Tensor& ifm = subgraph.tensor(consumer.ifm);
  if (producerOp.outputs.size() != 1 || producerOp.outputs.front() != consumer.ifm) {
    return false;
  }
  // A feature map several operations write (a PAD's border and interior, concatenation copies) exists
  // only whole: a rolling buffer holds the rows of one producer's stripes.
  if (producersOfTensor_.at(static_cast<std::size_t>(consumer.ifm)) != 1) {
    return false;
  }
  // The rolling buffer is stored in the brick format; a feature map that must stay linear cannot be one.
  if (ifm.format != TensorFormat::NHCWB16) {
    return false;
  }
  if (producer.successors != std::vector<int>{pass} || !producer.ifmStreamable) {
    return false;
  }
  // scheduler.avoid_for_cascading: concatenation writes when feature maps spill, and OFMs read elsewhere.
  if (spilling_ && producerOp.attributes.has("memory_function")) {
    return false;
  }
  const bool subgraphOutput =
      std::find(subgraph.outputs.begin(), subgraph.outputs.end(), consumer.ifm) != subgraph.outputs.end();
  return consumersOfTensor_.at(static_cast<std::size_t>(consumer.ifm)) == 1 && !subgraphOutput;
}

int DpSearch::rollingBufferHeight(int predecessor, int predecessorBlock, int pass, int block) const {
  // npu_performance.rolling_buffer_dims_from_passes: the consumer's IFM block plus one producer block,
  // rounded up to whole producer blocks. The IFM block comes from get_ifm_block_size without the IFM's
  // resampling mode (a transpose convolution's or 2x resize's block is not halved) and with
  // ofm_block_max (height 32) as the sub-kernel.
  constexpr int kSubKernelHeight = 32;
  const BlockConfig& consumerBlock = evaluator_.blockConfigs(pass).at(static_cast<std::size_t>(block));
  const BlockConfig& producerBlock =
      evaluator_.blockConfigs(predecessor).at(static_cast<std::size_t>(predecessorBlock));
  const Kernel kernel = graph_.operation(pass).kernel.value_or(Kernel{});
  const std::int64_t ifmBlockHeight = std::int64_t{std::max(consumerBlock.ofmBlock.height, 1) - 1} * kernel.strideY +
                                      std::min(kSubKernelHeight, kernel.areaHeight());
  const int producerHeight = std::max(producerBlock.ofmBlock.height, 1);
  return static_cast<int>(roundUp(ifmBlockHeight + producerHeight, producerHeight));
}

std::vector<DpSearch::CascadeOption> DpSearch::cascadeOptions(int pass) {
  const DpPass& consumer = graph_.pass(pass);
  std::vector<CascadeOption> result;
  if (consumer.ifm == kNoTensor || graph_.subgraph().tensor(consumer.ifm).isConstant()) {
    return result;
  }
  for (const int predecessor : consumer.predecessors) {
    if (isCascadePredecessor(pass, predecessor)) {
      const Candidates& predecessorData = ifmStreamingBody(predecessor, spilling_);
      result.push_back({predecessor, searchAllButOnePredecessor(pass, predecessor, predecessorData)});
    }
  }
  return result;
}

std::vector<DpSearch::Extension> DpSearch::ifmStreamingPartial(int pass, int block,
                                                               const std::vector<CascadeOption>& cascades) const {
  const DpPass& consumer = graph_.pass(pass);
  std::int64_t otherInputs = 0;
  if (graph_.featureMapsInSearchedMemory()) {
    for (const TensorId input : consumer.featureMapInputs) {
      if (input != consumer.ifm) {
        otherInputs += graph_.linearBytes(input);
      }
    }
  }
  std::vector<Extension> result;
  for (const CascadeOption& cascade : cascades) {
    for (const Candidate& option : cascade.options) {
      const int height = rollingBufferHeight(cascade.predecessor, option.strategy->lastStep->blockConfig, pass, block);
      result.push_back({&option, otherInputs + graph_.rollingBufferBytes(pass, height), height});
    }
  }
  return result;
}

Candidates DpSearch::searchAllButOnePredecessor(int pass, int predecessor, const Candidates& predecessorData) {
  std::vector<int> others;
  for (const int other : graph_.pass(pass).predecessors) {
    if (other != predecessor) {
      others.push_back(other);
    }
  }
  const Candidates otherData = searchPassList(others);
  Candidates result;
  for (const Candidate& candidate : predecessorData) {
    const Candidates collated = collate({Candidates{{emptyStrategy(), candidate.set}}, otherData});
    for (const Candidate& combined : collated) {
      result.push_back({candidate.strategy, combined.set});
    }
  }
  return result;
}

StripedPass DpSearch::stripedPass(int index, int block) const {
  const Subgraph& subgraph = graph_.subgraph();
  const DpPass& pass = graph_.pass(index);
  const Operation& op = graph_.operation(index);
  StripedPass striped;
  striped.ifm = pass.shapes.ifm;
  striped.ofm = pass.shapes.ofm;
  if (op.writeOffset && pass.ofm != kNoTensor) {
    striped.ofmTensor = Shape4::fromShape(subgraph.tensor(pass.ofm).shape);
    striped.ofmOffset = *op.writeOffset;
  }
  if (op.readOffsets[0] && pass.ifm != kNoTensor) {
    striped.ifmTensor = Shape4::fromShape(subgraph.tensor(pass.ifm).shape);
    striped.ifmOffset = *op.readOffsets[0];
  }
  striped.ifmElementBytes = pass.ifm == kNoTensor ? 1 : bytesOf(subgraph.tensor(pass.ifm).type);
  striped.ofmElementBytes = pass.ofm == kNoTensor ? 1 : bytesOf(subgraph.tensor(pass.ofm).type);
  striped.kernel = op.kernel.value_or(Kernel{});
  striped.paddingTop = op.explicitPadding.top;
  striped.upscaling = op.ifmResampling == Resampling::None || pass.shapes.ifm.height == 0
                          ? 1
                          : static_cast<int>(divRoundUp(pass.shapes.ofm.height, pass.shapes.ifm.height));
  striped.blockHeight = evaluator_.blockConfigs(index).at(static_cast<std::size_t>(block)).ofmBlock.height;
  return striped;
}

std::int64_t DpSearch::allowedOverlap(const Strategy& strategy) const {
  if (strategy.kind != StreamingStrategy::IfmStream || strategy.empty()) {
    return 0;
  }
  const CascadeStep& last = *strategy.lastStep;
  const DpPass& firstPass = graph_.pass(last.firstPass);
  const DpPass& lastPass = graph_.pass(last.pass);
  if (firstPass.ifm == kNoTensor || lastPass.ofm == kNoTensor) {
    return 0;
  }
  return allowedIfmOfmOverlap(stripedPass(last.firstPass, last.firstBlockConfig),
                              stripedPass(last.pass, last.blockConfig), last.length == 1, last.firstPassRows,
                              graph_.linearBytes(firstPass.ifm), graph_.linearBytes(lastPass.ofm));
}

} // namespace npu::dp
