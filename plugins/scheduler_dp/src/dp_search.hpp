// SPDX-License-Identifier: Apache-2.0
#pragma once
// The dynamic-programming search of Vela 2.1 (scheduler.DynamicProgrammingScheduler): walking back
// from the passes nobody reads, every pass is either weight-streamed on its own or IFM-streamed,
// possibly cascaded with its single predecessor through a rolling buffer; the partial schedules of
// each sub-problem are reduced to a Pareto frontier of (weighted bandwidth + cycles, peak memory,
// memory of the open cascade). Sub-problems are solved once per pass, in region order, so the search
// never recurses deeply and a graph with loops (links dropped by PassGraph) cannot make it revisit; a
// pass's sub-problems are released once every pass reading it is solved, so memory stays in proportion
// to the candidates alive rather than to every candidate ever kept.

#include "dp_options.hpp"
#include "frontier.hpp"
#include "ifm_ofm_overlap.hpp"
#include "pass_evaluator.hpp"
#include "pass_graph.hpp"
#include "strategy.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace npu::dp {

class DpSearch {
public:
  /// `progress`, when given, advances one step per pass solved.
  DpSearch(const PassGraph& graph, const PassEvaluator& evaluator, const DpOptions& options,
           const CandidateWeights& weights, Progress* progress = nullptr);

  /// The best complete set of cascaded passes; throws a Compile error naming a pass that cannot be
  /// scheduled within the SRAM limit.
  [[nodiscard]] StrategySetPtr run();
  /// Candidate combinations created (Vela's n_combinations_searched).
  [[nodiscard]] std::int64_t combinationsSearched() const { return combinations_; }

private:
  const Candidates& searchOutput(int pass);
  const Candidates& weightStreamingBody(int pass);
  const Candidates& ifmStreamingBody(int pass, bool outputToFastStorage);
  Candidates weightStreamingOutput(int pass);
  Candidates ifmStreamingOutput(int pass);
  /// A predecessor an IFM-streamed pass may cascade with, and the partial schedules ending in it.
  struct CascadeOption {
    int predecessor = 0;
    Candidates options;
  };
  /// A partial schedule a pass may extend: `source`, whose open cascade the pass joins through a
  /// rolling buffer of `rollingBufferHeight` rows (0 when it starts one), adding `extraSram` bytes.
  struct Extension {
    const Candidate* source = nullptr;
    std::int64_t extraSram = 0;
    int rollingBufferHeight = 0;
  };
  std::vector<CascadeOption> cascadeOptions(int pass);
  [[nodiscard]] std::vector<Extension> ifmStreamingPartial(int pass, int block,
                                                           const std::vector<CascadeOption>& cascades) const;
  /// The frontier of `extensionsOf(b)` extended by `pass` with every block config b, `sramOf(b)` bytes
  /// more and the figures of `outputToFastStorage`; only the candidates the frontier keeps are built.
  template <typename ExtensionsOf, typename SramOf>
  Candidates extendedFrontier(int pass, bool outputToFastStorage, const ExtensionsOf& extensionsOf,
                              const SramOf& sramOf);
  /// `candidate` with `pass` appended, run with block config `block`, adding `sram` bytes.
  [[nodiscard]] Candidate withPass(const Candidate& candidate, int pass, int block, std::int64_t sram,
                                   const Metrics& metrics, int rollingBufferHeight) const;
  [[nodiscard]] StripedPass stripedPass(int pass, int block) const;
  /// Drops the sub-problems of the predecessors of `pass` that no later pass reads.
  void releaseSolvedPredecessors(int pass);
  Candidates searchPredecessors(int pass);
  Candidates searchPassList(const std::vector<int>& passes);
  Candidates searchAllButOnePredecessor(int pass, int predecessor, const Candidates& predecessorData);
  [[nodiscard]] bool isCascadePredecessor(int pass, int predecessor) const;
  [[nodiscard]] int rollingBufferHeight(int predecessor, int predecessorBlock, int pass, int block) const;
  [[nodiscard]] std::int64_t allowedOverlap(const Strategy& strategy) const;
  Candidates graduate(StreamingStrategy kind, std::int64_t sramUsed, const Candidates& data) const;

  const PassGraph& graph_;
  const PassEvaluator& evaluator_;
  const DpOptions& options_;
  CandidateWeights weights_;
  Progress* progress_;
  bool spilling_ = false;
  bool ifmOfmOverlap_ = true;
  std::vector<int> consumersOfTensor_; ///< operations of the subgraph reading each tensor
  std::vector<int> producersOfTensor_; ///< operations of the subgraph writing each tensor
  std::vector<int> unsolvedConsumers_; ///< per pass, DAG successors not yet solved
  // Solved sub-problems per pass (Vela memoises them in dictionaries).
  std::vector<std::optional<Candidates>> outputs_;
  std::vector<std::optional<Candidates>> weightBodies_;
  std::array<std::vector<std::optional<Candidates>>, 2> ifmBodies_; ///< by whether the OFM goes to fast storage
  std::int64_t combinations_ = 0;
};

/// Vela 2.1 scheduler.collate_strats_for_passes: every compatible combination of one candidate per
/// list (strategies shared by two lists must agree), as finished sets.
[[nodiscard]] Candidates collate(const std::vector<Candidates>& lists);

} // namespace npu::dp
