// SPDX-License-Identifier: Apache-2.0
// Properties of the three allocators over a few thousand seeded random sets of live ranges.
#include "allocator_common/greedy_allocation.hpp"
#include "allocator_common/hill_climb_allocation.hpp"
#include "allocator_common/linear_allocation.hpp"

#include "random_live_ranges.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

namespace {

using allocation::test::randomLiveRanges;
using allocation::test::RandomRangeShape;

constexpr std::uint32_t kCaseCount = 3000;
/// One alignment and sizes that are multiples of it, like Vela's live ranges.
const RandomRangeShape kVelaLikeShape{
    .maxRanges = 30, .maxTime = 30, .alignments = {16}, .zeroSizes = false, .alignedSizes = true};

/// The first issue verifyAllocation finds, or "" for a valid allocation.
std::string firstIssue(const std::vector<npu::LiveRange>& ranges, const std::vector<std::int64_t>& addresses) {
  const auto issues = npu::verifyAllocation(ranges, addresses);
  return issues.empty() ? std::string{} : issues.front().message;
}

struct Peaks {
  std::int64_t linear = 0;
  std::int64_t greedy = 0;
  std::int64_t hillClimb = 0;
  std::int64_t lowerBound = 0;
};

/// Runs the three allocators, checks each result and returns their peaks.
Peaks allocateAllThreeWays(const std::vector<npu::LiveRange>& ranges) {
  const auto linear = allocation::allocateLinearly(ranges);
  const auto greedy = allocation::allocateGreedily(ranges);
  const auto hillClimb = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(firstIssue(ranges, linear) == "");
  BOOST_TEST(firstIssue(ranges, greedy) == "");
  BOOST_TEST(firstIssue(ranges, hillClimb.addresses) == "");
  return {npu::allocationPeak(ranges, linear), npu::allocationPeak(ranges, greedy),
          npu::allocationPeak(ranges, hillClimb.addresses), hillClimb.lowerBound};
}

} // namespace

BOOST_AUTO_TEST_SUITE(allocator_properties)

BOOST_AUTO_TEST_CASE(with_one_alignment_greedy_and_hill_climb_never_need_more_than_linear) {
  std::int64_t hillClimbBelowGreedy = 0;
  std::int64_t hillClimbAboveGreedy = 0;
  for (std::uint32_t seed = 1; seed <= kCaseCount; ++seed) {
    const auto ranges = randomLiveRanges(seed, kVelaLikeShape);
    BOOST_TEST_CONTEXT("seed " << seed) {
      const Peaks peaks = allocateAllThreeWays(ranges);
      BOOST_TEST(peaks.greedy <= peaks.linear);
      BOOST_TEST(peaks.hillClimb <= peaks.linear);
      BOOST_TEST(peaks.hillClimb >= peaks.lowerBound);
      BOOST_TEST(peaks.greedy >= peaks.lowerBound);
      hillClimbBelowGreedy += peaks.hillClimb < peaks.greedy ? 1 : 0;
      hillClimbAboveGreedy += peaks.hillClimb > peaks.greedy ? 1 : 0;
      if (peaks.hillClimb > peaks.greedy) {
        BOOST_TEST_MESSAGE("above: seed " << seed << " " << peaks.hillClimb << " > " << peaks.greedy);
      }
    }
  }
  BOOST_TEST_MESSAGE("hill-climb below greedy " << hillClimbBelowGreedy << ", above " << hillClimbAboveGreedy);
  BOOST_TEST(hillClimbAboveGreedy == 0);
}

BOOST_AUTO_TEST_CASE(mixed_alignments_and_zero_sizes_still_give_valid_allocations) {
  const RandomRangeShape shape{
      .maxRanges = 30, .maxTime = 30, .alignments = {1, 16, 32, 64, 128}, .zeroSizes = true, .alignedSizes = false};
  for (std::uint32_t seed = 1; seed <= kCaseCount / 3; ++seed) {
    const auto ranges = randomLiveRanges(seed, shape);
    BOOST_TEST_CONTEXT("seed " << seed) {
      const Peaks peaks = allocateAllThreeWays(ranges);
      BOOST_TEST(peaks.hillClimb >= peaks.lowerBound);
    }
  }
}

BOOST_AUTO_TEST_CASE(every_allocator_gives_the_same_addresses_for_the_same_ranges) {
  for (std::uint32_t seed = 1; seed <= 100; ++seed) {
    const auto ranges = randomLiveRanges(seed, RandomRangeShape{});
    BOOST_TEST_CONTEXT("seed " << seed) {
      BOOST_TEST(allocation::allocateLinearly(ranges) == allocation::allocateLinearly(ranges));
      BOOST_TEST(allocation::allocateGreedily(ranges) == allocation::allocateGreedily(ranges));
      BOOST_TEST(allocation::allocateByHillClimb(ranges).addresses ==
                 allocation::allocateByHillClimb(ranges).addresses);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
