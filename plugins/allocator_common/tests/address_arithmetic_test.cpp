// SPDX-License-Identifier: Apache-2.0
#include "allocator_common/address_arithmetic.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <limits>
#include <vector>

namespace {
constexpr std::int64_t kLargest = std::numeric_limits<std::int64_t>::max();
}

BOOST_AUTO_TEST_SUITE(address_arithmetic)

BOOST_AUTO_TEST_CASE(round_up_goes_to_the_next_multiple_and_keeps_multiples) {
  BOOST_TEST(static_cast<std::int64_t>(allocation::roundUp(0, 16)) == 0);
  BOOST_TEST(static_cast<std::int64_t>(allocation::roundUp(1, 16)) == 16);
  BOOST_TEST(static_cast<std::int64_t>(allocation::roundUp(32, 16)) == 32);
  BOOST_TEST(static_cast<std::int64_t>(allocation::roundUp(33, 1)) == 33);
}

BOOST_AUTO_TEST_CASE(round_up_beyond_64_bits_does_not_overflow) {
  const allocation::WideAddress rounded = allocation::roundUp(kLargest, 16);
  BOOST_TEST((rounded > kLargest));
  BOOST_TEST((rounded % 16 == 0));
}

BOOST_AUTO_TEST_CASE(addresses_that_fit_are_narrowed_unchanged) {
  const std::vector<npu::LiveRange> ranges{{"a", 0, 0, 16, 16}, {"b", 0, 0, 0, 16}};
  const std::vector<allocation::WideAddress> wide{kLargest - 16, kLargest};
  const auto narrowed = allocation::narrowAddresses(ranges, wide);
  BOOST_TEST(narrowed == (std::vector<std::int64_t>{kLargest - 16, kLargest}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_range_ending_beyond_64_bits_is_a_compile_error_naming_it) {
  const std::vector<npu::LiveRange> ranges{{"big", 0, 0, 32, 16}};
  const std::vector<allocation::WideAddress> wide{kLargest - 16};
  try {
    static_cast<void>(allocation::narrowAddresses(ranges, wide));
    BOOST_FAIL("expected an error");
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Compile));
    BOOST_TEST(error.message().find("'big'") != std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()
