// SPDX-License-Identifier: Apache-2.0
// Expected addresses follow tensor_allocation.py linear_allocate_live_ranges: each range at the running
// total, which grows by the range's size rounded up to the allocation granularity.
#include "allocator_common/linear_allocation.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

namespace {
using Addresses = std::vector<std::int64_t>;
constexpr std::int64_t kQuarterOfTheAddressSpace = std::int64_t{1} << 61;
} // namespace

BOOST_AUTO_TEST_SUITE(linear_allocation)

BOOST_AUTO_TEST_CASE(ranges_sit_side_by_side_in_the_given_order_with_sizes_rounded_up) {
  const std::vector<npu::LiveRange> ranges{{"a", 0, 0, 100, 16}, {"b", 5, 9, 40, 16}, {"c", 0, 9, 16, 16}};
  const Addresses addresses = allocation::allocateLinearly(ranges);
  BOOST_TEST(addresses == (Addresses{0, 112, 160}), boost::test_tools::per_element());
  BOOST_TEST(npu::allocationPeak(ranges, addresses) == 176);
}

BOOST_AUTO_TEST_CASE(time_is_ignored_so_nothing_is_reused) {
  const std::vector<npu::LiveRange> ranges{{"early", 0, 0, 64, 16}, {"late", 7, 7, 64, 16}};
  BOOST_TEST(allocation::allocateLinearly(ranges) == (Addresses{0, 64}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(each_range_gets_its_own_alignment) {
  const std::vector<npu::LiveRange> ranges{{"byte", 0, 0, 1, 1}, {"odd", 0, 0, 3, 1}, {"wide", 0, 0, 8, 64}};
  const Addresses addresses = allocation::allocateLinearly(ranges);
  BOOST_TEST(addresses == (Addresses{0, 1, 64}), boost::test_tools::per_element());
  BOOST_TEST(npu::verifyAllocation(ranges, addresses).empty());
}

BOOST_AUTO_TEST_CASE(zero_size_ranges_take_no_space) {
  const std::vector<npu::LiveRange> ranges{{"a", 0, 0, 0, 16}, {"b", 0, 0, 32, 16}, {"c", 0, 0, 0, 16}};
  BOOST_TEST(allocation::allocateLinearly(ranges) == (Addresses{0, 0, 32}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(no_ranges_give_no_addresses) {
  BOOST_TEST(allocation::allocateLinearly({}).empty());
}

BOOST_AUTO_TEST_CASE(huge_ranges_are_placed_up_to_the_last_64_bit_address) {
  const std::vector<npu::LiveRange> ranges(3, npu::LiveRange{"huge", 0, 0, kQuarterOfTheAddressSpace, 16});
  const Addresses addresses = allocation::allocateLinearly(ranges);
  BOOST_TEST(addresses == (Addresses{0, kQuarterOfTheAddressSpace, 2 * kQuarterOfTheAddressSpace}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ranges_beyond_the_64_bit_address_space_are_a_compile_error) {
  const std::vector<npu::LiveRange> ranges(4, npu::LiveRange{"huge", 0, 0, kQuarterOfTheAddressSpace, 16});
  BOOST_CHECK_THROW(static_cast<void>(allocation::allocateLinearly(ranges)), npu::Error);
}

BOOST_AUTO_TEST_CASE(invalid_ranges_are_refused) {
  const std::vector<npu::LiveRange> ranges{{"reversed", 3, 2, 16, 16}};
  BOOST_CHECK_THROW(static_cast<void>(allocation::allocateLinearly(ranges)), npu::Error);
}

BOOST_AUTO_TEST_SUITE_END()
