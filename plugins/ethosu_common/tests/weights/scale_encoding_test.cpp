// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/scale_encoding.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

using ethosu::weights::appendBiasAndScale;
using ethosu::weights::QuantisedScale;
using ethosu::weights::quantiseScale;
using ethosu::weights::reducedQuantiseScale;

BOOST_AUTO_TEST_SUITE(scale_encoding)

BOOST_AUTO_TEST_CASE(scales_become_a_31_bit_significand_and_a_shift) {
  BOOST_TEST((quantiseScale(0.5) == QuantisedScale{1LL << 30, 31}));
  BOOST_TEST((quantiseScale(1.0) == QuantisedScale{1LL << 30, 30}));
  BOOST_TEST((quantiseScale(0.75) == QuantisedScale{3LL << 29, 31}));
  // 0.1 = 0.8 * 2^-3; 0.8 * 2^31 = 1717986918.4 rounds to 1717986918.
  BOOST_TEST((quantiseScale(0.1) == QuantisedScale{1717986918, 34}));
}

BOOST_AUTO_TEST_CASE(scales_whose_shift_does_not_fit_six_bits_become_zero) {
  BOOST_TEST((quantiseScale(1e12) == QuantisedScale{0, 16}));
  BOOST_TEST((quantiseScale(1e-30) == QuantisedScale{0, 16}));
}

BOOST_AUTO_TEST_CASE(reduced_scales_keep_sixteen_bits_and_sixteen_less_shift) {
  BOOST_TEST((reducedQuantiseScale(0.5) == QuantisedScale{1 << 14, 15}));
  // A significand that rounds up to 2^31 saturates at 32767.
  BOOST_TEST(reducedQuantiseScale(0.99999999).multiplier == 32767);
}

BOOST_AUTO_TEST_CASE(bias_and_scale_pack_into_ten_little_endian_bytes) {
  std::vector<std::uint8_t> stream;
  appendBiasAndScale(stream, -2, QuantisedScale{0x40302010, 31});
  const std::vector<std::uint8_t> expected{0xfe, 0xff, 0xff, 0xff, 0xff, 0x10, 0x20, 0x30, 0x40, 0x1f};
  BOOST_TEST(stream == expected, boost::test_tools::per_element());
  appendBiasAndScale(stream, (1LL << 39) - 1, QuantisedScale{0xffffffffLL, 63});
  BOOST_TEST(stream.size() == 20U);
  BOOST_TEST(stream[14] == 0x7f);
  BOOST_TEST(stream[19] == 0x3f);
}

BOOST_AUTO_TEST_CASE(values_outside_their_fields_are_refused) {
  std::vector<std::uint8_t> stream;
  BOOST_CHECK_THROW(appendBiasAndScale(stream, 1LL << 39, QuantisedScale{1, 1}), npu::Error);
  BOOST_CHECK_THROW(appendBiasAndScale(stream, 0, QuantisedScale{1LL << 32, 1}), npu::Error);
  BOOST_CHECK_THROW(appendBiasAndScale(stream, 0, QuantisedScale{1, -1}), npu::Error);
}

BOOST_AUTO_TEST_SUITE_END()
