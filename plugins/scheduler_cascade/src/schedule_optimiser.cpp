// SPDX-License-Identifier: Apache-2.0
#include "schedule_optimiser.hpp"

#include "cascade_builder.hpp"
#include "memory_snapshot.hpp"
#include "parallel.hpp"
#include "plan_factory.hpp"
#include "weight_buffering.hpp"

#include <algorithm>
#include <limits>

namespace npu::cascade {

namespace {

/// One stripe height proposed for a cascade's last operation, built and measured.
struct Proposal {
  int height = 0;
  SchedulePlan plan;
  std::int64_t memoryUsage = 0;
  std::size_t cascadeCount = 0;
  double cycles = 0.0;
};

/// Everything the proposals of one cascade share.
struct SubScheduleSearch {
  const SchedulingContext& context;
  const TensorPlacement& placement;
  const SchedulePlan& buffered; ///< the cascade's operations with weight buffering proposed
  const SchedulePlan& maxTemplate;
  const CascadeBuilder& builder;
  const std::map<int, std::int64_t>& nonLocalUsage;
  std::int64_t memoryLimit;
  Shape4 finalOfm;

  [[nodiscard]] Proposal propose(int height, std::size_t iteration, const PlanEvaluator* evaluate) const {
    Proposal proposal;
    proposal.height = height;
    proposal.plan = stripedSchedule(context, placement, finalOfm.withHeight(height),
                                    "OPTIMIZED_" + std::to_string(iteration), buffered);
    builder.build(proposal.plan, maxTemplate, memoryLimit);
    proposal.cascadeCount = proposal.plan.cascades.size();
    proposal.memoryUsage = estimateMemoryUsage(context, proposal.plan, nonLocalUsage);
    if (evaluate != nullptr && proposal.memoryUsage <= memoryLimit) {
      proposal.cycles = (*evaluate)(proposal.plan);
    }
    return proposal;
  }
};

/// Vela's scan: taller stripes while they fit and do not split the cascade; stop at the first that does
/// not. Proposals are built in parallel a batch at a time and read in order, so the result is the scan's.
std::optional<SchedulePlan> scanLikeVela(const SubScheduleSearch& search, int firstHeight, int lastHeight) {
  constexpr int kBatch = 8;
  std::optional<SchedulePlan> best;
  std::size_t maxCascades = 0;
  for (int batchStart = firstHeight; batchStart <= lastHeight; batchStart += kBatch) {
    const int batchEnd = std::min(lastHeight, batchStart + kBatch - 1);
    auto proposals = parallelMap(static_cast<std::size_t>(batchEnd - batchStart + 1), [&](std::size_t i) {
      const int height = batchStart + static_cast<int>(i);
      return search.propose(height, static_cast<std::size_t>(height - firstHeight), nullptr);
    });
    for (Proposal& proposal : proposals) {
      if (proposal.height == firstHeight) {
        // Longer cascades save feature map traffic: later proposals may not split the first one's.
        maxCascades = proposal.cascadeCount;
      }
      if (proposal.memoryUsage > search.memoryLimit || proposal.cascadeCount > maxCascades) {
        return best;
      }
      const bool noCascades = proposal.plan.cascades.empty();
      best = std::move(proposal.plan);
      if (noCascades) {
        return best; // nothing left to cascade: the operations run whole
      }
    }
  }
  return best;
}

/// Every height evaluated; the fewest cycles that fit wins (ties: the taller stripe).
std::optional<SchedulePlan> searchExhaustively(const SubScheduleSearch& search, int firstHeight, int lastHeight,
                                               const PlanEvaluator& evaluate) {
  if (lastHeight < firstHeight) {
    return std::nullopt;
  }
  auto proposals = parallelMap(static_cast<std::size_t>(lastHeight - firstHeight + 1), [&](std::size_t i) {
    return search.propose(firstHeight + static_cast<int>(i), i, &evaluate);
  });
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < proposals.size(); ++i) {
    if (proposals[i].memoryUsage > search.memoryLimit) {
      continue;
    }
    if (!best || proposals[i].cycles <= proposals[*best].cycles) {
      best = i;
    }
  }
  if (!best) {
    return std::nullopt;
  }
  return std::move(proposals[*best].plan);
}

} // namespace

