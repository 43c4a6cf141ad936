// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Pareto frontier of the dynamic-programming search (Vela 2.1 scheduler.filter_pareto_frontier,
// pareto_metric, candidate_metric, best_candidate). The frontier is chosen from the figures of the
// candidates alone, so the search can weigh extensions of its partial schedules before building any:
// of the hundreds it weighs per pass it builds the sixteen it keeps.

#include "strategy.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace npu::dp {

/// How candidates are weighed (Vela's ArchitectureFeatures.bandwidth_weights, cycles_weight,
/// max_sram_used_weight and the scheduler's ParetoMetric and candidate cap).
struct CandidateWeights {
  std::array<double, kMemoryAreaCount> bandwidth{}; ///< per memory, every purpose and direction
  double cycles = 40.0;
  double maxSramUsed = 1000.0;
  bool blockHeightInFrontier = false;
  int maxCandidates = 16;
  std::int64_t sramLimit = 0;
  /// Bytes no strategy set's peak is below: Vela's region begins with a startup pass whose strategy
  /// holds the region's inputs and is part of every set (PassGraph::startupSram).
  std::int64_t setSramFloor = 0;

  /// Vela 2.1's weights: SRAM 1, DRAM 10, on-chip flash 2, off-chip flash 20; no memory weight when
  /// feature maps spill to a separate fast storage.
  [[nodiscard]] static CandidateWeights vela(bool spilling);
};

/// What the frontier weighs of a candidate.
struct CandidateFigures {
  std::array<double, 4> values{}; ///< Vela's pareto_metric: weighted cost, set memory, open memory, block height
  double metric = 0.0;            ///< Vela's candidate_metric
  std::int64_t sramUsed = 0;      ///< the larger of the open strategy's and the set's, against the limit
};

[[nodiscard]] CandidateFigures figuresOf(const Candidate& candidate, const CandidateWeights& weights);
/// The figures `candidate` would have with its open strategy extended by a pass of `metrics` adding
/// `sram` bytes and ending with an OFM block `blockHeight` rows high; the same numbers, bit for bit, as
/// figuresOf the extended candidate, without building it.
[[nodiscard]] CandidateFigures figuresOfExtension(const Candidate& candidate, const Metrics& metrics, std::int64_t sram,
                                                  int blockHeight, const CandidateWeights& weights);

/// Vela: DynamicProgrammingScheduler.candidate_metric.
[[nodiscard]] double candidateMetric(const Candidate& candidate, const CandidateWeights& weights);

/// Positions of the candidates filter_pareto_frontier keeps, in the order it keeps them.
[[nodiscard]] std::vector<std::size_t> paretoSelection(std::span<const CandidateFigures> figures,
                                                       const CandidateWeights& weights);

/// Vela: filter_pareto_frontier. Drops candidates over the SRAM limit, keeps those no other candidate
/// beats in every value, and caps their number by the candidate metric. The order is total (values,
/// then input position), so the result never depends on how the input was produced in parallel.
[[nodiscard]] Candidates paretoFrontier(Candidates candidates, const CandidateWeights& weights);

/// Vela: best_candidate; null pointers when there is none.
[[nodiscard]] Candidate bestCandidate(std::span<const Candidate> candidates, const CandidateWeights& weights);

} // namespace npu::dp
