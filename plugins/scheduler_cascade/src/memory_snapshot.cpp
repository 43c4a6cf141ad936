// SPDX-License-Identifier: Apache-2.0
#include "memory_snapshot.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>

namespace npu::cascade {

std::vector<scheduling::StepLayout> stepLayouts(const SchedulingContext& context, const SchedulePlan& plan) {
  std::vector<scheduling::StepLayout> steps(static_cast<std::size_t>(context.operationCount()));
  for (int index = 0; index < context.operationCount(); ++index) {
    require(plan.covers(index), "a memory snapshot needs a plan for every operation");
    const OperationPlan& op = plan.at(index);
    scheduling::StepLayout& step = steps[static_cast<std::size_t>(index)];
    step.cascade = op.cascade;
    if (const CascadeSpan* cascade = plan.cascadeOf(index)) {
      if (const auto it = cascade->rollingBuffers.find(index); it != cascade->rollingBuffers.end()) {
        step.rollingBuffer = it->second;
      }
    }
    for (const BufferedWeights& buffer : op.bufferedWeights) {
      step.weightBuffers.push_back(scheduling::WeightBufferUse{buffer.allocatedBytes(), buffer.preBuffer});
    }
    step.depthSliceBoundaries = static_cast<int>(op.depthSlices.size());
  }
  return steps;
}

scheduling::MemoryScope fastStorageScope(const SchedulingContext& context) {
  const MemoryArea fast = context.memory().fastStorageArea;
  return scheduling::MemoryScope{fast, {scheduling::Residency::Scratch, scheduling::Residency::ScratchFast}, fast};
}

scheduling::LiveRangeGraph planLiveRanges(const SchedulingContext& context, const TensorPlacement& placement,
                                          const SchedulePlan& plan, const scheduling::MemoryScope& scope) {
  const auto steps = stepLayouts(context, plan);
  return scheduling::extractLiveRanges(context.operations, steps, placement, scope);
}

void updateMemorySnapshot(const SchedulingContext& context, const TensorPlacement& placement, SchedulePlan& plan) {
  const auto ranges = planLiveRanges(context, placement, plan, fastStorageScope(context));
  const auto times = ranges.operationTimes();
  for (int index = 0; index < context.operationCount(); ++index) {
    plan.at(index).timeIndex = times[static_cast<std::size_t>(index)];
  }
  plan.memorySnapshot = ranges.usage(context.memory().fastStorageArea);
  plan.fastStoragePeak =
      plan.memorySnapshot.empty() ? 0 : *std::max_element(plan.memorySnapshot.begin(), plan.memorySnapshot.end());
}

} // namespace npu::cascade
