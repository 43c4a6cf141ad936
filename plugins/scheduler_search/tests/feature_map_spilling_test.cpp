// SPDX-License-Identifier: Apache-2.0
// Spilling feature maps out of the fast storage, on hand-made graphs with the fake accelerator.
#include "feature_map_spilling.hpp"
#include "search_scheduler.hpp"

#include "cascade_scheduler.hpp"

#include "search_test_support.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include <boost/test/unit_test.hpp>
#include <tbb/global_control.h>

#include <algorithm>

using namespace npu;

namespace {

/// Wider than the search tests' graph, so that its feature maps dominate the fast storage.
Graph wideNetwork(int size) {
  return test::invertedResiduals(size, test::InvertedResidualShape{1, 32, 64, 16});
}

using Region = test::SearchRegion;
using test::peakOf;

/// The cascade scheduler's schedule planned with all the fast storage it wants (1 MiB).
Schedule generousSchedule(Region& region, const Accelerator& accelerator) {
  return cascade::scheduleRegion(region.request(accelerator), cascade::readOptions(region.values, accelerator));
}

} // namespace

BOOST_AUTO_TEST_SUITE(feature_map_spilling)

BOOST_AUTO_TEST_CASE(feature_maps_spill_only_where_the_fast_storage_is_a_memory_of_its_own) {
  const test::FakeSchedulingAccelerator shared(test::FakeSystem{});
  const test::FakeSchedulingAccelerator dedicated(test::FakeSystem{std::int64_t{1} << 20, true});
  BOOST_TEST(!search::spillAreaOf(shared.memory()).has_value());
  BOOST_TEST((search::spillAreaOf(dedicated.memory()) == dedicated.memory().featureMapArea));
}

BOOST_AUTO_TEST_CASE(a_schedule_over_the_limit_fits_once_feature_maps_are_spilled_and_costs_more_cycles) {
  const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{std::int64_t{1} << 20, true});
  Region region(wideNetwork(48));
  const Schedule schedule = generousSchedule(region, accelerator);
  const MemoryArea fast = accelerator.memory().fastStorageArea;
  const std::int64_t peak = peakOf(schedule, fast);
  const std::int64_t limit = peak / 2;
  BOOST_REQUIRE(limit > 0);
  const auto spilled = search::spillToFit(region.graph, schedule, accelerator, limit, MemoryArea::Dram);
  BOOST_REQUIRE(spilled.has_value());
  BOOST_TEST(!spilled->spilled.empty());
  BOOST_TEST(peakOf(spilled->schedule, fast) <= limit);
  BOOST_TEST(spilled->schedule.fastStoragePeak == peakOf(spilled->schedule, fast));
  BOOST_TEST(scheduling::checkSchedule(spilled->schedule, region.graph.subgraphs.front(), fast, limit).empty());
  for (const TensorId tensor : spilled->spilled) {
    BOOST_TEST((spilled->schedule.tensorHomes.at(tensor).area == MemoryArea::Dram));
  }
  const auto cycles = [&](const Schedule& s) {
    return scheduling::evaluateSchedule(region.graph, s, accelerator).cycle(CycleComponent::Total);
  };
  BOOST_TEST(cycles(spilled->schedule) >= cycles(schedule));
}

BOOST_AUTO_TEST_CASE(a_schedule_within_the_limit_is_left_as_it_is) {
  const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{std::int64_t{1} << 20, true});
  Region region(wideNetwork(32));
  const Schedule schedule = generousSchedule(region, accelerator);
  const auto spilled = search::spillToFit(region.graph, schedule, accelerator,
                                          peakOf(schedule, accelerator.memory().fastStorageArea), MemoryArea::Dram);
  BOOST_REQUIRE(spilled.has_value());
  BOOST_TEST(spilled->spilled.empty());
  BOOST_TEST(spilled->schedule.fastStoragePeak == schedule.fastStoragePeak);
}

BOOST_AUTO_TEST_CASE(nothing_spills_to_fit_a_limit_below_what_cannot_move) {
  const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{std::int64_t{1} << 20, true});
  Region region(wideNetwork(48));
  const Schedule schedule = generousSchedule(region, accelerator);
  BOOST_TEST(!search::spillToFit(region.graph, schedule, accelerator, 0, MemoryArea::Dram).has_value());
}

BOOST_AUTO_TEST_CASE(the_spilled_choice_is_the_same_at_one_thread_and_at_two) {
  const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{std::int64_t{1} << 20, true});
  std::vector<TensorId> one;
  std::vector<TensorId> two;
  for (const int threads : {1, 2}) {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    Region region(wideNetwork(48));
    const Schedule schedule = generousSchedule(region, accelerator);
    const auto spilled =
        search::spillToFit(region.graph, schedule, accelerator,
                           peakOf(schedule, accelerator.memory().fastStorageArea) / 3, MemoryArea::Dram);
    BOOST_REQUIRE(spilled.has_value());
    (threads == 1 ? one : two) = spilled->spilled;
  }
  BOOST_TEST(one == two);
}

BOOST_AUTO_TEST_CASE(the_search_with_a_separate_fast_storage_tries_spilled_schedules_and_stays_within_the_limit) {
  const std::int64_t limit = std::int64_t{24} << 10;
  const test::FakeSchedulingAccelerator accelerator(test::FakeSystem{limit, true});
  Region region(wideNetwork(48));
  const auto candidates = search::searchCandidates(region.request(accelerator), search::SearchOptions{});
  const auto spilledCandidates = std::count_if(candidates.begin(), candidates.end(), [](const auto& candidate) {
    return candidate.name.find("spilled") != std::string::npos;
  });
  BOOST_TEST(spilledCandidates >= 4);
  for (const auto& candidate : candidates) {
    BOOST_TEST_CONTEXT(candidate.name) {
      if (candidate.schedule && candidate.name.find("spilled") != std::string::npos) {
        BOOST_TEST(candidate.fits);
      }
    }
  }
  search::SearchOptions off;
  off.spill = false;
  const auto without = search::searchCandidates(region.request(accelerator), off);
  BOOST_TEST(std::none_of(without.begin(), without.end(),
                          [](const auto& candidate) { return candidate.name.find("spilled") != std::string::npos; }));
}

BOOST_AUTO_TEST_SUITE_END()
