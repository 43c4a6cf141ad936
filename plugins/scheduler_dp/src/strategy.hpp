#pragma once
// The values the dynamic-programming search combines (Vela 2.1 scheduler.Strategy / StrategySet):
// a strategy is one cascaded pass (a run of passes streamed one way), a strategy set the finished
// cascaded passes of part of the graph with their summed figures. Both are immutable once built and
// shared between candidates, so the search copies pointers, not passes.

#include "npu/plugin/performance.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace npu::dp {

/// Bandwidth, MACs and cycles of a pass or of several summed (Vela's bws, macs, cycles arrays).
using Metrics = OperationPerformance;

/// How a cascaded pass is streamed (Vela's SchedulingStrategy; names as its pass-breakdown CSV).
enum class StreamingStrategy : std::uint8_t { Unknown, WeightStream, IfmStream };
[[nodiscard]] std::string_view nameOf(StreamingStrategy strategy);

/// The IFM of `pass` is kept as a rolling buffer of `height` rows in fast storage.
struct RollingBuffer {
  int pass = 0;
  int height = 0;
  friend bool operator==(const RollingBuffer&, const RollingBuffer&) = default;
};

struct Strategy {
  StreamingStrategy kind = StreamingStrategy::Unknown;
  std::vector<int> passes;       ///< in execution order
  std::vector<int> blockConfigs; ///< per pass, index into that pass's block config candidates
  std::vector<RollingBuffer> rollingBuffers;
  int lastBlockHeight = 0; ///< OFM block height of the last pass (for the BwCycMemBlkH frontier)
  Metrics metrics;
  std::int64_t sramUsed = 0;

  [[nodiscard]] bool empty() const { return passes.empty(); }
  /// Vela: Strategy.__eq__.
  [[nodiscard]] bool sameAs(const Strategy& other) const;
};
using StrategyPtr = std::shared_ptr<const Strategy>;

struct StrategySet {
  std::map<int, StrategyPtr> strategies; ///< keyed by the last pass of each strategy
  Metrics metrics;
  std::int64_t maxSramUsed = 0;
  std::int64_t totalSramUsed = 0;

  /// Vela: StrategySet.update_statistics, for a set built from a map.
  void updateStatistics();
};
using StrategySetPtr = std::shared_ptr<const StrategySet>;

/// A strategy under construction beside the finished ones (Vela's (strat, strat_set) pairs).
struct Candidate {
  StrategyPtr strategy;
  StrategySetPtr set;
};
using Candidates = std::vector<Candidate>;

[[nodiscard]] const StrategyPtr& emptyStrategy();
[[nodiscard]] const StrategySetPtr& emptyStrategySet();

/// Vela: StrategySet.clone_add_strategy (the set itself when the strategy is already in it).
[[nodiscard]] StrategySetPtr withStrategy(const StrategySetPtr& set, const StrategyPtr& strategy);

/// How candidates are weighed (Vela's ArchitectureFeatures.bandwidth_weights, cycles_weight,
/// max_sram_used_weight and the scheduler's ParetoMetric and candidate cap).
struct CandidateWeights {
  std::array<double, kMemoryAreaCount> bandwidth{}; ///< per memory, every purpose and direction
  double cycles = 40.0;
  double maxSramUsed = 1000.0;
  bool blockHeightInFrontier = false;
  int maxCandidates = 16;
  std::int64_t sramLimit = 0;

  /// Vela 2.1's weights: SRAM 1, DRAM 10, on-chip flash 2, off-chip flash 20; no memory weight when
  /// feature maps spill to a separate fast storage.
  [[nodiscard]] static CandidateWeights vela(bool spilling);
};

/// Vela: DynamicProgrammingScheduler.candidate_metric.
[[nodiscard]] double candidateMetric(const Candidate& candidate, const CandidateWeights& weights);

/// Vela: filter_pareto_frontier. Drops candidates over the SRAM limit, keeps those no other candidate
/// beats in every value, and caps their number by the candidate metric. The order is total (values,
/// then input position), so the result never depends on how the input was produced in parallel.
[[nodiscard]] Candidates paretoFrontier(Candidates candidates, const CandidateWeights& weights);

/// Vela: best_candidate; null pointers when there is none.
[[nodiscard]] Candidate bestCandidate(std::span<const Candidate> candidates, const CandidateWeights& weights);

} // namespace npu::dp
