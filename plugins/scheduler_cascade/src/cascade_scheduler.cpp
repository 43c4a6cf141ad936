// SPDX-License-Identifier: Apache-2.0
#include "cascade_scheduler.hpp"

#include "cascade_builder.hpp"
#include "feature_map_homing.hpp"
#include "memory_snapshot.hpp"
#include "parallel.hpp"
#include "plan_factory.hpp"
#include "schedule_optimiser.hpp"
#include "schedule_output.hpp"
#include "weight_buffering.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/ir/graph_algorithms.hpp"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <exception>
#include <optional>

namespace npu::cascade {

namespace {

constexpr std::int64_t kUnlimited = std::int64_t{1} << 32; // Vela's limit for the MAX schedule's buffering

/// Vela names NPU subgraphs "<subgraph>_split_<n>", counting the NPU runs of the subgraph.
std::string regionName(const SchedulingContext& context) {
  const OperationId first = context.operations.region().operations.front();
  int split = 0;
  for (const auto& run : partitionByPlacement(context.subgraph())) {
    if (run.placement == Placement::Npu && !run.operations.empty() && run.operations.front() <= first) {
      ++split;
    }
  }
  return context.subgraph().name + "_split_" + std::to_string(split);
}

SourceLocation locationOf(const SchedulingContext& context, int index) {
  return SourceLocation{context.graph.sourcePath, 0, 0, context.operations.describe(index)};
}

/// Fails early when one operation alone needs more than the limit for feature maps that must be whole.
void requireMinimumFits(const SchedulingContext& context) {
  const SchedulingGraph& graph = context.operations;
  if (context.spilling() || context.options.strategy == OptimisationStrategy::Size ||
      context.memory().warnOnFastStorageOverflow || graph.minimumMemoryRequirement() <= context.options.sramLimit) {
    return;
  }
  const int index = graph.minimumMemoryOperation();
  const SchedulingOperation& op = graph.operation(index);
  std::string whole;
  const auto add = [&](bool full, const scheduling::FeatureMapOperand& operand, const char* role) {
    if (full && operand.present()) {
      whole += std::string(whole.empty() ? "" : ", ") + role + " '" + context.subgraph().tensor(operand.tensor).name +
               "' (" + std::to_string(operand.bytes) + " bytes)";
    }
  };
  add(op.requiresFullIfm, op.ifm, "IFM");
  add(op.requiresFullIfm2, op.ifm2, "IFM2");
  add(op.requiresFullOfm, op.ofm, "OFM");
  throwCompileError("needs " + std::to_string(graph.minimumMemoryRequirement()) + " bytes of " +
                        std::string(displayNameOf(context.memory().fastStorageArea)) + " for its whole " + whole +
                        " but the limit is " + std::to_string(context.options.sramLimit) + " bytes",
                    locationOf(context, index),
                    "raise the SRAM limit (the scheduler's sram_limit or the accelerator's arena_cache_size) or "
                    "use a memory mode where feature maps live outside the SRAM");
}

/// Vela: build_cascades_for_min_schedule. What lives beside each operation is what the snapshot shows
/// minus the operation's own IFM and OFM.
void buildCascadesForMinSchedule(const SchedulingContext& context, const TensorPlacement& placement,
                                 SchedulePlan& minSchedule, const SchedulePlan& maxTemplate, std::int64_t limit) {
  updateMemorySnapshot(context, placement, minSchedule);
  std::map<int, std::int64_t> nonLocalUsage;
  std::vector<int> members;
  for (const SchedulingOperation& op : context.operations.operations()) {
    std::int64_t own = 0;
    if (!context.spilling()) {
      const bool ifmScratch = placement.of(op.ifm.tensor).residency != scheduling::Residency::Permanent;
      const bool ofmOverIfm = scheduling::inputOverwrittenByOfm(context.operations, op.index).has_value();
      own = (ifmScratch ? op.ifm.bytes : 0) + (ofmOverIfm ? 0 : op.ofm.bytes);
    }
    nonLocalUsage[op.index] = minSchedule.snapshotAt(minSchedule.at(op.index).timeIndex) - own;
    members.push_back(op.index);
  }
  CascadeBuilder(context, members, nonLocalUsage).build(minSchedule, maxTemplate, limit);
}

/// When the final schedule still does not fit, weights are read from where they are stored instead of
/// being buffered (Vela would crash or only warn); if even that does not fit, the error names the
/// operation live at the peak.
void requireFits(const SchedulingContext& context, AppliedSchedule& applied, Schedule& schedule,
                 const std::string& label) {
  const MemoryArea fast = context.memory().fastStorageArea;
  const std::int64_t limit = context.options.sramLimit;
  const auto peakOf = [&](const Schedule& s) {
    const auto usage = scheduling::usageOverTime(s, fast);
    return usage.empty() ? std::pair<std::int64_t, std::size_t>{0, 0}
                         : std::pair<std::int64_t, std::size_t>{
                               *std::max_element(usage.begin(), usage.end()),
                               static_cast<std::size_t>(std::max_element(usage.begin(), usage.end()) - usage.begin())};
  };
  if (context.options.strategy == OptimisationStrategy::Size || peakOf(schedule).first <= limit ||
      context.memory().warnOnFastStorageOverflow) { // Vela's schedule as it is; the framework warns
    return;
  }
  AppliedSchedule unbuffered = applied;
  for (auto& op : unbuffered.plan.operations) {
    if (op && !op->bufferedWeights.empty()) {
      op->bufferedWeights.clear();
      const int fullDepth[] = {0, op->ofmStripe.depth};
      op->depthSlices.assign(std::begin(fullDepth), std::end(fullDepth));
      op->fullWeightTransferCycles = 0.0;
    }
  }
  for (int index = 0; index < context.operationCount(); ++index) {
    OperationPlan& op = unbuffered.plan.at(index);
    if (op.weights) {
      op.weights = context.weightCache.encode(context.subgraph(), context.operations.operation(index).id, op.block,
                                              op.depthSlices);
    }
  }
  Schedule candidate = toSchedule(context, unbuffered.placement, unbuffered.plan, label, true);
  const auto [peak, time] = peakOf(candidate);
  if (peak <= limit) {
    applied = std::move(unbuffered);
    schedule = std::move(candidate);
    return;
  }
  const OperationId op = candidate.operations[candidate.operationAt(static_cast<std::int64_t>(time))].op;
  throwCompileError("needs " + std::to_string(peak) + " bytes of " + std::string(displayNameOf(fast)) +
                        " live at once but the limit is " + std::to_string(limit) + " bytes",
                    SourceLocation{context.graph.sourcePath, 0, 0, context.subgraph().describe(op)},
                    "raise the SRAM limit (the scheduler's sram_limit or the accelerator's arena_cache_size)");
}

/// One run of Vela's schedule_passes for the region with the given options.
Schedule scheduleWith(const ScheduleRequest& request, const SchedulerOptions& options, const SchedulingGraph& graph,
                      const scheduling::WeightEncodingCache& weightCache) {
  SchedulingContext context{request.graph, graph, request.accelerator, weightCache, options};
  const TensorPlacement initialPlacement(graph.subgraph(), request.accelerator.memory());
  const std::string name = regionName(context);
  requireMinimumFits(context);

  // A partial plan's cycles, counted by the framework's evaluation, for the exhaustive stripe search.
  const PlanEvaluator evaluatePlan = [&](const SchedulePlan& plan) {
    const TensorPlacement placement = withRollingBuffers(context, initialPlacement, plan);
    const Schedule partial = toSchedule(context, placement, plan, name, false);
    return scheduling::evaluateSchedule(request.graph, partial, request.accelerator).cycle(CycleComponent::Total);
  };
  const NetworkEvaluator evaluateNetwork = [&](const SchedulePlan& plan, const TensorPlacement& placement) {
    return scheduling::evaluateSchedule(request.graph, toSchedule(context, placement, plan, name, false),
                                        request.accelerator);
  };

  request.progress.begin("scheduling " + name, 5);
  // The MAX and MIN schedules are independent, and so are the MAX schedule's buffering and the MIN
  // schedule's cascades: each pair runs side by side (the results do not depend on it).
  // Named variables, not a structured binding: the lambdas below capture them (clang 14 cannot).
  std::pair<SchedulePlan, SchedulePlan> plans = maxAndMinimalSchedules(context, initialPlacement);
  SchedulePlan& maxTemplate = plans.first;
  SchedulePlan& minSchedule = plans.second;
  updateMemorySnapshot(context, initialPlacement, maxTemplate);
  SchedulePlan optimisedMax;
  const bool forSize = options.strategy == OptimisationStrategy::Size;
  const std::int64_t cascadeLimit = forSize ? graph.minimumMemoryRequirement() : options.sramLimit;
  invokeBoth(
      [&] {
        optimisedMax = proposeBuffering(context, initialPlacement, maxTemplate, kUnlimited);
        updateMemorySnapshot(context, initialPlacement, optimisedMax);
      },
      [&] {
        buildCascadesForMinSchedule(context, initialPlacement, minSchedule, maxTemplate, cascadeLimit);
        updateMemorySnapshot(context, initialPlacement, minSchedule);
      });
  request.progress.advance(2);

  // Optimising for size: the MIN schedule's peak becomes the limit the optimisation keeps to.
  const std::int64_t workingLimit = forSize ? minSchedule.fastStoragePeak : options.sramLimit;
  SchedulePlan optimised =
      optimizeSchedule(context, initialPlacement, minSchedule, optimisedMax, maxTemplate, workingLimit, evaluatePlan);
  updateMemorySnapshot(context, initialPlacement, optimised);
  request.progress.advance(1);

  AppliedSchedule applied{std::move(optimised), initialPlacement};
  FastStorageState fastStorage;
  applyPlan(context, applied, workingLimit, fastStorage);
  if (!fastStorage.fits && context.memory().warnOnFastStorageOverflow) {
    // What Vela 3.10 cannot do either (scheduler.use_fast_storage_for_feature_maps asserts "Allocation
    // exceeds staging limit"): the feature maps that must stay in fast storage alone exceed the limit.
    throwCompileError("the feature maps that must stay in " +
                          std::string(displayNameOf(context.memory().fastStorageArea)) + " exceed the limit of " +
                          std::to_string(workingLimit) + " bytes even with warnings allowed",
                      SourceLocation{context.graph.sourcePath, 0, 0, name},
                      "raise the arena cache size (accelerator.arena_cache_size)");
  }
  if (!forSize && !fastStorage.evictedFeatureMaps.empty()) {
    optimizeWeightBufferingSize(context, applied, minSchedule, workingLimit, fastStorage, evaluateNetwork);
  }
  request.progress.advance(1);

  const std::string label = name + "_" + applied.plan.label;
  Schedule schedule = toSchedule(context, applied.placement, applied.plan, label, true);
  requireFits(context, applied, schedule, label);
  scheduling::requireValidSchedule(schedule, graph.subgraph(), request.accelerator.memory().fastStorageArea, 0);
  request.progress.advance(1);
  request.progress.end();
  return schedule;
}

} // namespace

Schedule scheduleRegion(const ScheduleRequest& request, const SchedulerOptions& options) {
  const SchedulingGraph graph(request.graph, request.region, request.accelerator);
  const scheduling::WeightEncodingCache weightCache(request.accelerator);
  return scheduleRegion(request, options, graph, weightCache);
}

Schedule scheduleRegion(const ScheduleRequest& request, const SchedulerOptions& options, const SchedulingGraph& graph,
                        const scheduling::WeightEncodingCache& weightCache) {
  if (options.search != StripeSearch::Exhaustive) {
    return scheduleWith(request, options, graph, weightCache);
  }
  // The exhaustive search judges stripes one cascade at a time; the whole schedule it leads to is kept
  // only when it is faster than Vela's, so it never does worse.
  SchedulerOptions velaOptions = options;
  velaOptions.search = StripeSearch::Vela;
  std::optional<Schedule> vela;
  std::optional<Schedule> exhaustive;
  // Neither run may throw out of parallel_invoke: an exception there cancels the other run's task
  // group, whose nested parallel loops would then return with iterations never run. Each run's error
  // is kept, and Vela's is reported first whichever finished first.
  std::exception_ptr errors[2];
  const auto capture = [](std::exception_ptr& error, auto&& run) {
    try {
      run();
    } catch (...) {
      error = std::current_exception();
    }
  };
  tbb::parallel_invoke(
      [&] { capture(errors[0], [&] { vela = scheduleWith(request, velaOptions, graph, weightCache); }); },
      [&] { capture(errors[1], [&] { exhaustive = scheduleWith(request, options, graph, weightCache); }); });
  for (const std::exception_ptr& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
  const auto cycles = [&](const Schedule& schedule) {
    return scheduling::evaluateSchedule(request.graph, schedule, request.accelerator).cycle(CycleComponent::Total);
  };
  return cycles(*exhaustive) < cycles(*vela) ? std::move(*exhaustive) : std::move(*vela);
}

} // namespace npu::cascade
