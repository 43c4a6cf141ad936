// SPDX-License-Identifier: Apache-2.0
#pragma once
// Homing the feature maps once the schedule is chosen: OFMs outside cascades move into the fast storage
// as far as it has room, chosen by how often they are accessed (Vela:
// Scheduler.use_fast_storage_for_feature_maps); and when some had to be evicted, smaller weight buffers
// are tried to make room for them (Vela: Scheduler.optimize_weight_buffering_size).

#include "schedule_plan.hpp"

#include <functional>
#include <map>
#include <vector>

namespace npu::cascade {

/// What Vela remembers between its fast-storage passes.
struct FastStorageState {
  /// Feature maps moved into the fast storage, with where they lived before (Vela: scratched_fms).
  std::map<TensorId, scheduling::Placement> movedFeatureMaps;
  /// Live ranges of the feature maps evicted again by the last pass (Vela: evicted_fms).
  std::vector<scheduling::TimedLiveRange> evictedFeatureMaps;
  /// Whether the last pass got the fast storage within its limit.
  bool fits = true;

  /// Puts every moved feature map back where it lived before.
  void restore(TensorPlacement& placement) const;
};

/// Moves the OFMs of operations outside cascades into the fast storage, evicting the least accessed
/// where they do not fit within `limit`.
void useFastStorageForFeatureMaps(const SchedulingContext& context, TensorPlacement& placement,
                                  const SchedulePlan& plan, std::int64_t limit, FastStorageState& state);

/// Network figures of a complete plan with its tensors homed as `placement` says.
using NetworkEvaluator = std::function<OperationPerformance(const SchedulePlan&, const TensorPlacement&)>;

/// Everything a final schedule consists of.
struct AppliedSchedule {
  SchedulePlan plan;
  TensorPlacement placement;
};

/// Vela's optimize_weight_buffering_size: re-proposes weight buffering on `minSchedule` with buffers
/// shrunk by the feature maps evicted beside them, and keeps the result only when it lowers both the
/// total and the DRAM cycles. `current` is the schedule so far (updated when the new one wins).
void optimizeWeightBufferingSize(const SchedulingContext& context, AppliedSchedule& current, SchedulePlan& minSchedule,
                                 std::int64_t limit, FastStorageState& state, const NetworkEvaluator& evaluate);

/// Applies a plan: rolling buffers into the fast storage, then the fast-storage pass (Vela:
/// apply_schedule followed by use_fast_storage_for_feature_maps).
void applyPlan(const SchedulingContext& context, AppliedSchedule& schedule, std::int64_t limit,
               FastStorageState& state);

} // namespace npu::cascade
