// SPDX-License-Identifier: Apache-2.0
#include "search_scheduler.hpp"

#include "costed_accelerator.hpp"
#include "feature_map_spilling.hpp"

#include "cascade_scheduler.hpp"
#include "dp_scheduler.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/report/report.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <set>

namespace npu::search {

namespace {

/// How one candidate schedule is made.
struct CandidateSpec {
  std::string name;
  std::function<Schedule(const ScheduleRequest&)> make;
  bool vela = false; ///< Vela 3.x's own schedule: its failure is the error the user sees
  /// Cascades with Vela's stripe search whose block configs all came from one choice (objective and
  /// rank; nullopt: the accelerator's own): a source of the per-operation mix.
  std::optional<std::optional<BlockChoice>> mixSource;
};

std::int64_t limitOf(const SearchOptions& options, const Accelerator& accelerator) {
  return options.sramLimit > 0 ? options.sramLimit : accelerator.memory().arenaCacheSize;
}

cascade::SchedulerOptions cascadeOptions(std::int64_t limit, cascade::StripeSearch search,
                                         cascade::OptimisationStrategy strategy) {
  cascade::SchedulerOptions options;
  options.sramLimit = limit;
  options.search = search;
  options.strategy = strategy;
  return options;
}

/// What every cascade candidate of a region shares: the scheduling graph and the encoded weights.
struct Shared {
  const cascade::SchedulingGraph& graph;
  const scheduling::WeightEncodingCache& weights;
  std::shared_ptr<const BlockRankingCache> rankings; ///< block configs ranked by cost
};

/// The cascade scheduler run against `accelerator` (the real one, or one with costed block configs).
CandidateSpec cascadeCandidate(std::string name, std::shared_ptr<const Accelerator> costed,
                               cascade::SchedulerOptions options, const Shared& shared) {
  return CandidateSpec{std::move(name),
                       [costed = std::move(costed), options, shared](const ScheduleRequest& request) {
                         const ScheduleRequest inner{request.graph, request.region,
                                                     costed ? *costed : request.accelerator, request.options,
                                                     request.progress};
                         return cascade::scheduleRegion(inner, options, shared.graph, shared.weights);
                       },
                       false, std::nullopt};
}

std::shared_ptr<const Accelerator> costedAccelerator(const Accelerator& base, const Shared& shared,
                                                     BlockObjective objective, int rank = 0) {
  return std::make_shared<const CostedAccelerator>(base, BlockChoice{objective, rank}, shared.rankings);
}

std::string objectiveName(BlockObjective objective) {
  switch (objective) {
  case BlockObjective::StoredWeights:
    return "costed blocks (stored weights)";
  case BlockObjective::BufferedWeights:
    return "costed blocks (buffered weights)";
  case BlockObjective::Compute:
    return "costed blocks (compute)";
  }
  return "costed blocks";
}

/// The first round: Vela's schedule first, then what may beat it.
std::vector<CandidateSpec> firstRound(const ScheduleRequest& request, const SearchOptions& options, std::int64_t limit,
                                      const Shared& shared) {
  using cascade::OptimisationStrategy;
  using cascade::StripeSearch;
  const auto performance = [&](StripeSearch search) {
    return cascadeOptions(limit, search, OptimisationStrategy::Performance);
  };
  std::vector<CandidateSpec> specs;
  specs.push_back(cascadeCandidate("cascade (Vela 3.x)", nullptr, performance(StripeSearch::Vela), shared));
  specs.front().vela = true;
  specs.front().mixSource.emplace(); // the accelerator's own choice
  if (options.exhaustiveStripes) {
    specs.push_back(
        cascadeCandidate("cascade, exhaustive stripes", nullptr, performance(StripeSearch::Exhaustive), shared));
  }
  const BlockObjective objectives[] = {BlockObjective::StoredWeights, BlockObjective::BufferedWeights,
                                       BlockObjective::Compute};
  for (int rank = 0; rank < std::clamp(options.blockRanks, 1, 4); ++rank) {
    for (const BlockObjective objective : objectives) {
      specs.push_back(cascadeCandidate(
          "cascade, " + objectiveName(objective) + (rank > 0 ? ", choice " + std::to_string(rank + 1) : ""),
          costedAccelerator(request.accelerator, shared, objective, rank), performance(StripeSearch::Vela), shared));
      specs.back().mixSource = BlockChoice{objective, rank};
    }
  }
  if (options.exhaustiveStripes) {
    for (const BlockObjective objective : {BlockObjective::StoredWeights, BlockObjective::BufferedWeights}) {
      specs.push_back(cascadeCandidate("cascade, exhaustive stripes, " + objectiveName(objective),
                                       costedAccelerator(request.accelerator, shared, objective),
                                       performance(StripeSearch::Exhaustive), shared));
    }
  }
  if (options.dynamicProgramming) {
    specs.push_back(CandidateSpec{"dynamic programming (Vela 2.1)",
                                  [limit](const ScheduleRequest& inner) {
                                    dp::DpOptions dpOptions;
                                    dpOptions.sramLimit = limit;
                                    return dp::scheduleRegion(inner, dpOptions);
                                  },
                                  false, std::nullopt});
  }
  return specs;
}

/// Block configs a round plans with: an accelerator (null: the real one, Vela's choice) and the suffix
/// of the candidate's name.
struct BlockSource {
  std::shared_ptr<const Accelerator> accelerator;
  std::string suffix;
};

/// Vela's block configs and the *compute* objective's: what the fitting and spilling rounds plan with.
std::vector<BlockSource> velaAndComputeBlocks(const ScheduleRequest& request, const Shared& shared) {
  return {BlockSource{nullptr, ""}, BlockSource{costedAccelerator(request.accelerator, shared, BlockObjective::Compute),
                                                ", " + objectiveName(BlockObjective::Compute)}};
}

/// A cascade candidate with a block source's configs, planned for `plannedLimit` bytes of SRAM.
CandidateSpec plannedCascade(const std::string& name, const BlockSource& source, std::int64_t plannedLimit,
                             cascade::OptimisationStrategy strategy, const Shared& shared) {
  return cascadeCandidate(name + source.suffix, source.accelerator,
                          cascadeOptions(plannedLimit, cascade::StripeSearch::Vela, strategy), shared);
}

/// The fitting round, when no first-round schedule fits: schedules planned for less SRAM than the
/// limit (smaller stripes, deeper cascades, less weight buffering) and optimised for size.
std::vector<CandidateSpec> fittingRound(const ScheduleRequest& request, std::int64_t limit, const Shared& shared) {
  std::vector<CandidateSpec> specs;
  for (const BlockSource& source : velaAndComputeBlocks(request, shared)) {
    for (const int eighths : {6, 4, 2, 1}) {
      specs.push_back(plannedCascade("cascade planned for " + std::to_string(eighths) + "/8 of the limit", source,
                                     limit * eighths / 8, cascade::OptimisationStrategy::Performance, shared));
    }
    specs.push_back(
        plannedCascade("cascade optimised for size", source, limit, cascade::OptimisationStrategy::Size, shared));
  }
  return specs;
}

/// The schedule `make` builds, with feature maps spilled to `spillArea` until it fits `limit`.
std::function<Schedule(const ScheduleRequest&)> spilled(std::function<Schedule(const ScheduleRequest&)> make,
                                                        std::int64_t limit, MemoryArea spillArea) {
  return [make = std::move(make), limit, spillArea](const ScheduleRequest& request) {
    std::optional<SpilledSchedule> result =
        spillToFit(request.graph, make(request), request.accelerator, limit, spillArea);
    if (!result) {
      throwCompileError("what cannot be spilled (rolling and weight buffers) exceeds the limit of " +
                            std::to_string(limit) + " bytes",
                        SourceLocation{request.graph.sourcePath, 0, 0, {}});
    }
    return std::move(result->schedule);
  };
}

/// The spilling round, when the fast storage is a memory of its own: schedules planned for more than
/// the limit (bigger stripes and cascades, more weight buffering, more feature maps in the fast storage),
/// then made to fit by spilling feature maps to the feature-map area by the fewest cycles added per byte.
std::vector<CandidateSpec> spillingRound(const ScheduleRequest& request, std::int64_t limit, MemoryArea spillArea,
                                         const Shared& shared) {
  std::vector<CandidateSpec> specs;
  for (const BlockSource& source : velaAndComputeBlocks(request, shared)) {
    for (const int times : {2, 4}) {
      CandidateSpec spec =
          plannedCascade("cascade planned for " + std::to_string(times) + "x the limit, feature maps spilled", source,
                         limit * times, cascade::OptimisationStrategy::Performance, shared);
      spec.make = spilled(std::move(spec.make), limit, spillArea);
      specs.push_back(std::move(spec));
    }
  }
  return specs;
}

/// When nothing fits: every schedule made, with feature maps spilled until it fits.
std::vector<CandidateSpec> spillFailures(const std::vector<CandidateResult>& results, std::int64_t limit,
                                         MemoryArea spillArea) {
  std::vector<CandidateSpec> specs;
  for (const CandidateResult& result : results) {
    if (result.schedule && !result.fits) {
      auto schedule = std::make_shared<const Schedule>(*result.schedule);
      specs.push_back(CandidateSpec{result.name + ", feature maps spilled",
                                    spilled([schedule](const ScheduleRequest&) { return *schedule; }, limit, spillArea),
                                    false, std::nullopt});
    }
  }
  return specs;
}

std::vector<CandidateResult> evaluate(const ScheduleRequest& request, const std::vector<CandidateSpec>& specs,
                                      std::int64_t limit, std::optional<Error>* velaError) {
  std::vector<CandidateResult> results(specs.size());
  const MemoryArea fast = request.accelerator.memory().fastStorageArea;
  tbb::parallel_for(std::size_t{0}, specs.size(), [&](std::size_t index) {
    const CandidateSpec& spec = specs[index];
    CandidateResult& result = results[index];
    result.name = spec.name;
    SilentProgress progress; // candidates run at once; only the search reports progress
    const ScheduleRequest inner{request.graph, request.region, request.accelerator, request.options, progress};
    try {
      result.schedule = spec.make(inner);
    } catch (const Error& error) {
      if (spec.vela && velaError != nullptr) {
        *velaError = error;
      }
      result.failure = error.message();
      return;
    } catch (const std::exception& error) {
      if (spec.vela) {
        throw; // Vela's own schedule failing unexpectedly is a bug to report, not a candidate to skip
      }
      result.failure = error.what();
      return;
    }
    // Judged as the report will judge it (the allocation does not change the estimate).
    const NetworkReport report =
        evaluateNetwork(request.graph, {*result.schedule}, {Allocation{}}, request.accelerator);
    result.cycles = report.total.cycle(CycleComponent::Total);
    for (const LayerReport& layer : report.layers) {
      result.operationCycles.emplace_back(layer.op, layer.performance.cycle(CycleComponent::Total));
    }
    const auto usage = scheduling::usageOverTime(*result.schedule, fast);
    result.fastStoragePeak = usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end());
    result.fits = result.fastStoragePeak <= limit;
  });
  return results;
}

using ChoiceMap = std::map<const Operation*, std::optional<BlockChoice>>;

/// Each operation's block choice from the source whose schedule ran it fastest, among the sources of
/// rank at most `maxRank`; nullopt when every operation prefers the same source (that schedule is
/// already a candidate).
std::optional<ChoiceMap> mixOf(const ScheduleRequest& request, const std::vector<CandidateSpec>& specs,
                               const std::vector<CandidateResult>& results, int maxRank) {
  std::map<OperationId, std::pair<double, std::optional<BlockChoice>>> best;
  for (std::size_t index = 0; index < specs.size(); ++index) {
    const auto& source = specs[index].mixSource;
    if (!source || (*source && (*source)->rank > maxRank) || !results[index].schedule || !results[index].fits) {
      continue;
    }
    for (const auto& [op, cycles] : results[index].operationCycles) {
      const auto [found, inserted] = best.try_emplace(op, cycles, *source);
      if (!inserted && cycles < found->second.first) {
        found->second = {cycles, *source};
      }
    }
  }
  std::set<std::optional<BlockChoice>> sources;
  for (const auto& [op, choice] : best) {
    sources.insert(choice.second);
  }
  if (sources.size() < 2) {
    return std::nullopt;
  }
  const Subgraph& subgraph = request.graph.subgraphs.at(static_cast<std::size_t>(request.region.subgraph));
  ChoiceMap choices;
  for (const auto& [op, choice] : best) {
    choices.emplace(&subgraph.operation(op), choice.second);
  }
  return choices;
}

/// The local improvement round: each operation takes its block configs from the source (an objective
/// and rank, or Vela's heuristic) whose schedule ran it fastest, judged per layer by the report's
/// evaluation (blocks mostly change only their own operation's cycles). One cascade schedule for the
/// mix of the cheapest choices and one for the mix of all ranks (the interactions differ, so neither
/// always wins), each also with the exhaustive stripe search when enabled.
std::vector<CandidateSpec> mixingRound(const ScheduleRequest& request, const SearchOptions& options, std::int64_t limit,
                                       const std::vector<CandidateSpec>& specs,
                                       const std::vector<CandidateResult>& results, const Shared& shared) {
  using cascade::OptimisationStrategy;
  using cascade::StripeSearch;
  std::vector<CandidateSpec> round;
  std::vector<ChoiceMap> seen;
  for (const int maxRank : {0, std::clamp(options.blockRanks, 1, 4) - 1}) {
    std::optional<ChoiceMap> choices = mixOf(request, specs, results, maxRank);
    if (!choices || std::find(seen.begin(), seen.end(), *choices) != seen.end()) {
      continue;
    }
    seen.push_back(*choices);
    auto choiceOf = std::make_shared<const ChoiceMap>(std::move(*choices));
    const auto mixed = std::make_shared<const CostedAccelerator>(
        request.accelerator,
        [choiceOf](const Operation& op) -> std::optional<BlockChoice> {
          const auto found = choiceOf->find(&op);
          return found == choiceOf->end() ? std::nullopt : found->second;
        },
        shared.rankings);
    const std::string name =
        maxRank == 0 ? "block configs mixed per operation" : "block configs mixed per operation, all choices";
    round.push_back(cascadeCandidate("cascade, " + name, mixed,
                                     cascadeOptions(limit, StripeSearch::Vela, OptimisationStrategy::Performance),
                                     shared));
    if (options.exhaustiveStripes) {
      round.push_back(
          cascadeCandidate("cascade, exhaustive stripes, " + name, mixed,
                           cascadeOptions(limit, StripeSearch::Exhaustive, OptimisationStrategy::Performance), shared));
    }
  }
  return round;
}

bool anyFits(const std::vector<CandidateResult>& results) {
  return std::any_of(results.begin(), results.end(), [](const CandidateResult& r) { return r.schedule && r.fits; });
}

std::vector<CandidateResult> search(const ScheduleRequest& request, const SearchOptions& options,
                                    std::optional<Error>* velaError) {
  const std::int64_t limit = limitOf(options, request.accelerator);
  const cascade::SchedulingGraph graph(request.graph, request.region, request.accelerator);
  const scheduling::WeightEncodingCache weights(request.accelerator);
  const Shared shared{graph, weights, std::make_shared<const BlockRankingCache>()};
  const std::vector<CandidateSpec> specs = firstRound(request, options, limit, shared);
  std::vector<CandidateResult> results = evaluate(request, specs, limit, velaError);
  if (anyFits(results)) {
    auto mixed = evaluate(request, mixingRound(request, options, limit, specs, results, shared), limit, nullptr);
    results.insert(results.end(), std::make_move_iterator(mixed.begin()), std::make_move_iterator(mixed.end()));
  } else {
    auto fitting = evaluate(request, fittingRound(request, limit, shared), limit, nullptr);
    results.insert(results.end(), std::make_move_iterator(fitting.begin()), std::make_move_iterator(fitting.end()));
  }
  const std::optional<MemoryArea> spillArea = spillAreaOf(request.accelerator.memory());
  if (options.spill && spillArea) {
    std::vector<CandidateSpec> round = spillingRound(request, limit, *spillArea, shared);
    if (!anyFits(results)) {
      std::vector<CandidateSpec> failures = spillFailures(results, limit, *spillArea);
      round.insert(round.end(), std::make_move_iterator(failures.begin()), std::make_move_iterator(failures.end()));
    }
    auto spilledResults = evaluate(request, round, limit, nullptr);
    results.insert(results.end(), std::make_move_iterator(spilledResults.begin()),
                   std::make_move_iterator(spilledResults.end()));
  }
  return results;
}

/// Why no feature map was spilled to make room, for the error when nothing fits.
std::string spillingNote(const MemorySystem& memory, const SearchOptions& options) {
  if (!options.spill) {
    return "; spilling feature maps is off (scheduler option spill)";
  }
  if (spillAreaOf(memory)) {
    return "; feature maps spilled to " + std::string(displayNameOf(memory.featureMapArea)) +
           " where they could be (what stays is rolling, weight and scales buffers)";
  }
  return "; no feature map can be spilled: they live in the " + std::string(displayNameOf(memory.fastStorageArea)) +
         " itself and the memory mode" + (memory.memoryMode.empty() ? "" : " " + memory.memoryMode) +
         " has no other writable working memory (a memory mode with a separate fast storage, such as "
         "Dedicated_Sram, keeps feature maps in DRAM and the SRAM as a cache)";
}

} // namespace

