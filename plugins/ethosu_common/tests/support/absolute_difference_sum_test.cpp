// SPDX-License-Identifier: Apache-2.0
// The weights-limit constraint's sum of |weight - zero point| (absolute_difference_sum.hpp) against a
// plain sum, for every 8-bit value, zero points in and out of the values' range, and lengths around
// the 16 values the vector sum takes at a time.

#include "absolute_difference_sum.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <span>
#include <vector>

namespace {

template <typename T>
std::int64_t plainSum(const std::vector<T>& values, std::int64_t zero) {
  std::int64_t sum = 0;
  for (const T value : values) {
    sum += std::abs(static_cast<std::int64_t>(value) - zero);
  }
  return sum;
}

template <typename T>
void checkAgainstPlainSum(std::int64_t lowestZero, std::int64_t highestZero) {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::size_t length : {0U, 1U, 15U, 16U, 17U, 31U, 32U, 33U, 1000U}) {
    std::vector<T> values(length);
    for (T& value : values) {
      value = static_cast<T>(static_cast<std::uint8_t>(byte(random)));
    }
    for (std::int64_t zero = lowestZero; zero <= highestZero; ++zero) {
      BOOST_TEST(ethosu::support::kernel::absoluteDifferenceSum(std::span<const T>(values), zero) ==
                     plainSum(values, zero),
                 "length " << length << ", zero point " << zero);
    }
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(absolute_difference_sum)

BOOST_AUTO_TEST_CASE(signed_8_bit_weights_sum_as_one_by_one_for_zero_points_in_and_out_of_their_range) {
  checkAgainstPlainSum<std::int8_t>(-300, 300);
}

BOOST_AUTO_TEST_CASE(unsigned_8_bit_weights_sum_as_one_by_one_for_zero_points_in_and_out_of_their_range) {
  checkAgainstPlainSum<std::uint8_t>(-50, 300);
}

BOOST_AUTO_TEST_CASE(the_extreme_values_sum_exactly) {
  const std::vector<std::int8_t> lowest(100, -128);
  BOOST_TEST(ethosu::support::kernel::absoluteDifferenceSum(std::span<const std::int8_t>(lowest), 127) == 25500);
  const std::vector<std::uint8_t> highest(100, 255);
  BOOST_TEST(ethosu::support::kernel::absoluteDifferenceSum(std::span<const std::uint8_t>(highest), 0) == 25500);
}

BOOST_AUTO_TEST_SUITE_END()
