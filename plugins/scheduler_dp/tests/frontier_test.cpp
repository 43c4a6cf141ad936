// SPDX-License-Identifier: Apache-2.0
// The Pareto frontier of the DP search: what it keeps, the SRAM limit, the candidate cap, and figures
// of extensions weighed before they are built.
#include "frontier.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::dp;

namespace {

Candidate open(double sramBytes, std::int64_t sramUsed) {
  auto s = std::make_shared<Strategy>();
  s->metrics.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) = sramBytes;
  s->sramUsed = sramUsed;
  return {s, emptyStrategySet()};
}

CandidateWeights weights(int cap = 16) {
  CandidateWeights w = CandidateWeights::vela(false);
  w.sramLimit = 1 << 20;
  w.maxCandidates = cap;
  return w;
}

Metrics passMetrics(double sramBytes, double dramBytes, double cycles) {
  Metrics metrics;
  metrics.byteCount(MemoryArea::Sram, TensorPurpose::Weights, AccessDirection::Read) = sramBytes;
  metrics.byteCount(MemoryArea::Dram, TensorPurpose::FeatureMap, AccessDirection::Write) = dramBytes;
  metrics.cycles[static_cast<std::size_t>(CycleComponent::Total)] = cycles;
  return metrics;
}

} // namespace

BOOST_AUTO_TEST_SUITE(dp_frontier)

BOOST_AUTO_TEST_CASE(the_frontier_keeps_candidates_that_win_in_some_value_and_drops_dominated_and_equal_ones) {
  const Candidates candidates{open(100, 50), open(200, 10), open(300, 60), open(100, 50)};
  const Candidates frontier = paretoFrontier(candidates, weights());
  BOOST_REQUIRE(frontier.size() == 2);
  BOOST_TEST(frontier[0].strategy == candidates[0].strategy); // cheapest first
  BOOST_TEST(frontier[1].strategy == candidates[1].strategy); // uses less memory
}

BOOST_AUTO_TEST_CASE(the_frontier_drops_candidates_over_the_sram_limit) {
  CandidateWeights w = weights();
  w.sramLimit = 40;
  const Candidates frontier = paretoFrontier({open(100, 50), open(200, 10)}, w);
  BOOST_REQUIRE(frontier.size() == 1);
  BOOST_TEST(frontier[0].strategy->sramUsed == 10);
}

BOOST_AUTO_TEST_CASE(a_crowded_frontier_is_capped_by_the_candidate_metric) {
  Candidates candidates;
  for (int i = 0; i < 10; ++i) {
    candidates.push_back(open(100.0 + 10 * i, 100 - i)); // each trades bandwidth for memory
  }
  const Candidates frontier = paretoFrontier(candidates, weights(3));
  BOOST_REQUIRE(frontier.size() == 3);
  // Memory weighs 1000 per byte against 1 per SRAM byte moved: the smallest memory wins.
  BOOST_TEST(frontier[0].strategy->sramUsed == 91);
  BOOST_TEST(frontier[1].strategy->sramUsed == 92);
}

BOOST_AUTO_TEST_CASE(an_extension_weighed_before_it_is_built_has_the_figures_of_the_built_candidate) {
  // Values chosen so that the order of floating-point sums matters.
  auto open = std::make_shared<Strategy>();
  open->metrics = passMetrics(0.1, 1e16, 0.7);
  open->sramUsed = 100;
  auto setStrategy = std::make_shared<Strategy>();
  setStrategy->metrics = passMetrics(0.2, 3.0, 1e-9);
  setStrategy->sramUsed = 300;
  auto step = std::make_shared<CascadeStep>();
  step->pass = 0;
  setStrategy->lastStep = step;
  const Candidate candidate{open, withStrategy(emptyStrategySet(), setStrategy)};
  const Metrics added = passMetrics(0.3, 1.0, 0.1);
  CandidateWeights w = weights();
  w.blockHeightInFrontier = true;

  auto built = std::make_shared<Strategy>(*open);
  built->metrics += added;
  built->sramUsed += 50;
  built->lastBlockHeight = 8;
  const CandidateFigures expected = figuresOf({built, candidate.set}, w);
  const CandidateFigures weighed = figuresOfExtension(candidate, added, 50, 8, w);
  BOOST_TEST(weighed.values == expected.values);
  BOOST_TEST(weighed.metric == expected.metric);
  BOOST_TEST(weighed.sramUsed == expected.sramUsed);
  BOOST_TEST(weighed.sramUsed == 300);
  BOOST_TEST(weighed.values[3] == 8.0);
}

BOOST_AUTO_TEST_SUITE_END()
