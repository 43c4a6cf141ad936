// SPDX-License-Identifier: Apache-2.0
#include "pipeline/fit_search.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

namespace {

constexpr std::int64_t kKiB = 1024;

/// A network that fits from `needed` bytes on, counting the limits it was tried at.
struct Threshold {
  std::int64_t needed;
  std::vector<std::int64_t> tried;
  bool operator()(std::int64_t limit) {
    tried.push_back(limit);
    return limit >= needed;
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(fit_search)

BOOST_AUTO_TEST_CASE(the_search_finds_the_smallest_fitting_limit_to_the_granularity) {
  Threshold network{789520, {}};
  const auto outcome = npu::searchSmallestFittingLimit(
      512 * kKiB, [&](std::int64_t limit) { return network(limit); }, kKiB, std::int64_t{1} << 30, 24);
  BOOST_REQUIRE(outcome.smallestFittingLimit.has_value());
  BOOST_TEST(*outcome.smallestFittingLimit == 772 * kKiB); // 789520 bytes rounded up to whole KiB
  BOOST_TEST(outcome.largestFailingLimit == 771 * kKiB);
  BOOST_TEST(outcome.converged);
  BOOST_TEST(outcome.schedulerRuns == static_cast<int>(network.tried.size()));
  // The ceiling, one doubling to 1 MiB, then bisection of 512 KiB to 1 KiB: 9 steps.
  BOOST_TEST(outcome.schedulerRuns == 11);
  BOOST_TEST(network.tried.front() == std::int64_t{1} << 30);
}

BOOST_AUTO_TEST_CASE(a_failure_no_limit_cures_costs_one_run_and_names_no_limit) {
  int runs = 0;
  const auto outcome = npu::searchSmallestFittingLimit(
      512 * kKiB,
      [&](std::int64_t) {
        ++runs;
        return false;
      },
      kKiB, std::int64_t{1} << 30, 24);
  BOOST_TEST(!outcome.smallestFittingLimit.has_value());
  BOOST_TEST(runs == 1);
  BOOST_TEST(outcome.schedulerRuns == 1);
}

BOOST_AUTO_TEST_CASE(the_search_stops_at_its_run_cap_with_a_limit_seen_to_fit) {
  Threshold network{5 * kKiB + 100, {}};
  const auto outcome = npu::searchSmallestFittingLimit(
      kKiB, [&](std::int64_t limit) { return network(limit); }, 16, std::int64_t{1} << 30, 5);
  BOOST_TEST(network.tried.size() == 5U);
  BOOST_REQUIRE(outcome.smallestFittingLimit.has_value());
  BOOST_TEST(*outcome.smallestFittingLimit >= network.needed);
  BOOST_TEST(outcome.largestFailingLimit < network.needed);
  BOOST_TEST(!outcome.converged);
}

BOOST_AUTO_TEST_CASE(where_fitting_is_not_monotone_the_limit_named_fits_and_the_one_below_it_does_not) {
  // Fits from 600 KiB on, except between 1 MiB and 2 MiB (an allocator peak over the scheduler's plan).
  const auto fits = [](std::int64_t limit) {
    return limit >= 600 * kKiB && (limit < 1024 * kKiB || limit >= 2048 * kKiB);
  };
  const auto outcome = npu::searchSmallestFittingLimit(512 * kKiB, fits, kKiB, std::int64_t{1} << 30, 24);
  BOOST_REQUIRE(outcome.smallestFittingLimit.has_value());
  BOOST_TEST(fits(*outcome.smallestFittingLimit));
  BOOST_TEST(!fits(outcome.largestFailingLimit));
  BOOST_TEST(*outcome.smallestFittingLimit - outcome.largestFailingLimit == kKiB);
}

BOOST_AUTO_TEST_CASE(byte_counts_read_with_separators_and_kibibytes) {
  BOOST_TEST(npu::describeBytes(791552) == "791,552 bytes (773 KiB)");
  BOOST_TEST(npu::describeBytes(1234560) == "1,234,560 bytes (1205.6 KiB)");
  BOOST_TEST(npu::describeBytes(16) == "16 bytes (0.0 KiB)");
}

BOOST_AUTO_TEST_SUITE_END()
