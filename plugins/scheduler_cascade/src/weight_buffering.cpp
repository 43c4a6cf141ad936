// SPDX-License-Identifier: Apache-2.0
#include "weight_buffering.hpp"

#include "plan_factory.hpp"

#include <algorithm>
#include <cmath>

namespace npu::cascade {

namespace {

double roundUpReal(double value, double quantum) { return floorDivide(value + quantum - 1, quantum) * quantum; }
double roundDownReal(double value, double quantum) { return floorDivide(value, quantum) * quantum; }

/// Everything the buffering of one operation's weights needs besides the plans themselves.
struct BufferingInputs {
  const SchedulingContext& context;
  const TensorPlacement& placement;
  const SchedulingOperation& op;
  const OperationPlan& reference;
  const OperationPlan* previous; ///< the plan proposed for the previous operation, if any
  std::int64_t bufferLimit;
};

/// Depth slices whose double buffers fit `bufferLimit`, the first slice small enough to load under the
/// previous operation (Vela: the slicing loop of propose_weight_buffering). Returns the encoding.
std::shared_ptr<const WeightStreamSummary> sliceForBuffering(const BufferingInputs& in, OperationPlan& plan,
                                                            double prebufferRatio, double fullTransferCycles) {
  const SchedulingContext& context = in.context;
  const int depth = in.reference.ofmStripe.depth;
  const int quantum = context.accelerator.info().depthSliceQuantum;
  const int blockDepth = plan.block.ofmBlock.depth;
  const double fullBytes = static_cast<double>(plan.weights->totalBytes);
  const double halfLimit = floorDivide(static_cast<double>(in.bufferLimit), 2.0);

  int prebufferDepth =
      static_cast<int>(std::max<double>(quantum, roundDownReal(depth * prebufferRatio, quantum)));
  const double prebufferCycles = estimateCycles(context, in.placement, in.op, plan.block, prebufferDepth);
  double bufferingDepth = roundUpReal(depth * (prebufferCycles / fullTransferCycles), blockDepth);
  if ((bufferingDepth / depth) * fullBytes > halfLimit) {
    bufferingDepth = (halfLimit / fullBytes) * depth;
  }
  std::shared_ptr<const WeightStreamSummary> encoded;
  while (true) {
    // Whole blocks where possible.
    bufferingDepth = bufferingDepth > blockDepth ? roundDownReal(bufferingDepth, blockDepth)
                                                 : roundDownReal(bufferingDepth, quantum);
    const int step = static_cast<int>(std::max<double>(bufferingDepth, quantum));
    bufferingDepth = step;
    std::vector<int> slices{0};
    for (int start = prebufferDepth; start < depth; start += step) {
      slices.push_back(start);
    }
    slices.push_back(depth);
    plan.depthSlices = slices;
    encoded = context.weightCache.encode(context.subgraph(), in.op.id, plan.block, slices);
    if (encoded->doubleBufferTotal() <= in.bufferLimit || prebufferDepth == quantum) {
      break;
    }
    if (step > prebufferDepth) {
      bufferingDepth = static_cast<double>(roundUp(step / 2, quantum));
    } else {
      prebufferDepth = static_cast<int>(roundUp(prebufferDepth / 2, quantum));
    }
  }
  // The last slice computes while nothing is loaded: that is the slack the next operation gets.
  const auto& slices = plan.depthSlices;
  plan.slackBufferingCycles =
      estimateCycles(context, in.placement, in.op, plan.block, slices[slices.size() - 1] - slices[slices.size() - 2]);
  return encoded;
}

void proposeWeightBuffering(const BufferingInputs& in, OperationPlan& plan, std::vector<std::int64_t>& snapshot) {
  const SchedulingContext& context = in.context;
  const SchedulingOperation& op = in.op;
  const std::vector<int> fullSlices{0, in.reference.ofmStripe.depth};
  const auto full = context.weightCache.encode(context.subgraph(), op.id, plan.block, fullSlices);
  plan.depthSlices = fullSlices;
  const MemoryArea weightsArea = in.placement.area(op.weights);
  if (op.type == OpType::FullyConnected || !weightsNeedDma(context, weightsArea)) {
    plan.weights = full; // read from where they are stored
    return;
  }
  auto encoded = full;
  const double slackCycles = in.previous != nullptr ? in.previous->slackBufferingCycles : 0.0;
  const std::int64_t slackMemory = in.previous != nullptr ? in.previous->slackBufferingMemory : 0;

  if (in.reference.cascade != 0) {
    // Cascaded operations keep their weights whole: the cascade's step needs them all at once.
    const auto time = static_cast<std::size_t>(in.reference.timeIndex);
    if (time < snapshot.size()) {
      snapshot[time] += full->totalBytes;
    }
  } else {
    const double fullTransferCycles =
        context.accelerator.costModel().transferCycles(weightsArea, context.memory().fastStorageArea, full->totalBytes);
    plan.fullWeightTransferCycles = fullTransferCycles;
    // How much can load under the previous operation, within half the buffer limit.
    const double fullBytes = static_cast<double>(full->totalBytes);
    const double halfLimit = floorDivide(static_cast<double>(in.bufferLimit), 2.0);
    const double prebufferBytes = fullTransferCycles > slackCycles
                                      ? std::min(slackCycles / fullTransferCycles * fullBytes, halfLimit)
                                      : std::min(fullBytes, halfLimit);
    if (prebufferBytes < fullBytes) {
      encoded = sliceForBuffering(in, plan, prebufferBytes / fullBytes, fullTransferCycles);
    }
  }

  const std::int64_t bufferBytes = std::min(encoded->totalBytes, encoded->largestBufferBytes());
  if (bufferBytes <= in.bufferLimit) {
    const std::int64_t doubleBufferBytes = encoded->doubleBufferTotal();
    const bool doubleBuffer = doubleBufferBytes <= in.bufferLimit && bufferBytes < encoded->totalBytes;
    plan.bufferedWeights = {BufferedWeights{encoded->doubleBufferBytes[0], doubleBuffer, false}};
    if (doubleBuffer) {
      plan.bufferedWeights.push_back(BufferedWeights{encoded->doubleBufferBytes[1], true, false});
    }
    const std::size_t lastUsed = plan.depthSlices.size() % plan.bufferedWeights.size();
    if (in.reference.cascade == 0) {
      // Start loading under the previous operation when its leftover memory allows.
      plan.bufferedWeights.front().preBuffer = doubleBufferBytes < slackMemory;
    }
    plan.slackBufferingMemory -= encoded->doubleBufferBytes[lastUsed];
  } else {
    // No room for a buffer: read the whole stream from where it is stored.
    plan.depthSlices = fullSlices;
    encoded = full;
  }
  plan.weights = encoded;
}

} // namespace

double floorDivide(double numerator, double denominator) {
  // CPython's float_floor_div: exact for quotients of representable values.
  double remainder = std::fmod(numerator, denominator);
  double quotient = (numerator - remainder) / denominator;
  if (remainder != 0.0 && ((denominator < 0) != (remainder < 0))) {
    quotient -= 1.0;
  }
  double floored = 0.0;
  if (quotient != 0.0) {
    floored = std::floor(quotient);
    if (quotient - floored > 0.5) {
      floored += 1.0;
    }
  } else {
    floored = std::copysign(0.0, numerator / denominator);
  }
  return floored;
}

bool weightsNeedDma(const SchedulingContext& context, MemoryArea weightsArea) {
  return (weightsArea == MemoryArea::Dram || weightsArea == MemoryArea::OffChipFlash) &&
         context.memory().constantArea != context.memory().fastStorageArea;
}

SchedulePlan proposeBuffering(const SchedulingContext& context, const TensorPlacement& placement,
                              const SchedulePlan& reference, std::int64_t stagingLimit,
                              std::span<const std::int64_t> evictedFeatureMapBytes) {
  SchedulePlan buffered(reference.label + "_BUFFERED", context.operationCount());
  buffered.cascades = reference.cascades;
  std::vector<std::int64_t> snapshot = reference.memorySnapshot;
  const OperationPlan* previous = nullptr;
  for (const SchedulingOperation& op : context.operations.operations()) {
    if (!reference.covers(op.index)) {
      continue;
    }
    const OperationPlan& referencePlan = reference.at(op.index);
    OperationPlan plan = referencePlan;
    plan.slackBufferingCycles = referencePlan.cycles;
    const auto time = static_cast<std::size_t>(referencePlan.timeIndex);
    plan.slackBufferingMemory = stagingLimit - (time < snapshot.size() ? snapshot[time] : 0);
    if (op.hasWeights()) {
      std::int64_t bufferLimit = plan.slackBufferingMemory;
      const std::int64_t evicted = static_cast<std::size_t>(op.index) < evictedFeatureMapBytes.size()
                                       ? evictedFeatureMapBytes[static_cast<std::size_t>(op.index)]
                                       : 0;
      // Leave room for evicted feature maps, within reason.
      if (evicted != 0 && static_cast<double>(bufferLimit) / static_cast<double>(evicted) >= 1.5) {
        bufferLimit -= evicted;
      }
      proposeWeightBuffering(BufferingInputs{context, placement, op, referencePlan, previous, bufferLimit}, plan,
                             snapshot);
    }
    buffered.set(op.index, std::move(plan));
    previous = &buffered.at(op.index);
  }
  return buffered;
}

} // namespace npu::cascade
