// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/fast_storage.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu::scheduling;

namespace {

TimedLiveRange range(std::int64_t start, std::int64_t end, std::int64_t size) {
  TimedLiveRange result;
  result.start = start;
  result.end = end;
  result.size = size;
  result.area = npu::MemoryArea::Sram;
  return result;
}

std::vector<std::int64_t> usageOf(const std::vector<TimedLiveRange>& ranges, std::size_t length) {
  std::vector<std::int64_t> usage(length, 0);
  for (const auto& r : ranges) {
    for (auto t = r.start; t <= r.end; ++t) {
      usage[static_cast<std::size_t>(t)] += r.size;
    }
  }
  return usage;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fast_storage)

BOOST_AUTO_TEST_CASE(every_feature_map_stays_when_all_fit) {
  const std::vector<TimedLiveRange> ranges{range(0, 3, 100), range(2, 5, 100)};
  const std::vector<std::size_t> candidates{0, 1};
  const std::vector<double> scores{1.0, 1.0};
  const auto selection = selectFastStorageResidents(ranges, usageOf(ranges, 8), candidates, scores, 200);
  BOOST_TEST(selection.evicted.empty());
  BOOST_TEST(selection.fits);
}

BOOST_AUTO_TEST_CASE(a_feature_map_that_can_never_fit_is_evicted_and_remembered) {
  const std::vector<TimedLiveRange> ranges{range(0, 3, 100), range(0, 5, 300)};
  const std::vector<std::size_t> candidates{1};
  const std::vector<double> scores{0.0, 5.0};
  const auto selection = selectFastStorageResidents(ranges, usageOf(ranges, 8), candidates, scores, 250);
  BOOST_TEST((selection.evicted == std::vector<std::size_t>{1}));
  BOOST_TEST((selection.rememberedEvictions == std::vector<std::size_t>{1}));
  BOOST_TEST(selection.fits);
}

BOOST_AUTO_TEST_CASE(of_two_competing_feature_maps_the_more_accessed_one_stays) {
  const std::vector<TimedLiveRange> ranges{range(0, 3, 100), range(2, 5, 100)};
  const std::vector<std::size_t> candidates{0, 1};
  const std::vector<double> scores{10.0, 20.0};
  const auto selection = selectFastStorageResidents(ranges, usageOf(ranges, 8), candidates, scores, 150);
  BOOST_TEST((selection.evicted == std::vector<std::size_t>{0}));
  BOOST_TEST(selection.fits);
  BOOST_TEST(*std::max_element(selection.usage.begin(), selection.usage.end()) == 100);
}

BOOST_AUTO_TEST_CASE(what_cannot_move_exceeding_the_limit_is_left_to_the_check_of_the_whole_schedule) {
  // Vela evicts the candidate that can never fit and checks nothing more here.
  const std::vector<TimedLiveRange> ranges{range(0, 3, 300), range(0, 3, 100)};
  const std::vector<std::size_t> candidates{1};
  const std::vector<double> scores{0.0, 1.0};
  const auto selection = selectFastStorageResidents(ranges, usageOf(ranges, 4), candidates, scores, 250);
  BOOST_TEST(selection.evicted == std::vector<std::size_t>{1}, boost::test_tools::per_element());
  BOOST_TEST(selection.fits);
}

BOOST_AUTO_TEST_CASE(the_selection_reports_when_ranges_competed_and_the_limit_is_still_exceeded) {
  // Two candidates compete at time 0; at time 4 a range that cannot move exceeds the limit (Vela asserts
  // "Allocation exceeds staging limit").
  const std::vector<TimedLiveRange> ranges{range(0, 1, 100), range(0, 1, 100), range(0, 1, 100), range(4, 5, 300)};
  const std::vector<std::size_t> candidates{1, 2};
  const std::vector<double> scores{0.0, 1.0, 2.0, 0.0};
  const auto selection = selectFastStorageResidents(ranges, usageOf(ranges, 6), candidates, scores, 250);
  BOOST_TEST(selection.evicted.size() == 1U);
  BOOST_TEST(!selection.fits);
}

BOOST_AUTO_TEST_SUITE_END()
