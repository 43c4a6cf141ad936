// SPDX-License-Identifier: Apache-2.0
#include "npu/report/report.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace npu {

namespace {

TensorHome homeOf(const Schedule& schedule, TensorId tensor, const MemorySystem& memory) {
  const auto it = schedule.tensorHomes.find(tensor);
  return it != schedule.tensorHomes.end() ? it->second : TensorHome{memory.featureMapArea, TensorFormat::NHWC};
}

FeatureMapQuery featureMap(const Subgraph& subgraph, const Schedule& schedule, const MemorySystem& memory,
                           TensorId tensor, const Shape4& shape) {
  const TensorHome home = homeOf(schedule, tensor, memory);
  return FeatureMapQuery{shape, subgraph.tensor(tensor).type, home.format, home.area};
}

/// What the cost model needs to know about one scheduled operation (Vela: estimate_full_op_performance).
PerformanceContext contextFor(const Subgraph& subgraph, const Operation& op, const ScheduledOperation& scheduled,
                              const Schedule& schedule, const MemorySystem& memory) {
  PerformanceContext context;
  CostQuery& query = context.query;
  // Operand order as the schedule runs it: a swapped binary operation reads its second input first.
  const std::size_t first = scheduled.reversedOperands ? 1 : 0;
  const TensorId ifm = scheduled.reversedOperands ? op.ifm2() : op.ifm();
  const TensorId ifm2 = scheduled.reversedOperands ? op.ifm() : op.ifm2();
  const auto readShape = [&](std::size_t index) { return op.readShapes[index].value_or(subgraph.ifmShape(op, index)); };
  if (subgraph.validTensorId(ifm)) {
    query.ifm = featureMap(subgraph, schedule, memory, ifm, readShape(first));
  }
  if (subgraph.validTensorId(ifm2)) {
    query.ifm2 = featureMap(subgraph, schedule, memory, ifm2, readShape(1 - first));
  }
  query.ofm = featureMap(subgraph, schedule, memory, op.ofm(), op.writeShape.value_or(subgraph.ofmShape(op)));
  query.block = &scheduled.blockConfig;
  query.reversedOperands = scheduled.reversedOperands;
  query.hasScalesBiases = subgraph.validTensorId(op.bias());
  if (scheduled.weights) {
    const WeightPlan& plan = *scheduled.weights;
    query.constantArea = plan.buffered() ? plan.bufferArea : plan.storageArea;
    context.weights = WeightTransfer{true,
                                     plan.encodedBytes,
                                     plan.storageArea,
                                     plan.buffered() ? std::optional(plan.bufferArea) : std::nullopt,
                                     plan.doubleBuffered(),
                                     plan.firstTransferBytes,
                                     plan.fullTransferCycles,
                                     plan.scalesBuffered};
  } else if (query.hasScalesBiases) {
    query.constantArea = memory.constantArea;
  }
  if (op.activation && subgraph.validTensorId(op.activation->lut)) {
    context.lutTransfer = ConstantTransfer{memory.constantArea, MemoryArea::Shram,
                                           subgraph.tensor(op.activation->lut).byteSize(), TensorPurpose::Lut};
  }
  context.ownSlackCycles = scheduled.slackBufferingCycles;
  context.phase = EstimatePhase::Final;
  return context;
}

/// Weights counted once per distinct constant (shared buffers have one equivalence id).
std::int64_t weightIdentity(const Subgraph& subgraph, int subgraphIndex, TensorId tensor) {
  const auto equivalence = subgraph.tensor(tensor).equivalenceId;
  return equivalence >= 0 ? equivalence : -(static_cast<std::int64_t>(subgraphIndex) << 32) - tensor - 1;
}

/// What decides an encoded weight stream besides the weights themselves: the operation kind, the
/// block depth (deeper than the weights' output depth changes nothing; depthwise weights have one
/// output channel per stream position), the depth slicing and the dilation. Streams with equal keys
/// are stored and counted once (Vela weight_compressor.create_weight_compression_config).
using EncodingKey = std::tuple<std::int64_t, int, int, std::vector<int>, int, int>;

EncodingKey encodingKey(std::int64_t identity, const Subgraph& subgraph, const Operation& op,
                        const ScheduledOperation& scheduled) {
  const bool depthwise = is(op.type, OpCategory::DepthwiseConvolution);
  const int outputDepth = depthwise ? 1 : subgraph.ofmShape(op).depth;
  const Kernel kernel = op.kernel.value_or(Kernel{});
  return {identity,
          static_cast<int>(op.type),
          std::min(scheduled.blockConfig.ofmBlock.depth, outputDepth),
          scheduled.weights ? scheduled.weights->depthSlices : std::vector<int>{},
          kernel.dilationX,
          kernel.dilationY};
}

void countPlacements(const Graph& graph, NetworkReport& report) {
  report.subgraphs = static_cast<int>(graph.subgraphs.size());
  for (const Subgraph& subgraph : graph.subgraphs) {
    for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
      const Operation& op = subgraph.operations[i];
      if (op.placement == Placement::Npu) {
        ++report.npuOperations;
      } else {
        ++report.cpuOperations;
        report.cpuOperationReasons.push_back(
            subgraph.describe(static_cast<OperationId>(i)) + ": " +
            (op.placementReason.empty() ? "not placed on the NPU" : op.placementReason));
      }
    }
  }
}

} // namespace

