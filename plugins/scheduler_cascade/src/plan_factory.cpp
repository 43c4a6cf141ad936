// SPDX-License-Identifier: Apache-2.0
#include "plan_factory.hpp"

#include "parallel.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>

namespace npu::cascade {

namespace {

FeatureMapQuery featureMapQuery(const scheduling::FeatureMapOperand& operand, const Shape4& shape,
                                const TensorPlacement& placement) {
  return FeatureMapQuery{shape, operand.type, operand.format, placement.area(operand.tensor)};
}

CostQuery costQuery(const SchedulingContext& context, const TensorPlacement& placement, const SchedulingOperation& op,
                    const BlockConfig& block, int ofmDepth) {
  CostQuery query;
  query.ifm = featureMapQuery(op.ifm, op.ifmReadShape, placement);
  if (op.ifm2.present()) {
    query.ifm2 = featureMapQuery(op.ifm2, op.ifm2ReadShape.value_or(op.ifm2.shape), placement);
  }
  query.ofm = featureMapQuery(op.ofm, op.ofmWriteShape.withDepth(ofmDepth), placement);
  query.hasScalesBiases = op.bias != kNoTensor;
  // While scheduling, Vela assumes scales and biases come from the fast storage.
  query.constantArea = query.hasScalesBiases ? context.memory().fastStorageArea : MemoryArea::Unknown;
  query.block = &block;
  query.reversedOperands = op.reversedOperands;
  return query;
}

bool isNearest(Resampling resampling) { return resampling == Resampling::Nearest; }

} // namespace

int upscaleOf(Resampling resampling) { return resampling == Resampling::None ? 1 : 2; }

OperationPlan makeOperationPlan(const SchedulingContext& context, const SchedulingOperation& op,
                                const Shape4& ofmStripe) {
  const Subgraph& subgraph = context.subgraph();
  const Operation& irOp = subgraph.operation(op.id);
  Shape4 ifmStripe = op.ifm.shape;
  std::optional<Shape4> ifm2Stripe;
  if (op.ifm2.present()) {
    ifm2Stripe = op.ifm2.shape;
  }
  if (ofmStripe != op.ofm.shape) {
    // The IFM area the stripe needs, within the IFM.
    const Shape4 area = context.accelerator.blockConfigs().requiredIfmArea(subgraph, irOp, ofmStripe);
    const int height = std::min(area.height, op.ifm.shape.height);
    const int width = std::min(area.width, op.ifm.shape.width);
    ifmStripe = op.ifm.shape.withHW(height, width);
    if (ifm2Stripe) {
      ifm2Stripe = op.ifm2.shape.withHW(std::min(height, op.ifm2.shape.height), std::min(width, op.ifm2.shape.width));
    }
  }
  const auto block =
      context.accelerator.blockConfigs().choose(subgraph, irOp, OperationShapes{ifmStripe, ifm2Stripe, ofmStripe});
  if (!block) {
    throwCompileError("no block config of the accelerator fits an OFM stripe of " + ofmStripe.str(),
                      SourceLocation{context.graph.sourcePath, 0, 0, subgraph.describe(op.id)},
                      "the operation is too large for the accelerator's internal buffers");
  }
  OperationPlan plan;
  plan.block = *block;
  plan.ifmStripe = ifmStripe;
  plan.ifm2Stripe = ifm2Stripe;
  plan.ofmStripe = ofmStripe;
  plan.depthSlices = {0, ofmStripe.depth};
  if (op.hasWeights()) {
    const int fullDepth[] = {0, op.ofm.shape.depth};
    plan.weights = context.weightCache.encode(subgraph, op.id, plan.block, fullDepth);
  }
  return plan;
}

double estimateCycles(const SchedulingContext& context, const TensorPlacement& placement, const SchedulingOperation& op,
                      const BlockConfig& block, int ofmDepth) {
  const CostQuery query = costQuery(context, placement, op, block, ofmDepth);
  return context.accelerator.costModel().cycles(context.subgraph(), context.subgraph().operation(op.id), query).cycles;
}

ElementAccess estimateAccess(const SchedulingContext& context, const TensorPlacement& placement,
                             const SchedulingOperation& op, const BlockConfig& block) {
  const CostQuery query = costQuery(context, placement, op, block, op.ofm.shape.depth);
  return context.accelerator.costModel().elementAccess(context.subgraph(), context.subgraph().operation(op.id), query);
}

SchedulePlan maxSchedule(const SchedulingContext& context, const TensorPlacement& placement) {
  const auto ops = context.operations.operations();
  auto plans = parallelMap(ops.size(), [&](std::size_t index) {
    const SchedulingOperation& op = ops[index];
    OperationPlan plan = makeOperationPlan(context, op, op.ofm.shape);
    plan.cycles = estimateCycles(context, placement, op, plan.block, op.ofm.shape.depth);
    return plan;
  });
  SchedulePlan schedule("MAX", context.operationCount());
  for (std::size_t index = 0; index < plans.size(); ++index) {
    schedule.set(static_cast<int>(index), std::move(plans[index]));
  }
  return schedule;
}

SchedulePlan minimalSchedule(const SchedulingContext& context, const TensorPlacement& placement) {
  const auto ops = context.operations.operations();
  auto plans = parallelMap(ops.size(), [&](std::size_t index) {
    const SchedulingOperation& op = ops[index];
    // The next operation needs at least its vertical stride of rows per stripe.
    int height = index + 1 < ops.size() ? ops[index + 1].kernel.strideY : 1;
    if (isNearest(op.resampling)) {
      height += height % 2; // nearest-neighbour upscaling needs even stripes
    }
    OperationPlan plan = makeOperationPlan(context, op, op.ofm.shape.withHeight(height));
    plan.cycles = estimateCycles(context, placement, op, plan.block, op.ofm.shape.depth);
    return plan;
  });
  SchedulePlan schedule("MIN", context.operationCount());
  for (std::size_t index = 0; index < plans.size(); ++index) {
    schedule.set(static_cast<int>(index), std::move(plans[index]));
  }
  return schedule;
}

SchedulePlan stripedSchedule(const SchedulingContext& context, const TensorPlacement& placement,
                             const Shape4& finalStripe, const std::string& label, const SchedulePlan& reference) {
  const auto ops = context.operations.operations();
  // Stripes propagate backwards: each operation must produce what the next one reads per stripe.
  std::vector<std::pair<int, Shape4>> stripes;
  Shape4 stripe = finalStripe;
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    const SchedulingOperation& op = *it;
    if (!reference.covers(op.index)) {
      continue;
    }
    stripes.emplace_back(op.index, stripe);
    const int cascade = reference.at(op.index).cascade;
    const bool forceEven = std::any_of(ops.begin(), ops.end(), [&](const SchedulingOperation& other) {
      return reference.covers(other.index) && reference.at(other.index).cascade == cascade &&
             isNearest(other.resampling);
    });
    const int remainder = forceEven ? stripe.height % 2 : stripe.height % upscaleOf(op.resampling);
    stripe = op.ifm.shape.withHeight((stripe.height + remainder) * op.kernel.strideY);
  }
  auto plans = parallelMap(stripes.size(), [&](std::size_t i) {
    const auto& [index, ofmStripe] = stripes[i];
    const SchedulingOperation& op = ops[static_cast<std::size_t>(index)];
    OperationPlan plan = makeOperationPlan(context, op, ofmStripe);
    // Weights buffered in the reference stay buffered, sized for the new encoding.
    const auto& referenceBuffers = reference.at(index).bufferedWeights;
    for (std::size_t b = 0; b < referenceBuffers.size(); ++b) {
      const std::int64_t bytes = plan.weights ? plan.weights->doubleBufferBytes[b % 2] : 0;
      plan.bufferedWeights.push_back(BufferedWeights{bytes, referenceBuffers[b].doubleBuffer, false});
    }
    plan.cycles = estimateCycles(context, placement, op, plan.block, op.ofm.shape.depth);
    return plan;
  });
  SchedulePlan schedule(label, context.operationCount());
  for (std::size_t i = 0; i < stripes.size(); ++i) {
    schedule.set(stripes[i].first, std::move(plans[i]));
  }
  return schedule;
}

} // namespace npu::cascade
