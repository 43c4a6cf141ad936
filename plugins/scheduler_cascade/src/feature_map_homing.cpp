// SPDX-License-Identifier: Apache-2.0
#include "feature_map_homing.hpp"

#include "memory_snapshot.hpp"
#include "plan_factory.hpp"
#include "schedule_output.hpp"
#include "weight_buffering.hpp"

#include "scheduler_common/fast_storage.hpp"

#include <cmath>
#include <set>

namespace npu::cascade {

namespace {

using scheduling::Placement;
using scheduling::Residency;

/// Python's round(value, 2) for the improvement ratios Vela compares.
double roundToHundredths(double value) { return std::nearbyint(value * 100.0) / 100.0; }

/// Element accesses per tensor, summed over the operations reading or writing it (Vela: the
/// competing_tens_access estimate), for the tensors in `wanted`.
std::map<TensorId, double> accessCounts(const SchedulingContext& context, const TensorPlacement& placement,
                                        const SchedulePlan& plan, const std::set<TensorId>& wanted) {
  std::map<TensorId, double> counts;
  for (const TensorId tensor : wanted) {
    counts[tensor] = 0.0;
  }
  for (const SchedulingOperation& op : context.operations.operations()) {
    const bool ifm = wanted.contains(op.ifm.tensor);
    const bool ifm2 = op.ifm2.present() && wanted.contains(op.ifm2.tensor);
    const bool ofm = wanted.contains(op.ofm.tensor);
    if (!ifm && !ifm2 && !ofm) {
      continue;
    }
    const ElementAccess access = estimateAccess(context, placement, op, plan.at(op.index).block);
    if (ifm) {
      counts[op.ifm.tensor] += access.ifmRead[0];
    }
    if (ifm2) {
      counts[op.ifm2.tensor] += access.ifmRead[1];
    }
    if (ofm) {
      counts[op.ofm.tensor] += access.ofmWrite;
    }
  }
  return counts;
}

} // namespace

void FastStorageState::restore(TensorPlacement& placement) const {
  for (const auto& [tensor, original] : movedFeatureMaps) {
    placement.place(tensor, original);
  }
}

void useFastStorageForFeatureMaps(const SchedulingContext& context, TensorPlacement& placement,
                                  const SchedulePlan& plan, std::int64_t limit, FastStorageState& state) {
  const MemoryArea fast = context.memory().fastStorageArea;
  state.evictedFeatureMaps.clear();
  state.fits = true;
  // Every OFM read inside the region and not part of a cascade is tried in fast storage first.
  for (const SchedulingOperation& op : context.operations.operations()) {
    const TensorId ofm = op.ofm.tensor;
    // Region inputs and outputs stay where they are: a tensor another region writes too (a concatenation
    // fed from both sides of a CPU operator) is a subgraph input in Vela, never moved to fast storage.
    if (plan.at(op.index).cascade != 0 || op.ofmConsumers.empty() || context.operations.isRegionOutput(ofm) ||
        context.operations.isRegionInput(ofm) || op.writesVariable) {
      continue;
    }
    state.movedFeatureMaps.emplace(ofm, placement.of(ofm));
    placement.place(ofm, Placement{fast, Residency::ScratchFast});
  }
  const auto ranges = planLiveRanges(context, placement, plan, fastStorageScope(context));
  auto usage = ranges.usage(fast);

  std::vector<std::size_t> candidates;
  std::set<TensorId> candidateTensors;
  for (std::size_t r = 0; r < ranges.ranges().size(); ++r) {
    const auto& tensors = ranges.ranges()[r].tensors;
    const bool moved = std::any_of(tensors.begin(), tensors.end(),
                                   [&](TensorId tensor) { return state.movedFeatureMaps.contains(tensor); });
    if (moved) {
      candidates.push_back(r);
      candidateTensors.insert(tensors.begin(), tensors.end());
    }
  }
  const auto peak = usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end());
  if (peak <= limit) {
    return; // everything fits
  }
  const auto counts = accessCounts(context, placement, plan, candidateTensors);
  std::vector<double> scores(ranges.ranges().size(), 0.0);
  for (const std::size_t r : candidates) {
    scores[r] = counts.at(ranges.ranges()[r].tensors.front());
  }
  const auto selection = scheduling::selectFastStorageResidents(ranges.ranges(), std::move(usage), candidates, scores,
                                                                limit);
  for (const std::size_t r : selection.evicted) {
    for (const TensorId tensor : ranges.ranges()[r].tensors) {
      if (const auto it = state.movedFeatureMaps.find(tensor); it != state.movedFeatureMaps.end()) {
        placement.place(tensor, it->second);
      }
    }
  }
  for (const std::size_t r : selection.rememberedEvictions) {
    state.evictedFeatureMaps.push_back(ranges.ranges()[r]);
  }
  state.fits = selection.fits;
}

void applyPlan(const SchedulingContext& context, AppliedSchedule& schedule, std::int64_t limit,
               FastStorageState& state) {
  schedule.placement = withRollingBuffers(context, schedule.placement, schedule.plan);
  useFastStorageForFeatureMaps(context, schedule.placement, schedule.plan, limit, state);
}

void optimizeWeightBufferingSize(const SchedulingContext& context, AppliedSchedule& current, SchedulePlan& minSchedule,
                                 std::int64_t limit, FastStorageState& state, const NetworkEvaluator& evaluate) {
  const OperationPerformance before = evaluate(current.plan, current.placement);
  const double beforeTotal = before.cycle(CycleComponent::Total);
  const double beforeDram = before.cycle(CycleComponent::DramAccess);

  AppliedSchedule fallback = current;
  state.restore(current.placement);
  updateMemorySnapshot(context, current.placement, current.plan);
  // Weight buffers alive while an evicted feature map is: shrink them by its size.
  const auto ranges = planLiveRanges(context, current.placement, current.plan, fastStorageScope(context));
  std::vector<std::int64_t> evictedBytes(static_cast<std::size_t>(context.operationCount()), 0);
  for (const scheduling::TimedLiveRange& evicted : state.evictedFeatureMaps) {
    for (const scheduling::TimedLiveRange& range : ranges.ranges()) {
      if (range.weightBufferOperation >= 0 && evicted.overlaps(range)) {
        evictedBytes[static_cast<std::size_t>(range.weightBufferOperation)] += evicted.size;
      }
    }
  }

  updateMemorySnapshot(context, current.placement, minSchedule);
  AppliedSchedule candidate{proposeBuffering(context, current.placement, minSchedule, limit, evictedBytes),
                            current.placement};
  updateMemorySnapshot(context, candidate.placement, candidate.plan);
  applyPlan(context, candidate, limit, state);

  const OperationPerformance after = evaluate(candidate.plan, candidate.placement);
  const double improvementTotal =
      beforeTotal != 0.0 ? roundToHundredths((beforeTotal - after.cycle(CycleComponent::Total)) / beforeTotal) : 0.0;
  const double improvementDram =
      beforeDram != 0.0 ? roundToHundredths((beforeDram - after.cycle(CycleComponent::DramAccess)) / beforeDram) : 0.0;
  if (improvementTotal >= 0.0 && improvementDram > 0.0) {
    current = std::move(candidate);
    return;
  }
  // No better: back to the schedule before, re-applied from the restored homes.
  state.restore(candidate.placement);
  current = AppliedSchedule{std::move(fallback.plan), std::move(candidate.placement)};
  updateMemorySnapshot(context, current.placement, current.plan);
  applyPlan(context, current, limit, state);
}

} // namespace npu::cascade
