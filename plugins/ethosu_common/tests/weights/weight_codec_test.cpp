// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_codec.hpp"

#include "codec_workspace.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using ethosu::weights::decodeWeightStream;
using ethosu::weights::encodeWeightStream;

namespace {

using Weights = std::vector<std::int16_t>;

void checkRoundTrip(const Weights& weights) {
  const std::vector<std::uint8_t> stream = encodeWeightStream(weights);
  BOOST_TEST(stream.size() % 16 == 0);
  // The size-only path the schedulers use makes the same decisions as the encoder.
  BOOST_TEST(ethosu::weights::encodedWeightStreamSize(weights) == static_cast<std::int64_t>(stream.size()));
  // So does the plan they keep, and the stream written from it is the same.
  ethosu::weights::detail::CodecWorkspace workspace;
  const ethosu::weights::detail::StreamPlan plan = ethosu::weights::detail::planWeightStream(weights, workspace);
  BOOST_TEST(plan.bytes == static_cast<std::int64_t>(stream.size()));
  std::vector<std::uint8_t> replayed{0xab}; // appended after what is there
  ethosu::weights::detail::appendPlannedWeightStream(weights, plan, workspace, replayed);
  BOOST_TEST(std::vector<std::uint8_t>(replayed.begin() + 1, replayed.end()) == stream,
             boost::test_tools::per_element());
  const Weights decoded = decodeWeightStream(stream);
  BOOST_TEST(decoded == weights, boost::test_tools::per_element());
}

Weights randomWeights(std::mt19937& random, std::size_t count, int spread, double zeroShare) {
  std::normal_distribution<double> normal(0.0, spread);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Weights weights(count);
  for (auto& weight : weights) {
    const auto value = static_cast<int>(std::lround(normal(random)));
    weight = uniform(random) < zeroShare ? std::int16_t{0} : static_cast<std::int16_t>(std::clamp(value, -255, 255));
  }
  return weights;
}

} // namespace

BOOST_AUTO_TEST_SUITE(weight_codec)

