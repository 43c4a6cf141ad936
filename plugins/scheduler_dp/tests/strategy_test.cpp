// The values and reductions of the DP search: Pareto frontier, candidate cap, collation of
// predecessor strategies, block config limit, IFM/OFM overlap.
#include "dp_search.hpp"
#include "ifm_ofm_overlap.hpp"
#include "pass_evaluator.hpp"
#include "strategy.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::dp;

namespace {

StrategyPtr strategy(std::vector<int> passes, double sramBytes, std::int64_t sramUsed) {
  auto s = std::make_shared<Strategy>();
  s->kind = StreamingStrategy::WeightStream;
  s->passes = std::move(passes);
  s->blockConfigs.assign(s->passes.size(), 0);
  s->metrics.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) = sramBytes;
  s->sramUsed = sramUsed;
  return s;
}

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

BlockConfig block(int height, int width, int depth) {
  BlockConfig config;
  config.ofmBlock = Shape4{1, height, width, depth};
  return config;
}

} // namespace

BOOST_AUTO_TEST_SUITE(dp_strategy)

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

BOOST_AUTO_TEST_CASE(collation_combines_only_predecessor_sets_that_agree_on_shared_passes) {
  const StrategyPtr a = strategy({0}, 10, 5);
  const StrategyPtr b1 = strategy({1}, 10, 5);
  const StrategyPtr cascade = strategy({0, 1}, 20, 5); // pass 0 cascaded into pass 1
  const StrategySetPtr left = withStrategy(withStrategy(emptyStrategySet(), a), b1);
  const StrategySetPtr right = withStrategy(emptyStrategySet(), cascade);
  const StrategySetPtr alone = withStrategy(emptyStrategySet(), a);
  const Candidates combined =
      collate({Candidates{{emptyStrategy(), left}}, Candidates{{emptyStrategy(), right}, {emptyStrategy(), alone}}});
  // Pass 0 ends a strategy in `left` but is inside the cascade of `right`: only `alone` combines.
  BOOST_REQUIRE(combined.size() == 1);
  BOOST_TEST(combined[0].set->strategies.size() == 2);
  BOOST_TEST(combined[0].set->metrics.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) ==
             20.0);
}

BOOST_AUTO_TEST_CASE(the_block_config_limit_takes_the_largest_and_the_smallest_blocks) {
  std::vector<BlockConfig> configs;
  for (int height = 1; height <= 4; ++height) {
    for (int depth : {8, 16}) {
      configs.push_back(block(height, 2, depth));
    }
  }
  const auto limited = limitBlockConfigs(configs, 2);
  BOOST_REQUIRE(limited.size() == 4);
  BOOST_TEST(limited[0].ofmBlock.height == 4);
  BOOST_TEST(limited[0].ofmBlock.depth == 16);
  BOOST_TEST(limited[1].ofmBlock.height == 4);
  BOOST_TEST(limited[1].ofmBlock.depth == 8);
  BOOST_TEST(limited[3].ofmBlock.height == 1);
  BOOST_TEST(limited[3].ofmBlock.depth == 8);
  BOOST_TEST(limitBlockConfigs(configs, 0).size() == configs.size());
}

BOOST_AUTO_TEST_CASE(an_output_moved_to_fast_storage_moves_its_bandwidth_but_keeps_the_npu_cycles_of_its_own_memory) {
  const auto set = [](Metrics& m, CycleComponent component, double cycles) {
    m.cycles[static_cast<std::size_t>(component)] = cycles;
  };
  Metrics inPlace; // OFM in DRAM: slow command overhead, DRAM-bound
  set(inPlace, CycleComponent::Npu, 3000.0);
  set(inPlace, CycleComponent::DramAccess, 5000.0);
  set(inPlace, CycleComponent::Total, 5000.0);
  Metrics inFastStorage; // OFM in SRAM: the cost model's cycles assume SRAM latency too
  set(inFastStorage, CycleComponent::Npu, 2500.0);
  set(inFastStorage, CycleComponent::SramAccess, 1000.0);
  set(inFastStorage, CycleComponent::DramAccess, 2000.0);
  set(inFastStorage, CycleComponent::Total, 2500.0);
  inFastStorage.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) = 4096.0;
  const Metrics merged = withOutputBandwidthInFastStorage(inPlace, inFastStorage);
  BOOST_TEST(merged.cycle(CycleComponent::Npu) == 3000.0);
  BOOST_TEST(merged.cycle(CycleComponent::SramAccess) == 1000.0);
  BOOST_TEST(merged.cycle(CycleComponent::DramAccess) == 2000.0);
  BOOST_TEST(merged.cycle(CycleComponent::Total) == 3000.0);
  BOOST_TEST(merged.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) == 4096.0);
}

BOOST_AUTO_TEST_CASE(a_pointwise_ifm_streamed_pass_may_write_its_ofm_over_all_but_one_stripe_of_its_ifm) {
  // 1x1 kernel, 8 rows of 4x16 bytes, stripes of 2 rows: the OFM may overlap everything the IFM has
  // released, i.e. all but the stripe being read.
  StripedPass pass;
  pass.ifm = Shape4{1, 8, 4, 16};
  pass.ofm = Shape4{1, 8, 4, 16};
  pass.blockHeight = 2;
  const std::int64_t bytes = 8 * 4 * 16;
  const std::int64_t rowBytes = 4 * 16;
  BOOST_TEST(allowedIfmOfmOverlap(std::span(&pass, 1), bytes, bytes) == bytes - 2 * rowBytes);
}

BOOST_AUTO_TEST_SUITE_END()
