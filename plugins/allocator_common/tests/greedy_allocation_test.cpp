// SPDX-License-Identifier: Apache-2.0
// Expected addresses are worked out by hand from greedy_allocation.py (GreedyAllocator) and agree with
// Vela 3.10's own code run on the same ranges.
#include "allocator_common/greedy_allocation.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <limits>
#include <vector>

namespace {
using Addresses = std::vector<std::int64_t>;
constexpr std::int64_t kQuarterOfTheAddressSpace = std::int64_t{1} << 61;
} // namespace

BOOST_AUTO_TEST_SUITE(greedy_allocation)

BOOST_AUTO_TEST_CASE(a_range_goes_into_the_tightest_gap_that_holds_it) {
  // At time 3 the live allocations are A [0,16), C [80,96), E [128,208): gaps of 64 and 32 bytes. G (32)
  // takes the 32-byte gap although the 64-byte one comes first; H (48) then takes the 64-byte gap.
  const std::vector<npu::LiveRange> ranges{{"A", 0, 5, 16, 16}, {"B", 0, 1, 64, 16}, {"C", 1, 5, 16, 16},
                                           {"D", 1, 2, 32, 16}, {"E", 2, 5, 80, 16}, {"G", 3, 5, 32, 16},
                                           {"H", 3, 5, 48, 16}};
  const Addresses addresses = allocation::allocateGreedily(ranges);
  BOOST_TEST(addresses == (Addresses{0, 16, 80, 96, 128, 96, 16}), boost::test_tools::per_element());
  BOOST_TEST(npu::allocationPeak(ranges, addresses) == 208);
  BOOST_TEST(npu::verifyAllocation(ranges, addresses).empty());
}

BOOST_AUTO_TEST_CASE(ranges_starting_together_go_longest_first_then_smallest_first) {
  // All four start at 0: "long" (ends 5) first, then by size "small" before "large"; "late" reuses 0.
  const std::vector<npu::LiveRange> ranges{
      {"large", 0, 1, 48, 16}, {"small", 0, 1, 16, 16}, {"long", 0, 5, 32, 16}, {"late", 2, 3, 64, 16}};
  BOOST_TEST(allocation::allocateGreedily(ranges) == (Addresses{48, 32, 0, 32}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ranges_that_all_overlap_are_stacked_honouring_each_alignment) {
  // Visiting order by size: z (1 byte) at 0, y at 32 (alignment 32), w at 128 (alignment 64), x on top.
  const std::vector<npu::LiveRange> ranges{
      {"x", 0, 3, 100, 16}, {"y", 0, 3, 40, 32}, {"z", 0, 3, 1, 1}, {"w", 0, 3, 64, 64}};
  const Addresses addresses = allocation::allocateGreedily(ranges);
  BOOST_TEST(addresses == (Addresses{192, 32, 0, 128}), boost::test_tools::per_element());
  BOOST_TEST(npu::verifyAllocation(ranges, addresses).empty());
}

BOOST_AUTO_TEST_CASE(ranges_never_live_together_share_address_zero) {
  const std::vector<npu::LiveRange> ranges{{"a", 0, 1, 64, 16}, {"b", 2, 3, 32, 16}, {"c", 4, 4, 128, 16}};
  BOOST_TEST(allocation::allocateGreedily(ranges) == (Addresses{0, 0, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_zero_size_range_sharing_an_address_does_not_reopen_the_bytes_below_it) {
  // A (0 bytes) lands at P's address. Vela's scan steps back from P's end to A's and puts N over P;
  // N must go on top instead.
  const std::vector<npu::LiveRange> ranges{
      {"P", 0, 9, 112, 16}, {"Q", 0, 0, 16, 16}, {"B", 1, 9, 64, 16}, {"A", 2, 9, 0, 16}, {"N", 3, 9, 32, 16}};
  const Addresses addresses = allocation::allocateGreedily(ranges);
  BOOST_TEST(addresses == (Addresses{0, 112, 112, 0, 176}), boost::test_tools::per_element());
  BOOST_TEST(npu::verifyAllocation(ranges, addresses).empty());
}

BOOST_AUTO_TEST_CASE(no_ranges_give_no_addresses) {
  BOOST_TEST(allocation::allocateGreedily({}).empty());
}

BOOST_AUTO_TEST_CASE(huge_ranges_live_together_stack_up_to_the_last_64_bit_address) {
  const std::vector<npu::LiveRange> ranges(3, npu::LiveRange{"huge", 0, 0, kQuarterOfTheAddressSpace, 16});
  const Addresses addresses = allocation::allocateGreedily(ranges);
  BOOST_TEST(addresses == (Addresses{0, kQuarterOfTheAddressSpace, 2 * kQuarterOfTheAddressSpace}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(huge_ranges_live_at_different_times_reuse_the_same_bytes) {
  const std::vector<npu::LiveRange> ranges{{"first", 0, 0, std::numeric_limits<std::int64_t>::max(), 1},
                                           {"second", 1, 1, std::numeric_limits<std::int64_t>::max(), 1}};
  BOOST_TEST(allocation::allocateGreedily(ranges) == (Addresses{0, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ranges_live_together_beyond_64_bits_are_a_compile_error) {
  const std::vector<npu::LiveRange> ranges(4, npu::LiveRange{"huge", 0, 0, kQuarterOfTheAddressSpace, 16});
  BOOST_CHECK_THROW(static_cast<void>(allocation::allocateGreedily(ranges)), npu::Error);
}

BOOST_AUTO_TEST_SUITE_END()
