// SPDX-License-Identifier: Apache-2.0
#include "plan_factory.hpp"

#include "parallel.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <numeric>

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

bool isNearest(Resampling resampling) {
  return resampling == Resampling::Nearest;
}

} // namespace

int upscaleOf(Resampling resampling) {
  return resampling == Resampling::None ? 1 : 2;
}

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

namespace {

/// The OFM stripe of operation `index` in the MIN schedule.
Shape4 minimalStripe(std::span<const SchedulingOperation> ops, std::size_t index) {
  const SchedulingOperation& op = ops[index];
  // The next operation needs at least its vertical stride of rows per stripe.
  int height = index + 1 < ops.size() ? ops[index + 1].kernel.strideY : 1;
  if (isNearest(op.resampling)) {
    height += height % 2; // nearest-neighbour upscaling needs even stripes
  }
  return op.ofm.shape.withHeight(height);
}

OperationPlan plannedWithCycles(const SchedulingContext& context, const TensorPlacement& placement,
                                const SchedulingOperation& op, const Shape4& ofmStripe) {
  OperationPlan plan = makeOperationPlan(context, op, ofmStripe);
  plan.cycles = estimateCycles(context, placement, op, plan.block, op.ofm.shape.depth);
  return plan;
}

SchedulePlan scheduleOf(const std::string& label, std::vector<OperationPlan> plans) {
  SchedulePlan schedule(label, static_cast<int>(plans.size()));
  for (std::size_t index = 0; index < plans.size(); ++index) {
    schedule.set(static_cast<int>(index), std::move(plans[index]));
  }
  return schedule;
}

} // namespace

SchedulePlan maxSchedule(const SchedulingContext& context, const TensorPlacement& placement) {
  const auto ops = context.operations.operations();
  return scheduleOf("MAX", parallelMap(ops.size(), [&](std::size_t index) {
                      return plannedWithCycles(context, placement, ops[index], ops[index].ofm.shape);
                    }));
}

SchedulePlan minimalSchedule(const SchedulingContext& context, const TensorPlacement& placement) {
  const auto ops = context.operations.operations();
  return scheduleOf("MIN", parallelMap(ops.size(), [&](std::size_t index) {
                      return plannedWithCycles(context, placement, ops[index], minimalStripe(ops, index));
                    }));
}

std::pair<SchedulePlan, SchedulePlan> maxAndMinimalSchedules(const SchedulingContext& context,
                                                             const TensorPlacement& placement) {
  const auto ops = context.operations.operations();
  const std::size_t count = ops.size();
  // Task t < count plans operation t whole; task count + i plans operation i in its minimal stripe,
  // unless that stripe is the whole OFM (then the MAX plan is the same call).
  std::vector<std::size_t> minimalTask(count, count);
  std::vector<std::size_t> tasks;
  for (std::size_t index = 0; index < count; ++index) {
    if (minimalStripe(ops, index) != ops[index].ofm.shape) {
      minimalTask[index] = count + tasks.size();
      tasks.push_back(index);
    }
  }
  const auto operationOf = [&](std::size_t task) { return task < count ? task : tasks[task - count]; };
  const auto weightBytes = [&](std::size_t task) {
    const SchedulingOperation& op = ops[operationOf(task)];
    return op.hasWeights() ? context.subgraph().tensor(op.weights).byteSize() : 0;
  };
  // Heaviest weights first, all MAX tasks before the MIN ones so that one operation's two encodings
  // rarely run at once (equal block depths give equal streams, then found encoded).
  std::vector<std::size_t> order(count + tasks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto heaviestFirst = [&](std::size_t a, std::size_t b) { return weightBytes(a) > weightBytes(b); };
  std::stable_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), heaviestFirst);
  std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(count), order.end(), heaviestFirst);

  std::vector<OperationPlan> plans = parallelMapInOrder(order, [&](std::size_t task) {
    const std::size_t index = operationOf(task);
    return plannedWithCycles(context, placement, ops[index],
                             task < count ? ops[index].ofm.shape : minimalStripe(ops, index));
  });
  std::vector<OperationPlan> maxPlans(plans.begin(), plans.begin() + static_cast<std::ptrdiff_t>(count));
  std::vector<OperationPlan> minimalPlans;
  minimalPlans.reserve(count);
  for (std::size_t index = 0; index < count; ++index) {
    minimalPlans.push_back(minimalTask[index] < plans.size() ? std::move(plans[minimalTask[index]]) : maxPlans[index]);
  }
  return {scheduleOf("MAX", std::move(maxPlans)), scheduleOf("MIN", std::move(minimalPlans))};
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
