// SPDX-License-Identifier: Apache-2.0
// The search scheduler on hand-made graphs with the fake accelerator of scheduler_common's tests.
#include "costed_accelerator.hpp"
#include "search_scheduler.hpp"

#include "cascade_scheduler.hpp"

#include "search_test_support.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <sstream>

using namespace npu;

namespace {

using test::invertedResiduals;

/// Everything of a schedule the framework consumes, as text.
std::string describe(const Schedule& schedule) {
  std::ostringstream out;
  for (const ScheduledOperation& op : schedule.operations) {
    out << op.op << ' ' << op.cascade << ' ' << op.blockConfig.ofmBlock.str() << ' ' << op.ofmStripe.str() << ' '
        << op.estimatedCycles << ' ' << op.memoryUsage << '\n';
  }
  for (const BufferRequest& buffer : schedule.buffers) {
    out << buffer.range.name << ' ' << buffer.range.start << '-' << buffer.range.end << ' ' << buffer.range.size
        << '\n';
  }
  return out.str();
}

using Region = test::SearchRegion;
using test::peakOf;

std::vector<search::CandidateResult> results(const std::vector<std::pair<double, bool>>& figures) {
  std::vector<search::CandidateResult> list;
  for (const auto& [cycles, fits] : figures) {
    search::CandidateResult result;
    result.schedule = Schedule{};
    result.cycles = cycles;
    result.fits = fits;
    list.push_back(std::move(result));
  }
  return list;
}

} // namespace

BOOST_AUTO_TEST_SUITE(search_scheduler)

BOOST_AUTO_TEST_CASE(the_fastest_candidate_that_fits_wins_and_ties_go_to_the_earlier_one) {
  BOOST_TEST(*search::chooseCandidate(results({{100, true}, {90, true}, {90, true}, {50, false}})) == 1U);
  BOOST_TEST(*search::chooseCandidate(results({{100, true}, {100, true}})) == 0U);
}

BOOST_AUTO_TEST_CASE(when_nothing_fits_vela_s_own_schedule_is_kept_as_vela_keeps_it) {
  BOOST_TEST(*search::chooseCandidate(results({{100, false}, {90, false}})) == 0U);
  auto none = results({{100, false}});
  none.front().schedule.reset();
  BOOST_TEST(!search::chooseCandidate(none).has_value());
}

