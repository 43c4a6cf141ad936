// SPDX-License-Identifier: Apache-2.0
// The values the DP search combines: persistent strategies and sets, and the collation of
// predecessor strategies.
#include "dp_search.hpp"
#include "strategy.hpp"

#include <boost/test/unit_test.hpp>

#include <numeric>

using namespace npu;
using namespace npu::dp;

namespace {

CascadeStepPtr steps(const std::vector<int>& passes) {
  CascadeStepPtr last;
  for (const int pass : passes) {
    auto step = std::make_shared<CascadeStep>();
    step->pass = pass;
    step->length = last ? last->length + 1 : 1;
    step->firstPass = last ? last->firstPass : pass;
    step->digest = stepDigest(last ? last->digest : 0, pass, 0, 0);
    step->previous = last;
    last = std::move(step);
  }
  return last;
}

StrategyPtr strategy(const std::vector<int>& passes, double sramBytes, std::int64_t sramUsed) {
  auto s = std::make_shared<Strategy>();
  s->kind = StreamingStrategy::WeightStream;
  s->lastStep = steps(passes);
  s->metrics.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) = sramBytes;
  s->sramUsed = sramUsed;
  return s;
}

} // namespace

BOOST_AUTO_TEST_SUITE(dp_strategy)

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
  BOOST_TEST(combined[0].set->size == 2);
  BOOST_TEST(combined[0].set->metrics.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) ==
             20.0);
}

BOOST_AUTO_TEST_CASE(a_strategy_lists_its_passes_block_configs_and_rolling_buffers_in_execution_order) {
  const StrategyPtr cascade = strategy({4, 5, 7}, 0, 0);
  BOOST_TEST(cascade->passes() == (std::vector<int>{4, 5, 7}));
  BOOST_TEST(cascade->firstPass() == 4);
  BOOST_TEST(cascade->lastPass() == 7);
  BOOST_TEST(cascade->length() == 3);
  BOOST_TEST(cascade->rollingBuffers().empty());
}

BOOST_AUTO_TEST_CASE(strategies_built_apart_with_equal_contents_are_the_same_and_different_ones_are_not) {
  BOOST_TEST(strategy({1, 2}, 10, 5)->sameAs(*strategy({1, 2}, 10, 5)));
  BOOST_TEST(!strategy({1, 2}, 10, 5)->sameAs(*strategy({1, 2}, 10, 6)));
  BOOST_TEST(!strategy({1, 2}, 10, 5)->sameAs(*strategy({0, 2}, 10, 5)));
  BOOST_TEST(!strategy({1, 2}, 10, 5)->sameAs(*strategy({1, 2}, 11, 5)));
}

BOOST_AUTO_TEST_CASE(a_set_finds_its_strategies_by_last_pass_and_lists_them_in_pass_order) {
  StrategySetPtr set = emptyStrategySet();
  for (const int pass : {9, 2, 300, 0}) {
    set = withStrategy(set, strategy({pass}, 1, pass));
  }
  BOOST_TEST(set->size == 4);
  BOOST_TEST(set->maxSramUsed == 300);
  BOOST_TEST(set->totalSramUsed == 311);
  BOOST_REQUIRE(set->findByLastPass(300) != nullptr);
  BOOST_TEST(set->findByLastPass(300)->sramUsed == 300);
  BOOST_TEST(set->findByLastPass(3) == nullptr);
  BOOST_TEST(set->findByLastPass(1000) == nullptr);
  std::vector<int> lastPasses;
  for (const StrategyPtr& s : set->strategies()) {
    lastPasses.push_back(s->lastPass());
  }
  BOOST_TEST(lastPasses == (std::vector<int>{0, 2, 9, 300}));
  // Adding a strategy the set already ends a pass with leaves the set as it is (clone_add_strategy).
  BOOST_TEST(withStrategy(set, strategy({9}, 1, 9)) == set);
}

BOOST_AUTO_TEST_CASE(sets_built_apart_and_in_different_orders_join_when_they_agree) {
  // Equal strategies made separately, added in different orders: the union holds each pass once.
  StrategySetPtr left = emptyStrategySet();
  StrategySetPtr right = emptyStrategySet();
  for (int pass = 0; pass < 100; ++pass) {
    left = withStrategy(left, strategy({pass}, 1, 1));
    right = withStrategy(right, strategy({99 - pass}, 1, 1));
  }
  right = withStrategy(right, strategy({100, 101}, 2, 1)); // a cascade only one side holds
  const StrategySetPtr both = joined(left, right);
  BOOST_REQUIRE(both);
  BOOST_TEST(both->size == 101);
  BOOST_TEST(both->metrics.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) == 102.0);
  // The same pass ended by strategies that differ does not join.
  const StrategySetPtr different =
      withStrategy(withStrategy(emptyStrategySet(), strategy({50}, 7, 1)), strategy({101}, 1, 1));
  BOOST_TEST(!joined(left, different));
  BOOST_TEST(!joined(different, left));
}

BOOST_AUTO_TEST_CASE(a_cascade_of_a_million_steps_is_released_without_exhausting_the_stack) {
  std::vector<int> passes(1'000'000);
  std::iota(passes.begin(), passes.end(), 0);
  StrategyPtr cascade = strategy(passes, 1, 1);
  BOOST_TEST(cascade->length() == 1'000'000);
  cascade.reset(); // would recurse a million frames deep if steps released one another
  BOOST_TEST(!cascade);
}

BOOST_AUTO_TEST_SUITE_END()