std::vector<CandidateResult> searchCandidates(const ScheduleRequest& request, const SearchOptions& options) {
  return search(request, options, nullptr);
}

std::optional<std::size_t> chooseCandidate(const std::vector<CandidateResult>& candidates) {
  std::optional<std::size_t> best;
  for (std::size_t index = 0; index < candidates.size(); ++index) {
    const CandidateResult& candidate = candidates[index];
    if (candidate.schedule && candidate.fits && (!best || candidate.cycles < candidates[*best].cycles)) {
      best = index;
    }
  }
  if (!best && !candidates.empty() && candidates.front().schedule) {
    best = 0; // what Vela does when the memory mode lets the schedule overflow the limit, with a warning
  }
  return best;
}

Schedule scheduleRegion(const ScheduleRequest& request, const SearchOptions& options) {
  request.progress.begin("searching schedules", 1);
  std::optional<Error> velaError;
  std::vector<CandidateResult> candidates = search(request, options, &velaError);
  const std::optional<std::size_t> chosen = chooseCandidate(candidates);
  request.progress.advance(1);
  request.progress.end();
  if (chosen) {
    return std::move(*candidates[*chosen].schedule);
  }
  const std::int64_t limit = limitOf(options, request.accelerator);
  std::int64_t smallest = 0;
  for (const CandidateResult& candidate : candidates) {
    if (candidate.schedule && (smallest == 0 || candidate.fastStoragePeak < smallest)) {
      smallest = candidate.fastStoragePeak;
    }
  }
  const std::string tried =
      "none of the " + std::to_string(candidates.size()) +
      " schedules the search tried (smaller stripes, deeper cascades, less weight "
      "buffering, optimised for size) fits the limit of " +
      std::to_string(limit) + " bytes" +
      (smallest > 0 ? "; the smallest of them needs " + std::to_string(smallest) + " bytes" : "") +
      spillingNote(request.accelerator.memory(), options);
  if (velaError) {
    throwCompileError(velaError->message() + "; " + tried, velaError->location(), velaError->hint());
  }
  throwCompileError(tried, SourceLocation{request.graph.sourcePath, 0, 0, {}},
                    "raise the SRAM limit (the scheduler's sram_limit or the accelerator's arena_cache_size)");
}