BOOST_AUTO_TEST_CASE(a_costed_block_config_is_never_estimated_slower_than_the_accelerator_s_choice_nor_than_the_next) {
  const test::FakeSchedulingAccelerator accelerator;
  const Graph graph = invertedResiduals(32);
  const Subgraph& subgraph = graph.subgraphs.front();
  for (const auto objective : {search::BlockObjective::StoredWeights, search::BlockObjective::BufferedWeights,
                               search::BlockObjective::Compute}) {
    const search::CostedAccelerator costed(accelerator, search::BlockChoice{objective, 0});
    const search::CostedAccelerator second(accelerator, search::BlockChoice{objective, 1});
    const auto& selector = dynamic_cast<const search::CostedBlockConfigs&>(costed.blockConfigs());
    for (const Operation& op : subgraph.operations) {
      if (op.ifm2() != kNoTensor || op.ifm() == kNoTensor) {
        continue;
      }
      const OperationShapes shapes{Shape4::fromShape(subgraph.tensor(op.ifm()).shape), std::nullopt,
                                   Shape4::fromShape(subgraph.tensor(op.ofm()).shape)};
      const auto chosen = selector.choose(subgraph, op, shapes);
      const auto vela = accelerator.choose(subgraph, op, shapes);
      BOOST_REQUIRE(chosen && vela);
      BOOST_TEST(selector.cost(subgraph, op, shapes, *chosen, objective) <=
                 selector.cost(subgraph, op, shapes, *vela, objective));
      // The second choice is never estimated cheaper than the first.
      const auto next = second.blockConfigs().choose(subgraph, op, shapes);
      BOOST_REQUIRE(next.has_value());
      BOOST_TEST(selector.cost(subgraph, op, shapes, *next, objective) >=
                 selector.cost(subgraph, op, shapes, *chosen, objective));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_search_is_never_slower_than_the_cascade_schedule_and_stays_within_the_limit) {
  for (const std::int64_t limit : {std::int64_t{1} << 20, std::int64_t{48} << 10}) {
    const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{limit});
    Region region(invertedResiduals(48));
    const Schedule cascadeSchedule =
        cascade::scheduleRegion(region.request(accelerator), cascade::readOptions(region.values, accelerator));
    const Schedule searched = search::scheduleRegion(region.request(accelerator), search::SearchOptions{});
    const auto cycles = [&](const Schedule& s) {
      return scheduling::evaluateSchedule(region.graph, s, accelerator).cycle(CycleComponent::Total);
    };
    BOOST_TEST_CONTEXT("limit " << limit) {
      BOOST_TEST(cycles(searched) <= cycles(cascadeSchedule));
      BOOST_TEST(peakOf(searched, accelerator.memory().fastStorageArea) <= limit);
      BOOST_TEST(scheduling::checkSchedule(searched, region.graph.subgraphs.front(),
                                           accelerator.memory().fastStorageArea, limit)
                     .empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(the_first_candidate_is_exactly_the_cascade_scheduler_s_schedule) {
  for (const std::int64_t limit : {std::int64_t{1} << 20, std::int64_t{48} << 10}) {
    const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{limit});
    Region region(invertedResiduals(48));
    const Schedule cascadeSchedule =
        cascade::scheduleRegion(region.request(accelerator), cascade::readOptions(region.values, accelerator));
    const auto candidates = search::searchCandidates(region.request(accelerator), search::SearchOptions{});
    BOOST_REQUIRE(!candidates.empty());
    BOOST_REQUIRE(candidates.front().schedule.has_value());
    BOOST_TEST(describe(*candidates.front().schedule) == describe(cascadeSchedule));
    BOOST_TEST(candidates.size() > 4U); // Vela's, three objectives at two ranks, and mixes when they differ
  }
}

BOOST_AUTO_TEST_CASE(the_schedule_is_the_same_at_one_thread_and_at_two) {
  const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{std::int64_t{64} << 10});
  std::string one;
  std::string two;
  {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, 1);
    Region region(invertedResiduals(48));
    one = describe(search::scheduleRegion(region.request(accelerator), search::SearchOptions{}));
  }
  {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, 2);
    Region region(invertedResiduals(48));
    two = describe(search::scheduleRegion(region.request(accelerator), search::SearchOptions{}));
  }
  BOOST_TEST(one == two);
}

BOOST_AUTO_TEST_CASE(a_limit_no_candidate_fits_is_a_compile_error_saying_what_was_tried) {
  const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{256});
  Region region(invertedResiduals(32));
  try {
    (void)search::scheduleRegion(region.request(accelerator), search::SearchOptions{});
    BOOST_FAIL("expected a compile error");
  } catch (const Error& error) {
    BOOST_TEST((error.kind() == ErrorKind::Compile));
    BOOST_TEST(error.message().find("none of the") != std::string::npos, error.message());
    BOOST_TEST(error.message().find("limit of 256 bytes") != std::string::npos, error.message());
    // Feature maps live in the fast storage itself (Shared_Sram-like): nothing could be spilled, and it says why.
    BOOST_TEST(error.message().find("no feature map can be spilled") != std::string::npos, error.message());
  }
}

BOOST_AUTO_TEST_CASE(block_ranks_outside_one_to_four_are_a_configuration_error) {
  OptionValues values;
  values.set("block_ranks", std::int64_t{5});
  BOOST_CHECK_THROW((void)search::readOptions(values), Error);
  values.set("block_ranks", std::int64_t{1});
  BOOST_TEST(search::readOptions(values).blockRanks == 1);
}

BOOST_AUTO_TEST_SUITE_END()
