// SPDX-License-Identifier: Apache-2.0
#include "cascade_builder.hpp"

#include <algorithm>

namespace npu::cascade {

namespace {

/// Operations the accelerator runs in blocks over the feature map, which is what a cascade interleaves
/// (Vela excludes the Default, VectorProduct and ReduceSum block types).
bool runsInFeatureMapBlocks(OpType type) {
  return is(type, OpCategory::Convolution) || is(type, OpCategory::DepthwiseConvolution) ||
         is(type, OpCategory::Pooling) || isElementwise(type) || is(type, OpCategory::Dma);
}

std::int64_t brickBytes(const Shape4& shape, DataType type) {
  return shape.withDepth(static_cast<int>(roundUp(shape.depth, 16))).elements() * bytesOf(type);
}

} // namespace

Shape4 rollingBufferShape(const Shape4& producerStripe, const Shape4& consumerIfmStripe) {
  const auto height = roundUp(producerStripe.height + consumerIfmStripe.height, consumerIfmStripe.height);
  // A strided consumer may read a narrower IFM than the producer writes.
  const int width = std::max(producerStripe.width, consumerIfmStripe.width);
  return Shape4{1, static_cast<int>(height), width, static_cast<int>(roundUp(producerStripe.depth, 16))};
}

bool elementwiseCascadable(const Subgraph& subgraph, const Operation& op) {
  if (!isBinaryElementwise(op.type)) {
    return true;
  }
  const Tensor* ifm = subgraph.findTensor(op.ifm());
  const Tensor* ifm2 = subgraph.findTensor(op.ifm2());
  const Tensor* ofm = subgraph.findTensor(op.ofm());
  if (ifm == nullptr || ifm2 == nullptr || ofm == nullptr) {
    return false;
  }
  const bool ifmCascadable = !(ifm->isConstant() || ifm->shape.isScalar() || ifm->shape != ofm->shape);
  const bool ifm2Cascadable = ifm2->isConstant() || ifm2->shape.isScalar();
  return ifmCascadable && ifm2Cascadable;
}

CascadeBuilder::CascadeBuilder(const SchedulingContext& context, std::vector<int> operations,
                               std::map<int, std::int64_t> nonLocalUsage)
    : context_(context), operations_(std::move(operations)), nonLocalUsage_(std::move(nonLocalUsage)) {}

std::int64_t CascadeBuilder::nonLocal(int index) const {
  const auto it = nonLocalUsage_.find(index);
  return it == nonLocalUsage_.end() ? 0 : it->second;
}

bool CascadeBuilder::isCascadable(const SchedulingOperation& op, const OperationPlan& plan) const {
  const Operation& irOp = context_.subgraph().operation(op.id);
  return runsInFeatureMapBlocks(op.type) && plan.ofmStripe.height < op.ofm.shape.height &&
         !irOp.readOffsets[0].has_value() && !irOp.readOffsets[1].has_value() &&
         elementwiseCascadable(context_.subgraph(), irOp) && op.type != OpType::Conv2DBackpropInputSwitchedBias &&
         irOp.padding != Padding::Tile;
}

std::int64_t CascadeBuilder::estimateMemoryUsage(const SchedulingOperation& op, const OperationPlan& plan) const {
  // The second input of a binary elementwise operation is constant or scalar and stays where it is.
  const std::int64_t ifm2Bytes = isBinaryElementwise(op.type) ? 0 : op.ifm2.bytes;
  const std::int64_t ifmBytes = op.requiresFullIfm ? op.ifm.bytes : brickBytes(plan.ifmStripe, op.ifm.type);
  std::int64_t ofmBytes = 0;
  if (scheduling::inputOverwrittenByOfm(context_.operations, op.index)) {
    ofmBytes = 0; // written over the IFM
  } else if (op.requiresFullOfm) {
    ofmBytes = op.ofm.bytes;
  } else {
    ofmBytes = brickBytes(plan.ofmStripe, op.ofm.type);
  }
  return ifmBytes + ifm2Bytes + ofmBytes + nonLocal(op.index);
}

void CascadeBuilder::build(SchedulePlan& proposal, const SchedulePlan& fallback, std::int64_t guidingLimit) const {
  const SchedulingGraph& graph = context_.operations;
  const bool spilling = context_.spilling();
  std::vector<std::optional<OperationPlan>> result(proposal.operations.size());
  std::map<int, CascadeSpan> cascades;
  const auto processed = [&](int index) { return result[static_cast<std::size_t>(index)].has_value(); };
  const auto useFallback = [&](const SchedulingOperation& op) {
    result[static_cast<std::size_t>(op.index)] = fallback.at(op.index);
  };
  // Peak usage so far; with spilling the guiding limit is a hard limit on the cascade buffers.
  std::int64_t peakUsage = guidingLimit;

  for (const int index : operations_) {
    const SchedulingOperation& op = graph.operation(index);
    if (processed(index)) {
      continue;
    }
    if (!isCascadable(op, proposal.at(index))) {
      useFallback(op);
      if (!spilling) {
        peakUsage = std::max(peakUsage, estimateMemoryUsage(op, fallback.at(index)));
      }
      continue;
    }
    std::vector<int> inCascade{index};
    std::vector<int> bestCascade{index};
    const std::int64_t cascadeIfmBytes = spilling ? 0 : op.ifm.bytes; // the first IFM is stored whole
    std::int64_t cascadeBuffers = proposal.at(index).bufferedWeightBytes();
    std::int64_t bestCascadeSize = estimateMemoryUsage(op, fallback.at(index));

    const SchedulingOperation* producer = &op;
    while (producer->ofmConsumers.size() == 1) {
      const SchedulingOperation& current = graph.operation(producer->ofmConsumers.front());
      if (processed(current.index) || !proposal.covers(current.index) ||
          !isCascadable(current, proposal.at(current.index)) || producer->ofm.shape != current.ifm.shape ||
          current.requiresFullIfm || producer->requiresFullOfm) {
        break;
      }
      if (producer->index + 1 != current.index) {
        break; // cascading would need the operations reordered
      }
      const Shape4 buffer =
          rollingBufferShape(proposal.at(producer->index).ofmStripe, proposal.at(current.index).ifmStripe);
      const std::int64_t bufferBytes = buffer.elements() * bytesOf(producer->ofm.type);
      const std::int64_t uncascadedUsage = estimateMemoryUsage(current, fallback.at(current.index));
      inCascade.push_back(current.index);
      cascadeBuffers += bufferBytes + proposal.at(current.index).bufferedWeightBytes();

      if (spilling) {
        // Only the cascade's own buffers take fast storage: cascade until an operation fits on its own
        // or the buffers no longer fit.
        if (uncascadedUsage < peakUsage || cascadeBuffers > peakUsage) {
          break;
        }
        bestCascade = inCascade;
        bestCascadeSize = cascadeBuffers;
      } else {
        const std::int64_t cascadeSize = cascadeIfmBytes + cascadeBuffers + current.ofm.bytes + nonLocal(index);
        if ((uncascadedUsage < peakUsage && bestCascadeSize < peakUsage) ||
            cascadeIfmBytes + cascadeBuffers > bestCascadeSize) {
          break; // everything fits already, or the cascade cannot get smaller
        }
        // A longer cascade is better when it is smaller than the best so far, or smaller than running the
        // new operation on its own.
        if (cascadeSize < bestCascadeSize || cascadeSize < uncascadedUsage) {
          bestCascadeSize = cascadeSize;
          bestCascade = inCascade;
        }
      }
      producer = &current;
    }

    if (bestCascade.size() > 1) {
      const int end = bestCascade.back();
      CascadeSpan span;
      span.start = index;
      span.end = end;
      for (std::size_t i = 0; i < bestCascade.size(); ++i) {
        const int member = bestCascade[i];
        OperationPlan plan = proposal.at(member);
        plan.cascade = end;
        result[static_cast<std::size_t>(member)] = std::move(plan);
        if (i > 0) {
          span.rollingBuffers[member] =
              rollingBufferShape(proposal.at(bestCascade[i - 1]).ofmStripe, proposal.at(member).ifmStripe);
        }
      }
      // Only what the cascade itself uses, so sub-schedules can recompute what lives beside it.
      span.memoryUsage = bestCascadeSize - nonLocal(index);
      cascades.emplace(end, std::move(span));
      if (!spilling) {
        peakUsage = std::max(peakUsage, bestCascadeSize);
      }
    } else {
      useFallback(op);
      if (!spilling) {
        peakUsage = std::max(peakUsage, estimateMemoryUsage(op, fallback.at(index)));
      }
    }
  }
  proposal.operations = std::move(result);
  proposal.cascades = std::move(cascades);
}

} // namespace npu::cascade
