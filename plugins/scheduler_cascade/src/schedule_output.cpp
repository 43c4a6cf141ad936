// SPDX-License-Identifier: Apache-2.0
#include "schedule_output.hpp"

#include "memory_snapshot.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include <set>

namespace npu::cascade {

namespace {

using scheduling::Residency;

WeightPlan weightPlanOf(const SchedulingContext& context, const TensorPlacement& placement,
                        const SchedulingOperation& op, const OperationPlan& plan) {
  WeightPlan weights;
  weights.encodedBytes = plan.weights->totalBytes;
  weights.depthSlices = plan.depthSlices;
  for (const BufferedWeights& buffer : plan.bufferedWeights) {
    weights.bufferBytes.push_back(buffer.allocatedBytes());
  }
  weights.storageArea = placement.area(op.weights);
  weights.bufferArea = plan.bufferedWeights.empty() ? MemoryArea::Unknown : context.memory().fastStorageArea;
  weights.firstTransferBytes = plan.weights->firstTransferBytes;
  weights.fullTransferCycles = plan.fullWeightTransferCycles;
  return weights;
}

void addHome(Schedule& schedule, const SchedulingContext& context, const TensorPlacement& placement, TensorId tensor) {
  if (tensor != kNoTensor) {
    schedule.tensorHomes[tensor] = TensorHome{placement.area(tensor), context.operations.format(tensor)};
  }
}

/// Feature maps, rolling buffers and weight buffers, memory by memory as Vela allocates them
/// (scheduler._update_tensor_allocation).
void addWorkingBuffers(Schedule& schedule, const SchedulingContext& context, const TensorPlacement& placement,
                       const SchedulePlan& plan) {
  const MemorySystem& memory = context.memory();
  std::vector<scheduling::MemoryScope> scopes;
  if (context.spilling()) {
    scopes.push_back({memory.fastStorageArea, {Residency::ScratchFast}, memory.fastStorageArea});
    scopes.push_back({memory.featureMapArea, {Residency::Scratch}, memory.fastStorageArea});
  } else {
    scopes.push_back({memory.featureMapArea, {Residency::Scratch, Residency::ScratchFast}, memory.fastStorageArea});
  }
  for (const auto& scope : scopes) {
    const auto ranges = planLiveRanges(context, placement, plan, scope);
    auto requests = scheduling::toBufferRequests(context.operations, ranges, scope.area, memory.allocationAlignment,
                                                 scheduling::Timeline::Steps);
    schedule.buffers.insert(schedule.buffers.end(), requests.begin(), requests.end());
    schedule.operationTimes.assign(ranges.operationTimes().begin(), ranges.operationTimes().end());
  }
}

/// Encoded weight streams and other constants, stored for the whole region (Vela allocates them once,
/// compiler_driver's Permanent_NPU allocation); identical streams are stored once.
void addConstantBuffers(Schedule& schedule, const SchedulingContext& context, const TensorPlacement& placement,
                        const SchedulePlan& plan) {
  const Subgraph& subgraph = context.subgraph();
  // Stored before the region runs and kept after it: the whole timeline.
  const std::int64_t last = schedule.timelineLength() - 1;
  const std::int64_t alignment = context.memory().allocationAlignment;
  std::set<std::pair<std::int64_t, std::vector<int>>> streams;
  std::set<std::int64_t> constants;
  const auto identity = [&](TensorId tensor) {
    const std::int64_t equivalence = subgraph.tensor(tensor).equivalenceId;
    return equivalence >= 0 ? (std::int64_t{1} << 40) + equivalence : tensor;
  };
  const auto addConstant = [&](TensorId tensor, std::int64_t bytes, const std::string& name) {
    schedule.buffers.push_back(
        BufferRequest{LiveRange{name, 0, last, bytes, alignment}, placement.area(tensor), {tensor}});
  };
  for (const SchedulingOperation& op : context.operations.operations()) {
    const OperationPlan& opPlan = plan.at(op.index);
    const Operation& irOp = subgraph.operation(op.id);
    if (opPlan.weights) {
      std::vector<int> key = opPlan.depthSlices;
      key.push_back(static_cast<int>(opPlan.weights->totalBytes));
      if (streams.emplace(identity(op.weights), key).second) {
        addConstant(op.weights, opPlan.weights->totalBytes, subgraph.tensor(op.weights).name + "_npu_encoded_weights");
      }
    }
    std::vector<TensorId> others;
    for (const TensorId input : irOp.inputs) {
      if (input != op.weights && input != op.bias) {
        others.push_back(input);
      }
    }
    if (irOp.activation) {
      others.push_back(irOp.activation->lut);
    }
    for (const TensorId tensor : others) {
      if (subgraph.validTensorId(tensor) && subgraph.tensor(tensor).isConstant() &&
          constants.insert(identity(tensor)).second) {
        addConstant(tensor, context.operations.storageBytes(tensor), subgraph.tensor(tensor).name);
      }
    }
  }
}

} // namespace

TensorPlacement withRollingBuffers(const SchedulingContext& context, TensorPlacement placement,
                                   const SchedulePlan& plan) {
  for (const auto& [end, cascade] : plan.cascades) {
    for (const auto& [consumer, shape] : cascade.rollingBuffers) {
      placement.place(context.operations.operation(consumer).ifm.tensor,
                      scheduling::Placement{context.memory().fastStorageArea, Residency::ScratchFast});
    }
  }
  return placement;
}

Schedule toSchedule(const SchedulingContext& context, const TensorPlacement& placement, const SchedulePlan& plan,
                    const std::string& label, bool withBuffers) {
  Schedule schedule;
  schedule.label = label;
  schedule.region = context.operations.region();
  std::map<int, int> cascadeIds; // Vela's id (last operation) -> 1, 2, ... in order
  for (const auto& [end, cascade] : plan.cascades) {
    const int id = static_cast<int>(cascadeIds.size()) + 1;
    cascadeIds[end] = id;
    schedule.cascades.push_back(CascadeInfo{id, context.operations.operation(cascade.start).id,
                                            context.operations.operation(cascade.end).id, cascade.memoryUsage});
  }
  for (const SchedulingOperation& op : context.operations.operations()) {
    if (!plan.covers(op.index)) {
      continue;
    }
    const OperationPlan& opPlan = plan.at(op.index);
    ScheduledOperation scheduled;
    scheduled.op = op.id;
    scheduled.blockConfig = opPlan.block;
    scheduled.ifmStripe = opPlan.ifmStripe;
    scheduled.ifm2Stripe = opPlan.ifm2Stripe;
    scheduled.ofmStripe = opPlan.ofmStripe;
    scheduled.reversedOperands = op.reversedOperands;
    const auto cascade = cascadeIds.find(opPlan.cascade);
    scheduled.cascade = cascade == cascadeIds.end() ? 0 : cascade->second;
    if (opPlan.weights) {
      scheduled.weights = weightPlanOf(context, placement, op, opPlan);
    }
    scheduled.estimatedCycles = opPlan.cycles;
    scheduled.slackBufferingCycles = opPlan.slackBufferingCycles;
    scheduled.memoryUsage = plan.snapshotAt(opPlan.timeIndex);
    if (const auto cascadePlan = plan.cascades.find(opPlan.cascade); cascadePlan != plan.cascades.end()) {
      if (const auto buffer = cascadePlan->second.rollingBuffers.find(op.index);
          buffer != cascadePlan->second.rollingBuffers.end()) {
        scheduled.ifmRollingBuffer = buffer->second;
      }
    }
    schedule.operations.push_back(std::move(scheduled));
    for (const TensorId tensor : {op.ifm.tensor, op.ifm2.tensor, op.ofm.tensor}) {
      addHome(schedule, context, placement, tensor);
    }
  }
  for (const TensorId tensor : context.operations.region().inputs) {
    addHome(schedule, context, placement, tensor);
  }
  for (const TensorId tensor : context.operations.region().outputs) {
    addHome(schedule, context, placement, tensor);
  }
  if (withBuffers) {
    addWorkingBuffers(schedule, context, placement, plan);
    addConstantBuffers(schedule, context, placement, plan);
    const auto usage = scheduling::usageOverTime(schedule, context.memory().fastStorageArea);
    for (std::size_t t = 0; t < schedule.operations.size(); ++t) {
      const auto time = static_cast<std::size_t>(schedule.timeOf(t));
      schedule.operations[t].memoryUsage = time < usage.size() ? usage[time] : 0;
    }
    schedule.fastStoragePeak = usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end());
  }
  return schedule;
}

} // namespace npu::cascade
