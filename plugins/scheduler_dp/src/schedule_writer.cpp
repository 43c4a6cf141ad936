// SPDX-License-Identifier: Apache-2.0
#include "schedule_writer.hpp"

#include "fast_storage_homing.hpp"

#include "scheduler_common/live_ranges.hpp"
#include "scheduler_common/schedule_checks.hpp"
#include "scheduler_common/scheduling_graph.hpp"
#include "scheduler_common/tensor_placement.hpp"

#include "npu/core/diagnostics.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace npu::dp {

namespace {

using scheduling::Residency;

/// Slice boundaries of a weight stream: per OFM block when weight-streamed from a DMA copy
/// (weight_compressor.update_pass_weight_and_scale_tensors), else one slice.
std::vector<int> depthSlicesFor(StreamingStrategy kind, const DpPass& pass, int depth, int blockDepth) {
  std::vector<int> slices{0};
  if (kind == StreamingStrategy::WeightStream && pass.weightsBuffered && blockDepth > 0) {
    for (int boundary = blockDepth; boundary < depth; boundary += blockDepth) {
      slices.push_back(boundary);
    }
  }
  slices.push_back(depth);
  return slices;
}

/// Bytes of Vela 2.1's scale and bias tensor copied into fast storage (calc_scales_and_pack_biases:
/// 10 bytes per channel, each core's stream padded to 16).
std::int64_t scaleTensorBytes(int channels, int cores) {
  std::int64_t stream = 0;
  std::int64_t padding = 0;
  for (int core = 0; core < std::min(cores, channels); ++core) {
    const std::int64_t coreChannels = (channels + cores - 1 - core) / cores;
    stream += 10 * coreChannels;
    padding += roundUp(stream, 16) - stream;
    stream = roundUp(stream, 16);
  }
  return allocationBytes(static_cast<double>(10 * (channels + divRoundUp(padding, 10))));
}

struct EncodedPlan {
  WeightPlan plan;
  std::int64_t weightBufferBytes = 0; ///< fast storage for the weights (without scales)
};

EncodedPlan encodePlan(const PassGraph& graph, const DpPass& pass, const BlockConfig& block, StreamingStrategy kind) {
  const MemorySystem& memory = graph.memory();
  const int depth = pass.shapes.ofm.depth;
  const auto slices = depthSlicesFor(kind, pass, depth, block.ofmBlock.depth);
  const EncodedWeights encoded =
      graph.accelerator().weights().encode(graph.subgraph(), graph.operation(pass.index), block, slices, false);
  EncodedPlan result;
  WeightPlan& plan = result.plan;
  plan.encodedBytes = encoded.totalBytes;
  plan.depthSlices = slices;
  plan.storageArea = memory.constantArea;
  plan.buffersHoldScales = false; // Vela 2.1 buffers the weights alone (largestSlice below has no scales)
  if (!encoded.slices.empty()) {
    plan.firstTransferBytes = encoded.slices.front().bytes;
  }
  plan.fullTransferCycles =
      graph.accelerator().costModel().transferCycles(memory.constantArea, memory.fastStorageArea, encoded.totalBytes);
  if (!pass.weightsBuffered) {
    return result;
  }
  plan.bufferArea = memory.fastStorageArea;
  std::int64_t largestSlice = 0;
  for (const EncodedWeightSlice& slice : encoded.slices) {
    std::int64_t scales = 0;
    for (const std::int64_t coreScales : slice.coreScaleBytes) {
      scales += coreScales;
    }
    largestSlice = std::max(largestSlice, slice.bytes - scales);
  }
  const std::int64_t weightBytes = std::max<std::int64_t>(encoded.totalBytes - encoded.scaleBytes, 0);
  // Weight streaming alternates between two halves of one buffer; the buffer holds two of the largest
  // slices when there are more than two, else the whole stream (set_storage_shape).
  if (kind == StreamingStrategy::WeightStream && encoded.slices.size() > 1) {
    plan.bufferBytes = {allocationBytes(static_cast<double>(largestSlice)),
                        allocationBytes(static_cast<double>(largestSlice))};
    result.weightBufferBytes = encoded.slices.size() > 2 ? allocationBytes(2.0 * static_cast<double>(largestSlice))
                                                         : allocationBytes(static_cast<double>(weightBytes));
  } else {
    plan.bufferBytes = {allocationBytes(static_cast<double>(weightBytes))};
    result.weightBufferBytes = plan.bufferBytes.front();
  }
  return result;
}

Shape4 ifmStripeFor(const PassGraph& graph, const DpPass& pass, const Shape4& ofmStripe) {
  if (pass.ifm == kNoTensor) {
    return {};
  }
  const Shape4 area =
      graph.accelerator().blockConfigs().requiredIfmArea(graph.subgraph(), graph.operation(pass.index), ofmStripe);
  return Shape4{pass.shapes.ifm.batch, std::min(area.height, pass.shapes.ifm.height), pass.shapes.ifm.width,
                pass.shapes.ifm.depth};
}

} // namespace

