#pragma once
// The dynamic-programming search of Vela 2.1 (scheduler.DynamicProgrammingScheduler): walking back
// from the passes nobody reads, every pass is either weight-streamed on its own or IFM-streamed,
// possibly cascaded with its single predecessor through a rolling buffer; the partial schedules of
// each sub-problem are reduced to a Pareto frontier of (weighted bandwidth + cycles, peak memory,
// memory of the open cascade). Sub-problems are solved once per pass, in region order, so the search
// never recurses deeply and a graph with loops (links dropped by PassGraph) cannot make it revisit.

#include "dp_options.hpp"
#include "pass_evaluator.hpp"
#include "pass_graph.hpp"
#include "strategy.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace npu::dp {

class DpSearch {
public:
  DpSearch(const PassGraph& graph, const PassEvaluator& evaluator, const DpOptions& options,
           const CandidateWeights& weights);

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
  std::vector<CascadeOption> cascadeOptions(int pass);
  [[nodiscard]] Candidates ifmStreamingPartial(int pass, int block, const std::vector<CascadeOption>& cascades) const;
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
  bool spilling_ = false;
  bool ifmOfmOverlap_ = true;
  std::map<int, Candidates> outputs_;
  std::map<int, Candidates> weightBodies_;
  std::map<std::pair<int, bool>, Candidates> ifmBodies_;
  std::int64_t combinations_ = 0;
};

/// Vela 2.1 scheduler.collate_strats_for_passes: every compatible combination of one candidate per
/// list (strategies shared by two lists must agree), as finished sets.
[[nodiscard]] Candidates collate(const std::vector<Candidates>& lists);

} // namespace npu::dp