NetworkBound& NetworkBound::operator+=(const OperationBound& layer) {
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    cycles[i] += layer.cycles[i];
  }
  return *this;
}

BoundResource NetworkBound::boundBy() const {
  return static_cast<BoundResource>(std::max_element(cycles.begin(), cycles.end()) - cycles.begin());
}

double NetworkBound::total() const {
  return cycles[static_cast<std::size_t>(boundBy())];
}

NetworkReport evaluateNetwork(const Graph& lowered, const std::vector<Schedule>& schedules,
                              const std::vector<Allocation>& allocations, const Accelerator& accelerator) {
  require(schedules.size() == allocations.size(), "one allocation per schedule");
  NetworkReport report;
  report.network = lowered.name;
  report.accelerator = accelerator.info();
  report.memory = accelerator.memory();
  countPlacements(lowered, report);
  const MemorySystem& memory = accelerator.memory();
  std::set<std::int64_t> originalSeen;
  std::set<EncodingKey> encodedSeen;
  for (std::size_t s = 0; s < schedules.size(); ++s) {
    const Schedule& schedule = schedules[s];
    const Subgraph& subgraph = lowered.subgraphs.at(static_cast<std::size_t>(schedule.region.subgraph));
    std::vector<LiveRange> fastRanges;
    for (const auto& buffer : schedule.buffers) {
      if (buffer.area == memory.fastStorageArea) {
        fastRanges.push_back(buffer.range);
      }
    }
    const auto usage = memoryUsageOverTime(fastRanges, schedule.timelineLength());
    double previousSlack = 0.0;
    std::set<TensorId> producedInRegion;
    for (std::size_t t = 0; t < schedule.operations.size(); ++t) {
      const ScheduledOperation& scheduled = schedule.operations[t];
      const Operation& op = subgraph.operation(scheduled.op);
      PerformanceContext context = contextFor(subgraph, op, scheduled, schedule, memory);
      context.previousSlackCycles = previousSlack;
      previousSlack = scheduled.slackBufferingCycles;
      context.startsRegion = std::none_of(op.inputs.begin(), op.inputs.end(),
                                          [&](TensorId input) { return producedInRegion.contains(input); });
      producedInRegion.insert(op.outputs.begin(), op.outputs.end());

      LayerReport layer;
      layer.subgraph = schedule.region.subgraph;
      layer.region = schedule.label;
      layer.op = scheduled.op;
      layer.name = op.name;
      layer.sourceType = op.sourceType;
      layer.irType = std::string(nameOf(op.type));
      layer.schedule = scheduled;
      layer.performance = accelerator.costModel().estimate(subgraph, op, context);
      layer.bound = operationBound(accelerator, subgraph, op, context);
      report.bound += layer.bound;
      layer.memoryUsage = usage[static_cast<std::size_t>(schedule.timeOf(t))];
      report.total += layer.performance;

      if (const TensorId weights = op.weights(); subgraph.validTensorId(weights)) {
        const std::int64_t identity = weightIdentity(subgraph, schedule.region.subgraph, weights);
        if (originalSeen.insert(identity).second) {
          report.originalWeightBytes += subgraph.tensor(weights).byteSize();
        }
        if (scheduled.weights && encodedSeen.insert(encodingKey(identity, subgraph, op, scheduled)).second) {
          report.encodedWeightBytes += scheduled.weights->encodedBytes;
        }
      }
      report.layers.push_back(std::move(layer));
    }
    for (std::size_t area = 0; area < report.memoryUsed.size(); ++area) {
      report.memoryUsed[area] = std::max(report.memoryUsed[area], allocations[s].peak[area]);
    }
  }
  // Operations the CPU runs count only when the cost model says so (Vela 2.1's totals include them).
  for (const Subgraph& subgraph : lowered.subgraphs) {
    for (const Operation& op : subgraph.operations) {
      if (op.placement == Placement::Npu) {
        continue;
      }
      if (const auto performance = accelerator.costModel().cpuOperation(subgraph, op)) {
        report.total += *performance;
      }
    }
  }
  return report;
}

} // namespace npu