std::int64_t estimateMemoryUsage(const SchedulingContext& context, const SchedulePlan& plan,
                                 const std::map<int, std::int64_t>& nonLocalUsage) {
  std::int64_t peak = 0;
  for (const SchedulingOperation& op : context.operations.operations()) {
    if (!plan.covers(op.index)) {
      continue;
    }
    const auto nonLocal = nonLocalUsage.find(op.index);
    const std::int64_t beside = nonLocal == nonLocalUsage.end() ? 0 : nonLocal->second;
    const OperationPlan& opPlan = plan.at(op.index);
    std::int64_t usage = 0;
    if (opPlan.cascade != 0) {
      usage = plan.cascades.at(opPlan.cascade).memoryUsage + beside;
    } else {
      usage = op.ifm.bytes + op.ofm.bytes + opPlan.bufferedWeightBytes() + beside;
    }
    peak = std::max(peak, usage);
  }
  return peak;
}

std::optional<SchedulePlan> optimizeSubSchedule(const SchedulingContext& context, const TensorPlacement& placement,
                                                const CascadeSpan& cascade, const SchedulePlan& reference,
                                                const SchedulePlan& maxTemplate, std::int64_t memoryLimit,
                                                const PlanEvaluator& evaluate) {
  const SchedulingGraph& graph = context.operations;
  SchedulePlan sub("SUB_" + std::to_string(cascade.start) + "_" + std::to_string(cascade.end),
                   context.operationCount());
  std::vector<int> members;
  for (int index = cascade.start; index <= cascade.end; ++index) {
    sub.set(index, reference.at(index));
    members.push_back(index);
  }
  sub.cascades.emplace(cascade.end, cascade);
  sub.memorySnapshot = reference.memorySnapshot;

  // Memory live during the cascade that it does not own; an IFM read by others lives throughout.
  const std::int64_t beside = reference.snapshotAt(reference.at(cascade.start).timeIndex) - cascade.memoryUsage;
  const SchedulingOperation& first = graph.operation(cascade.start);
  const std::int64_t persistentIfm = !context.spilling() && first.ifmConsumerCount > 1 ? first.ifm.bytes : 0;
  std::map<int, std::int64_t> nonLocalUsage;
  for (const int index : members) {
    nonLocalUsage[index] = beside + (index != cascade.start ? persistentIfm : 0);
  }
  const CascadeBuilder builder(context, members, nonLocalUsage);
  const SchedulePlan buffered = proposeBuffering(context, placement, sub, memoryLimit);

  const Shape4 finalOfm = graph.operation(cascade.end).ofm.shape;
  // The MIN schedule's stripe is what remains when nothing better fits: start one row above it.
  const int firstHeight = sub.at(cascade.end).ofmStripe.height + 1;
  const SubScheduleSearch search{context, placement, buffered, maxTemplate, builder, nonLocalUsage, memoryLimit,
                                 finalOfm};
  if (context.options.search == StripeSearch::Exhaustive) {
    return searchExhaustively(search, firstHeight, finalOfm.height - 1, evaluate);
  }
  return scanLikeVela(search, firstHeight, finalOfm.height / 2);
}

SchedulePlan optimizeSchedule(const SchedulingContext& context, const TensorPlacement& placement,
                              SchedulePlan& schedule, const SchedulePlan& maxSchedule, const SchedulePlan& maxTemplate,
                              std::int64_t memoryLimit, const PlanEvaluator& evaluate) {
  if (maxSchedule.fastStoragePeak < memoryLimit && !context.spilling()) {
    return maxSchedule; // the fastest schedule fits as it is
  }
  std::vector<CascadeSpan> cascades;
  for (const auto& [end, cascade] : schedule.cascades) {
    cascades.push_back(cascade);
  }
  // Cascades own disjoint operations and step times: they are optimised independently.
  auto optimised = parallelMap(cascades.size(), [&](std::size_t i) {
    return optimizeSubSchedule(context, placement, cascades[i], schedule, maxTemplate, memoryLimit, evaluate);
  });
  for (std::size_t i = 0; i < cascades.size(); ++i) {
    if (!optimised[i]) {
      continue;
    }
    schedule.cascades.erase(cascades[i].end);
    for (int index = cascades[i].start; index <= cascades[i].end; ++index) {
      schedule.set(index, optimised[i]->at(index));
    }
    for (const auto& [end, cascade] : optimised[i]->cascades) {
      schedule.cascades.insert_or_assign(end, cascade);
    }
  }
  updateMemorySnapshot(context, placement, schedule);
  return proposeBuffering(context, placement, schedule, memoryLimit);
}

} // namespace npu::cascade