std::vector<StrategyPtr> executionOrder(const PassGraph& graph, const StrategySet& set) {
  std::map<int, StrategyPtr> cascadeOf;
  for (const StrategyPtr& strategy : set.strategies()) {
    for (const int pass : strategy->passes()) {
      cascadeOf[pass] = strategy;
    }
  }
  std::vector<StrategyPtr> order;
  std::set<const Strategy*> done;
  std::set<int> visited;
  // apply_result.visit_pass, iteratively: a cascaded pass follows everything its passes read.
  struct Frame {
    StrategyPtr strategy;
    std::vector<int> pending;
  };
  const auto frameFor = [&](const StrategyPtr& strategy) {
    Frame frame{strategy, {}};
    const auto passes = strategy->passes();
    const std::set<int> inside(passes.begin(), passes.end());
    for (const int pass : passes) {
      for (const int predecessor : graph.pass(pass).predecessors) {
        if (!inside.contains(predecessor)) {
          frame.pending.push_back(predecessor);
        }
      }
    }
    std::reverse(frame.pending.begin(), frame.pending.end());
    return frame;
  };
  std::vector<int> starts;
  for (const DpPass& pass : graph.passes()) {
    if (pass.successors.empty()) {
      starts.push_back(pass.index);
    }
  }
  for (int index = graph.size() - 1; index >= 0; --index) {
    starts.push_back(index); // passes only loops reach
  }
  for (const int start : starts) {
    if (!visited.insert(start).second) {
      continue;
    }
    std::vector<Frame> stack{frameFor(cascadeOf.at(start))};
    while (!stack.empty()) {
      Frame& frame = stack.back();
      if (frame.pending.empty()) {
        if (done.insert(frame.strategy.get()).second) {
          order.push_back(frame.strategy);
        }
        stack.pop_back();
        continue;
      }
      const int next = frame.pending.back();
      frame.pending.pop_back();
      if (visited.insert(next).second) {
        stack.push_back(frameFor(cascadeOf.at(next)));
      }
    }
  }
  return order;
}

