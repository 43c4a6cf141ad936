// SPDX-License-Identifier: Apache-2.0
// Expected results follow hillclimb_allocation.py (HillClimbAllocator). Where the search runs, the
// addresses are those Vela 3.10's own code gives for the same ranges in the same order.
#include "allocator_common/hill_climb_allocation.hpp"

#include "random_live_ranges.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

namespace {

using Addresses = std::vector<std::int64_t>;
constexpr std::int64_t kQuarterOfTheAddressSpace = std::int64_t{1} << 61;

const allocation::HillClimbSettings kLongSearch{.maxIterations = 3000, .memoryLimit = 0};

/// A seeded case where even a search of kLongSearch's length stops above the lower bound, so the
/// length of the search is visible.
std::vector<npu::LiveRange> rangesTheSearchCannotSolve() {
  const allocation::test::RandomRangeShape shape{
      .maxRanges = 30, .maxTime = 12, .alignments = {16}, .zeroSizes = false, .alignedSizes = true};
  for (std::uint32_t seed = 1;; ++seed) {
    auto ranges = allocation::test::randomLiveRanges(seed, shape);
    const auto outcome = allocation::allocateByHillClimb(ranges, kLongSearch);
    if (npu::allocationPeak(ranges, outcome.addresses) > outcome.lowerBound) {
      return ranges;
    }
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(hill_climb_allocation)

BOOST_AUTO_TEST_CASE(an_optimal_first_allocation_ends_without_searching) {
  // Urgency is 80 for all three (the most live at once), durations are equal, so the order is by start:
  // a at 0, b pushed above a to 32, c back at 0. The peak 80 is the lower bound: no search.
  const std::vector<npu::LiveRange> ranges{{"a", 0, 1, 32, 16}, {"b", 1, 2, 48, 16}, {"c", 2, 3, 32, 16}};
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(outcome.addresses == (Addresses{0, 32, 0}), boost::test_tools::per_element());
  BOOST_TEST(outcome.lowerBound == 80);
  BOOST_TEST(outcome.iterations == 0);
}

BOOST_AUTO_TEST_CASE(the_search_reaches_the_lower_bound_the_urgency_order_misses) {
  // The urgency order (r2, r0, r3, r1) gives r2 0, r0 48, r3 48, r1 64: peak 128 against a lower bound
  // of 80. Vela's search finds an allocation of 80 and stops there.
  const std::vector<npu::LiveRange> ranges{
      {"r0", 1, 2, 16, 16}, {"r1", 2, 2, 64, 16}, {"r2", 0, 1, 48, 16}, {"r3", 0, 0, 32, 16}};
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(outcome.addresses == (Addresses{64, 0, 0, 48}), boost::test_tools::per_element());
  BOOST_TEST(npu::allocationPeak(ranges, outcome.addresses) == 80);
  BOOST_TEST(outcome.lowerBound == 80);
  BOOST_TEST(outcome.iterations > 0);
}

BOOST_AUTO_TEST_CASE(the_search_gives_vela_addresses_for_ranges_with_gaps) {
  const std::vector<npu::LiveRange> ranges{{"A", 0, 5, 16, 16}, {"B", 0, 1, 64, 16}, {"C", 1, 5, 16, 16},
                                           {"D", 1, 2, 32, 16}, {"E", 2, 5, 80, 16}, {"G", 3, 5, 32, 16},
                                           {"H", 3, 5, 48, 16}};
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(outcome.addresses == (Addresses{0, 32, 16, 112, 32, 160, 112}), boost::test_tools::per_element());
  BOOST_TEST(npu::allocationPeak(ranges, outcome.addresses) == 192);
  BOOST_TEST(outcome.lowerBound == 192);
}

BOOST_AUTO_TEST_CASE(ranges_that_all_overlap_with_mixed_alignments_get_vela_addresses) {
  // Largest first: x 0, w 128, y 192, z 100 (peak 232, bound 205); the search gets to 212.
  const std::vector<npu::LiveRange> ranges{
      {"x", 0, 3, 100, 16}, {"y", 0, 3, 40, 32}, {"z", 0, 3, 1, 1}, {"w", 0, 3, 64, 64}};
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(outcome.addresses == (Addresses{112, 64, 104, 0}), boost::test_tools::per_element());
  BOOST_TEST(npu::allocationPeak(ranges, outcome.addresses) == 212);
  BOOST_TEST(npu::verifyAllocation(ranges, outcome.addresses).empty());
}

BOOST_AUTO_TEST_CASE(the_same_ranges_give_the_same_addresses_every_time) {
  const auto ranges = rangesTheSearchCannotSolve();
  const auto first = allocation::allocateByHillClimb(ranges);
  const auto second = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(first.addresses == second.addresses, boost::test_tools::per_element());
  BOOST_TEST(first.iterations == second.iterations);
}

BOOST_AUTO_TEST_CASE(without_a_reachable_limit_the_search_ends_500_iterations_after_its_last_improvement) {
  const auto ranges = rangesTheSearchCannotSolve();
  const auto outcome = allocation::allocateByHillClimb(ranges, {.maxIterations = 10, .memoryLimit = 1 << 30});
  BOOST_TEST(outcome.iterations >= 500);
  BOOST_TEST(outcome.iterations < 99999);
}

BOOST_AUTO_TEST_CASE(above_the_memory_limit_the_search_runs_its_maximum_iterations) {
  const auto ranges = rangesTheSearchCannotSolve();
  const auto unlimited = allocation::allocateByHillClimb(ranges);
  const auto limited = allocation::allocateByHillClimb(ranges, kLongSearch);
  BOOST_TEST(limited.iterations >= 3000);
  // The longer search follows the same path further, so it can only end lower or equal.
  BOOST_TEST(npu::allocationPeak(ranges, limited.addresses) <= npu::allocationPeak(ranges, unlimited.addresses));
}

BOOST_AUTO_TEST_CASE(zero_size_ranges_are_placed_without_overlapping_others) {
  const std::vector<npu::LiveRange> ranges{
      {"P", 0, 9, 112, 16}, {"Q", 0, 0, 16, 16}, {"B", 1, 9, 64, 16}, {"A", 2, 9, 0, 16}, {"N", 3, 9, 32, 16}};
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(outcome.addresses == (Addresses{0, 112, 112, 0, 176}), boost::test_tools::per_element());
  const std::vector<npu::LiveRange> empty{{"a", 0, 3, 0, 16}, {"b", 1, 2, 0, 16}};
  BOOST_TEST(allocation::allocateByHillClimb(empty).addresses == (Addresses{0, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(alignment_one_packs_ranges_byte_by_byte) {
  const std::vector<npu::LiveRange> ranges{{"a", 0, 1, 3, 1}, {"b", 0, 1, 5, 1}, {"c", 1, 1, 7, 1}};
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(npu::allocationPeak(ranges, outcome.addresses) == 15);
  BOOST_TEST(npu::verifyAllocation(ranges, outcome.addresses).empty());
}

BOOST_AUTO_TEST_CASE(far_apart_time_indices_cost_no_memory) {
  constexpr std::int64_t kLate = std::int64_t{1} << 60;
  const std::vector<npu::LiveRange> ranges{{"a", 0, kLate, 32, 16}, {"b", kLate, kLate, 32, 16}, {"c", 5, 5, 16, 16}};
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(outcome.lowerBound == 64);
  BOOST_TEST(npu::verifyAllocation(ranges, outcome.addresses).empty());
}

BOOST_AUTO_TEST_CASE(huge_ranges_live_together_stack_up_to_the_last_64_bit_address) {
  const std::vector<npu::LiveRange> ranges(3, npu::LiveRange{"huge", 0, 0, kQuarterOfTheAddressSpace, 16});
  const auto outcome = allocation::allocateByHillClimb(ranges);
  BOOST_TEST(outcome.addresses == (Addresses{0, kQuarterOfTheAddressSpace, 2 * kQuarterOfTheAddressSpace}),
             boost::test_tools::per_element());
  BOOST_TEST(outcome.lowerBound == 3 * kQuarterOfTheAddressSpace);
}

BOOST_AUTO_TEST_CASE(ranges_live_together_beyond_64_bits_are_a_compile_error) {
  const std::vector<npu::LiveRange> ranges(4, npu::LiveRange{"huge", 0, 0, kQuarterOfTheAddressSpace, 16});
  try {
    static_cast<void>(allocation::allocateByHillClimb(ranges));
    BOOST_FAIL("expected an error");
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Compile));
  }
}

BOOST_AUTO_TEST_CASE(no_ranges_give_no_addresses) {
  const auto outcome = allocation::allocateByHillClimb({});
  BOOST_TEST(outcome.addresses.empty());
  BOOST_TEST(outcome.iterations == 0);
}

BOOST_AUTO_TEST_CASE(a_negative_iteration_count_is_a_config_error) {
  const std::vector<npu::LiveRange> ranges{{"a", 0, 0, 16, 16}};
  BOOST_CHECK_THROW(static_cast<void>(allocation::allocateByHillClimb(ranges, {.maxIterations = -1, .memoryLimit = 0})),
                    npu::Error);
}

BOOST_AUTO_TEST_SUITE_END()