std::vector<OptionSpec> optionSpecs() {
  return {
      {"sram_limit",
       OptionType::Bytes,
       "0",
       "bytes of fast storage the schedule may use; 0 takes the accelerator's arena cache size",
       {},
       false},
      {"dynamic_programming",
       OptionType::Boolean,
       "false",
       "the dynamic-programming scheduler's schedule (Vela 2.1) is one of the candidates (off by default: "
       "some of its schedules are rejected by codegen_ethosu's checker, as with scheduler_dp itself)",
       {},
       false},
      {"block_ranks",
       OptionType::Integer,
       "2",
       "schedules per block-config objective: with the cheapest block configs, the second cheapest, ... "
       "(1 to 4); the per-operation improvement round picks among them",
       {},
       false},
      {"exhaustive_stripes",
       OptionType::Boolean,
       "false",
       "candidates with every stripe height of each cascade evaluated, besides Vela's stripe scan (the cascade "
       "scheduler's search: exhaustive; off by default: it rarely wins and costs compile time)",
       {},
       false},
      {"spill",
       OptionType::Boolean,
       "true",
       "when the fast storage is a memory of its own (Dedicated_Sram): candidates planned for 2x and 4x the limit "
       "made to fit by spilling feature maps to the feature-map area, fewest cycles added per byte first",
       {},
       false},
  };
}

SearchOptions readOptions(const OptionValues& values) {
  SearchOptions options;
  if (values.has("sram_limit")) {
    options.sramLimit = values.getInt("sram_limit");
  }
  if (values.has("dynamic_programming")) {
    options.dynamicProgramming = values.getBool("dynamic_programming");
  }
  if (values.has("block_ranks")) {
    const std::int64_t ranks = values.getInt("block_ranks");
    if (ranks < 1 || ranks > 4) {
      throwConfigError("scheduler_search: block_ranks must be 1 to 4, not " + std::to_string(ranks), {},
                       "1 gives one schedule per block-config objective, 2 (the default) two");
    }
    options.blockRanks = static_cast<int>(ranks);
  }
  if (values.has("exhaustive_stripes")) {
    options.exhaustiveStripes = values.getBool("exhaustive_stripes");
  }
  if (values.has("spill")) {
    options.spill = values.getBool("spill");
  }
  return options;
}

} // namespace npu::search