Schedule buildSchedule(const Graph& ir, const PassGraph& graph, const PassEvaluator& evaluator, const StrategySet& set,
                       const DpOptions& options, std::int64_t sramLimit, const std::string& label, Progress* progress) {
  const MemorySystem& memory = graph.memory();
  const Subgraph& subgraph = graph.subgraph();
  const auto cascadedPasses = executionOrder(graph, set);

  Schedule schedule;
  schedule.label = label;
  schedule.region = graph.region();
  schedule.region.operations.clear();
  // Weights are encoded again for the chosen block configs (weight_compressor.update_pass_weight_and_
  // scale_tensors); every pass is independent, so they are encoded in parallel.
  struct Position {
    StreamingStrategy kind = StreamingStrategy::Unknown;
    int pass = 0;
    int blockConfig = 0;
    int rollingBufferHeight = 0;
  };
  std::vector<Position> positions;
  for (const StrategyPtr& strategy : cascadedPasses) {
    for (const CascadeStep* step = strategy->lastStep.get(); step != nullptr; step = step->previous.get()) {
      positions.push_back({strategy->kind, step->pass, step->blockConfig, step->rollingBufferHeight});
    }
    std::reverse(positions.end() - strategy->length(), positions.end());
  }
  std::vector<std::optional<EncodedPlan>> plans(positions.size());
  tbb::parallel_for(std::size_t{0}, positions.size(), [&](std::size_t k) {
    const Position& position = positions[k];
    const DpPass& pass = graph.pass(position.pass);
    if (pass.weights != kNoTensor) {
      const auto& block = evaluator.blockConfigs(pass.index).at(static_cast<std::size_t>(position.blockConfig));
      plans[k] = encodePlan(graph, pass, block, position.kind);
    }
    if (progress != nullptr) {
      progress->advance(1);
    }
  });
  std::size_t nextPlan = 0;
  CascadeLayout layout(graph, options);
  int nextCascade = 1;
  for (const StrategyPtr& strategy : cascadedPasses) {
    const bool cascaded = strategy->length() > 1;
    const int cascadeId = cascaded ? nextCascade++ : 0;
    std::int64_t cascadeBytes = strategy->sramUsed;
    for (int i = 0; i < strategy->length(); ++i) {
      const Position& position = positions[nextPlan];
      const DpPass& pass = graph.pass(position.pass);
      const int blockIndex = position.blockConfig;
      const BlockConfig& block = evaluator.blockConfigs(pass.index).at(static_cast<std::size_t>(blockIndex));
      ScheduledOperation scheduled;
      scheduled.op = pass.op;
      scheduled.blockConfig = block;
      scheduled.reversedOperands = pass.reversedOperands;
      scheduled.cascade = cascadeId;
      scheduled.strategy = std::string(nameOf(strategy->kind));
      scheduled.estimatedCycles = evaluator.metrics(pass.index, blockIndex, false).cycle(CycleComponent::Total);
      scheduled.ofmStripe = pass.shapes.ofm;
      if (strategy->kind == StreamingStrategy::IfmStream) {
        scheduled.ofmStripe.height = std::min(block.ofmBlock.height, pass.shapes.ofm.height);
      } else if (pass.weightsBuffered) {
        scheduled.ofmStripe.depth = std::min(block.ofmBlock.depth, pass.shapes.ofm.depth);
      }
      scheduled.ifmStripe = strategy->kind == StreamingStrategy::IfmStream
                                ? ifmStripeFor(graph, pass, scheduled.ofmStripe)
                                : pass.shapes.ifm;
      scheduled.ifm2Stripe = pass.shapes.ifm2;
      if (cascaded && position.rollingBufferHeight > 0) {
        const Shape4 ifm = Shape4::fromShape(subgraph.tensor(pass.ifm).shape);
        scheduled.ifmRollingBuffer = Shape4{1, std::min(ifm.height, position.rollingBufferHeight), ifm.width,
                                            static_cast<int>(roundUp(ifm.depth, 16))};
      }
      std::vector<scheduling::WeightBufferUse> buffers;
      if (const auto& encoded = plans[nextPlan++]) {
        scheduled.weights = encoded->plan;
        if (encoded->weightBufferBytes > 0) {
          buffers.push_back({encoded->weightBufferBytes, false});
        }
      }
      // move_scales_to_fast_storage: IFM-streamed passes read their scales once per stripe.
      if (options.cacheBiasScaleTensor && strategy->kind == StreamingStrategy::IfmStream && pass.hasBias) {
        const std::int64_t bytes = scaleTensorBytes(pass.shapes.ofm.depth, graph.accelerator().info().cores);
        if (cascadeBytes + bytes <= sramLimit && scheduled.weights && scheduled.weights->buffered()) {
          buffers.push_back({bytes, false});
          cascadeBytes += bytes;
          scheduled.weights->scalesBuffered = true;
        }
      }
      layout.addPass(pass.index, cascadeId, position.rollingBufferHeight, std::move(buffers));
      schedule.region.operations.push_back(pass.op);
      schedule.operations.push_back(std::move(scheduled));
    }
    if (cascaded) {
      schedule.cascades.push_back(CascadeInfo{cascadeId, graph.pass(strategy->firstPass()).op,
                                              graph.pass(strategy->lastPass()).op, strategy->sramUsed});
    }
    layout.endCascadedPass(cascadeBytes);
  }
  if (graph.memory().fastStorageIsSeparate()) {
    layout.moveFeatureMapsToFastStorage(sramLimit);
  }
  layout.writeHomesAndBuffers(ir, schedule);
  const auto usage = scheduling::usageOverTime(schedule, memory.fastStorageArea);
  for (std::size_t t = 0; t < schedule.operations.size() && t < usage.size(); ++t) {
    schedule.operations[t].memoryUsage = usage[t];
  }
  schedule.fastStoragePeak = usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end());
  return schedule;
}

} // namespace npu::dp