BOOST_AUTO_TEST_CASE(a_single_zero_gives_the_hand_derived_stream) {
  // Slice header: ZDIV 0, SLICELEN 0, WDIV 0, WTRUNC 0, NEWPAL 1 (bit 22), DIROFS/PALSIZE/PALBITS 0.
  // One chunk: WUNARY0 = 1 (bit 36; the zero is coded as direct symbol 1), ZUNARY = 0 (12 bits),
  // WUNARY1 = 0 (1 bit); remainders are 0 bits wide. End marker 111 at bits 61..63, then 0xff padding.
  const std::vector<std::uint8_t> expected{0x00, 0x00, 0x40, 0x00, 0x10, 0x00, 0x00, 0xe0,
                                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  const std::vector<std::uint8_t> stream = encodeWeightStream(Weights{0});
  BOOST_TEST(stream == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_thousand_zeros_take_one_zero_run_of_32_bytes) {
  // The first zero is a symbol, the other 999 one run with ZDIV 3: 36 header bits, a first chunk of
  // 12 + 8 + 1 bits, 15 more run chunks of 8 bits, two 3-bit remainders: 183 bits, end marker, 16-byte
  // padding.
  const Weights zeros(1000, 0);
  const std::vector<std::uint8_t> stream = encodeWeightStream(zeros);
  BOOST_TEST(stream.size() == 32U);
  BOOST_TEST(decodeWeightStream(stream) == zeros, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_empty_input_gives_an_empty_stream) {
  BOOST_TEST(encodeWeightStream(Weights{}).empty());
  BOOST_TEST(ethosu::weights::encodedWeightStreamSize(Weights{}) == 0);
  BOOST_TEST(decodeWeightStream(std::vector<std::uint8_t>{}).empty());
}

BOOST_AUTO_TEST_CASE(structured_inputs_round_trip) {
  checkRoundTrip(Weights(1, 0));
  checkRoundTrip(Weights(5000, 0));
  checkRoundTrip(Weights(777, 1));
  checkRoundTrip(Weights(777, -255));
  checkRoundTrip(Weights(40000, 17)); // longer than one slice
  Weights fullRange;
  for (int value = -255; value <= 255; ++value) {
    fullRange.push_back(static_cast<std::int16_t>(value));
  }
  checkRoundTrip(fullRange);
  Weights longRuns(70000, 0);
  for (std::size_t index = 0; index < longRuns.size(); index += 9973) {
    longRuns[index] = static_cast<std::int16_t>(index % 2 == 0 ? 3 : -200);
  }
  checkRoundTrip(longRuns);
  Weights alternating;
  for (int index = 0; index < 3000; ++index) {
    alternating.push_back(static_cast<std::int16_t>((index / 7) % 2 == 0 ? 255 : -255));
  }
  checkRoundTrip(alternating);
}

BOOST_AUTO_TEST_CASE(random_inputs_round_trip) {
  std::mt19937 random(2024);
  for (int round = 0; round < 60; ++round) {
    const auto count = static_cast<std::size_t>(1 + random() % 6000);
    const int spread = 1 + static_cast<int>(random() % 80);
    const double zeroShare = static_cast<double>(random() % 100) / 100.0;
    checkRoundTrip(randomWeights(random, count, spread, zeroShare));
  }
}

BOOST_AUTO_TEST_CASE(a_palette_makes_few_distinct_values_cheaper_than_many) {
  std::mt19937 random(7);
  Weights fewValues(4096);
  for (auto& weight : fewValues) {
    weight = static_cast<std::int16_t>(static_cast<int>(random() % 4) * 40 - 60);
  }
  Weights manyValues(4096);
  for (auto& weight : manyValues) {
    weight = static_cast<std::int16_t>(static_cast<int>(random() % 511) - 255);
  }
  // Four values need 2-bit indices; uniform 9-bit values cannot be compressed below ~9 bits each.
  BOOST_TEST(encodeWeightStream(fewValues).size() < 4096U * 3 / 8 + 64);
  BOOST_TEST(encodeWeightStream(manyValues).size() > 4096U * 8 / 8);
}

BOOST_AUTO_TEST_CASE(weights_outside_nine_bits_are_refused) {
  BOOST_CHECK_THROW(static_cast<void>(encodeWeightStream(Weights{0, 256})), npu::Error);
  BOOST_CHECK_THROW(static_cast<void>(encodeWeightStream(Weights{-256})), npu::Error);
}

BOOST_AUTO_TEST_CASE(a_weight_outside_nine_bits_is_refused_wherever_it_is_in_a_longer_stream) {
  // The range check takes eight weights at a time and the rest one by one: every position of both.
  for (std::size_t position = 0; position < 21; ++position) {
    for (const std::int16_t outside : {std::int16_t{256}, std::int16_t{-256}}) {
      Weights weights(21, 3);
      weights[position] = outside;
      BOOST_CHECK_THROW(static_cast<void>(encodeWeightStream(weights)), npu::Error);
    }
  }
  Weights extremes(21, 255);
  extremes[9] = -255;
  BOOST_CHECK_NO_THROW(static_cast<void>(encodeWeightStream(extremes)));
}

BOOST_AUTO_TEST_CASE(truncated_and_damaged_streams_are_refused) {
  const std::vector<std::uint8_t> stream = encodeWeightStream(Weights(100, 5));
  const std::vector<std::uint8_t> truncated(stream.begin(), stream.begin() + 3);
  BOOST_CHECK_THROW(static_cast<void>(decodeWeightStream(truncated)), npu::Error);
  std::vector<std::uint8_t> noPalette = stream;
  noPalette[2] = static_cast<std::uint8_t>(noPalette[2] & ~0x40U); // clear NEWPAL of the first slice
  BOOST_CHECK_THROW(static_cast<void>(decodeWeightStream(noPalette)), npu::Error);
}

BOOST_AUTO_TEST_CASE(concatenated_streams_decode_to_the_concatenated_weights) {
  const Weights first(300, -4);
  const Weights second{1, 2, 3, 0, 0, 0, 9};
  std::vector<std::uint8_t> stream = encodeWeightStream(first);
  const std::vector<std::uint8_t> tail = encodeWeightStream(second);
  stream.insert(stream.end(), tail.begin(), tail.end());
  Weights expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  BOOST_TEST(decodeWeightStream(stream) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
