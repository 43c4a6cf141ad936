// SPDX-License-Identifier: Apache-2.0
// Scale quantisation as Vela's scaling.py does it, and what a zero scale (an input fuzz_pipeline found)
// gives: a saturated value, never an infinite quotient converted to an integer.
#include "commands/scaling.hpp"

#include <boost/test/unit_test.hpp>

#include <limits>

using namespace ethosu::codegen;

BOOST_AUTO_TEST_SUITE(scaling)

BOOST_AUTO_TEST_CASE(a_value_is_quantised_in_single_precision_rounding_halves_away_from_zero) {
  BOOST_TEST(quantiseFloat32(6.0, 0.5, 3) == 15);
  BOOST_TEST(quantiseFloat32(-1.25, 0.5, 0) == -3);
  BOOST_TEST(quantiseFloat32(1.25, 0.5, 0) == 3);
}

BOOST_AUTO_TEST_CASE(a_zero_scale_saturates_instead_of_overflowing) {
  const std::int64_t positive = quantiseFloat32(6.0, 0.0, 3);
  const std::int64_t negative = quantiseFloat32(-6.0, 0.0, 3);
  BOOST_TEST(positive > std::int64_t{1} << 60);
  BOOST_TEST(negative < -(std::int64_t{1} << 60));
  BOOST_TEST(quantiseFloat32(0.0, 0.0, 7) == 7); // 0/0 is NaN: the zero point
}

BOOST_AUTO_TEST_CASE(a_scale_becomes_a_31_bit_multiplier_and_a_shift) {
  const FixedPointScale half = quantiseScale(0.5);
  BOOST_TEST(half.scale == std::int64_t{1} << 30);
  BOOST_TEST(half.shift == 31);
}

BOOST_AUTO_TEST_SUITE_END()
