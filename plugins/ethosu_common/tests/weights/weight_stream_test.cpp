// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_stream.hpp"

#include "ethosu/weights/weight_codec.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <numeric>
#include <string>

using namespace ethosu::weights;

namespace {

WeightStreamInput convolution(int ofmDepth, int kernel, int ifmDepth) {
  WeightStreamInput input;
  input.weights = WeightVolume{ofmDepth, kernel, kernel, ifmDepth, {}};
  input.weights.values.resize(static_cast<std::size_t>(input.weights.elements()));
  for (std::size_t index = 0; index < input.weights.values.size(); ++index) {
    input.weights.values[index] = static_cast<std::int16_t>(static_cast<int>(index * 37 % 201) - 100);
  }
  input.traversal = WeightTraversal::DepthFirst;
  input.biases.assign(static_cast<std::size_t>(ofmDepth), 5);
  input.scales.push_back(quantiseScale(0.25));
  return input;
}

/// The OFM channels first, first + step, ... below `end` of a volume, copied out.
WeightVolume channels(const WeightVolume& volume, int first, int end, int step = 1) {
  WeightVolume part;
  part.kernelHeight = volume.kernelHeight;
  part.kernelWidth = volume.kernelWidth;
  part.ifmDepth = volume.ifmDepth;
  const auto channelSize = static_cast<std::ptrdiff_t>(volume.kernelHeight * volume.kernelWidth * volume.ifmDepth);
  for (int ofm = first; ofm < std::min(end, volume.ofmDepth); ofm += step) {
    const auto begin = volume.values.begin() + ofm * channelSize;
    part.values.insert(part.values.end(), begin, begin + channelSize);
    ++part.ofmDepth;
  }
  return part;
}

std::int64_t weightBytes(const WeightStreamInput& input, int first, int end, int blockDepth, int core = 0,
                         int cores = 1) {
  ReorderParameters parameters;
  parameters.ofmBlockDepth = blockDepth;
  parameters.traversal = input.traversal;
  const WeightVolume part = channels(channels(input.weights, first, end), core, end - first, cores);
  return static_cast<std::int64_t>(encodeWeightStream(reorderWeights(part, parameters)).size());
}

} // namespace

BOOST_AUTO_TEST_SUITE(weight_stream)

BOOST_AUTO_TEST_CASE(one_slice_holds_padded_scales_then_the_compressed_weights) {
  const WeightStreamInput input = convolution(20, 3, 16);
  const std::vector<int> slices{0, 20};
  const npu::EncodedWeights encoded = encodeWeightsAndScales(input, WeightEncoderConfig{}, 16, slices, true);
  BOOST_TEST(encoded.scaleBytes == 208); // 20 x 10 bytes padded to 16
  BOOST_TEST(encoded.totalBytes == 208 + weightBytes(input, 0, 20, 16));
  BOOST_TEST(encoded.stream.size() == static_cast<std::size_t>(encoded.totalBytes));
  BOOST_REQUIRE(encoded.slices.size() == 1U);
  BOOST_TEST(encoded.slices[0].coreBytes == std::vector<std::int64_t>{encoded.totalBytes});
  // The stream starts with the first bias (5) and ends with the weights, which decode again.
  BOOST_TEST(encoded.stream[0] == 5);
  const std::vector<std::uint8_t> weightsPart(encoded.stream.begin() + 208, encoded.stream.end());
  BOOST_TEST(!decodeWeightStream(weightsPart).empty());
}

BOOST_AUTO_TEST_CASE(depth_slices_are_encoded_one_after_another_at_16_byte_offsets) {
  const WeightStreamInput input = convolution(48, 1, 32);
  const std::vector<int> slices{0, 16, 32, 48};
  const npu::EncodedWeights encoded = encodeWeightsAndScales(input, WeightEncoderConfig{}, 16, slices, false);
  BOOST_REQUIRE(encoded.slices.size() == 3U);
  std::int64_t offset = 0;
  for (std::size_t index = 0; index < 3; ++index) {
    const npu::EncodedWeightSlice& slice = encoded.slices[index];
    BOOST_TEST(slice.offset == offset);
    BOOST_TEST(slice.offset % 16 == 0);
    BOOST_TEST(slice.depthStart == slices[index]);
    BOOST_TEST(slice.bytes == 160 + weightBytes(input, slices[index], slices[index + 1], 16));
    offset += slice.bytes;
  }
  BOOST_TEST(encoded.totalBytes == offset);
  BOOST_TEST(encoded.stream.empty());
  const std::array<std::int64_t, 2> halves = doubleBufferSizes(encoded);
  BOOST_TEST(halves[0] == std::max(encoded.slices[0].bytes, encoded.slices[2].bytes));
  BOOST_TEST(halves[1] == encoded.slices[1].bytes);
}

BOOST_AUTO_TEST_CASE(two_cores_take_alternate_ofm_channels_and_half_the_block_depth) {
  const WeightStreamInput input = convolution(32, 3, 8);
  WeightEncoderConfig config;
  config.cores = 2;
  const std::vector<int> slices{0, 32};
  const npu::EncodedWeights encoded = encodeWeightsAndScales(input, config, 16, slices, false);
  BOOST_REQUIRE(encoded.slices.size() == 1U);
  const npu::EncodedWeightSlice& slice = encoded.slices[0];
  BOOST_REQUIRE(slice.coreBytes.size() == 2U);
  for (int core = 0; core < 2; ++core) {
    BOOST_TEST(slice.coreScaleBytes[static_cast<std::size_t>(core)] == 160);
    BOOST_TEST(slice.coreBytes[static_cast<std::size_t>(core)] == 160 + weightBytes(input, 0, 32, 8, core, 2));
  }
  BOOST_TEST(encoded.totalBytes == slice.coreBytes[0] + slice.coreBytes[1]);
}

BOOST_AUTO_TEST_CASE(the_second_core_takes_a_scale_past_an_odd_slice_as_the_reference_does) {
  const WeightStreamInput input = convolution(32, 1, 8);
  WeightEncoderConfig config;
  config.cores = 2;
  const std::vector<int> slices{0, 15, 32};
  const npu::EncodedWeights encoded = encodeWeightsAndScales(input, config, 16, slices, false);
  // Channels 0..14: core 0 has 0, 2, ..., 14 (8 scales), core 1 has 1, 3, ..., 15 (8 scales, one of
  // them from the next slice) but only 7 channels of weights.
  BOOST_TEST(encoded.slices[0].coreScaleBytes[0] == 80);
  BOOST_TEST(encoded.slices[0].coreScaleBytes[1] == 80);
}

BOOST_AUTO_TEST_CASE(a_core_without_block_depth_gets_nothing) {
  const WeightStreamInput input = convolution(8, 1, 8);
  WeightEncoderConfig config;
  config.cores = 2;
  const std::vector<int> slices{0, 8};
  const npu::EncodedWeights encoded = encodeWeightsAndScales(input, config, 1, slices, false);
  BOOST_TEST(encoded.slices[0].coreBytes[1] == 0);
  BOOST_TEST(encoded.totalBytes == encoded.slices[0].coreBytes[0]);
}

BOOST_AUTO_TEST_CASE(slices_encoded_in_parallel_give_the_same_bytes_and_the_first_failing_slice_error) {
  const WeightStreamInput input = convolution(64, 3, 16);
  const std::vector<int> slices{0, 16, 32, 48, 64};
  const npu::EncodedWeights sliced = encodeWeightsAndScales(input, WeightEncoderConfig{}, 16, slices, true);
  // Every slice's bytes are what encoding that slice alone gives, at its offset.
  for (std::size_t index = 0; index + 1 < slices.size(); ++index) {
    const std::vector<int> alone{0, 16};
    WeightStreamInput part = input;
    part.weights = channels(input.weights, slices[index], slices[index + 1]);
    part.biases.assign(16, 5);
    const npu::EncodedWeights single = encodeWeightsAndScales(part, WeightEncoderConfig{}, 16, alone, true);
    const auto offset = static_cast<std::ptrdiff_t>(sliced.slices[index].offset);
    BOOST_TEST(std::equal(single.stream.begin(), single.stream.end(), sliced.stream.begin() + offset));
  }
  // Weights outside -255..255 in several slices: the error names the first slice's weight.
  WeightStreamInput bad = input;
  const std::size_t channel = static_cast<std::size_t>(3 * 3 * 16);
  bad.weights.values[20 * channel] = 300; // slice 1
  bad.weights.values[50 * channel] = 400; // slice 3
  try {
    static_cast<void>(encodeWeightsAndScales(bad, WeightEncoderConfig{}, 16, slices, false));
    BOOST_FAIL("weights outside the encodable range must be refused");
  } catch (const npu::Error& error) {
    BOOST_TEST(std::string(error.what()).find("weight 300") != std::string::npos, error.what());
  }
}

BOOST_AUTO_TEST_CASE(bad_depth_slices_are_refused) {
  const WeightStreamInput input = convolution(16, 1, 8);
  for (const std::vector<int>& slices : {std::vector<int>{0}, std::vector<int>{0, 0}, std::vector<int>{0, 17},
                                         std::vector<int>{16, 20}}) {
    BOOST_CHECK_THROW(static_cast<void>(encodeWeightsAndScales(input, WeightEncoderConfig{}, 16, slices, false)),
                      npu::Error);
  }
}

BOOST_AUTO_TEST_CASE(shallow_or_small_kernels_use_part_kernel_first) {
  BOOST_TEST((chooseConvolutionTraversal(3, 3, 3, 8) == WeightTraversal::PartKernelFirst));
  BOOST_TEST((chooseConvolutionTraversal(1, 1, 64, 8) == WeightTraversal::DepthFirst));
  BOOST_TEST((chooseConvolutionTraversal(3, 3, 64, 8) == WeightTraversal::DepthFirst));
  // 3x3 over 16 channels: depth-first uses 16/32, part-kernel-first 9/12 of the multipliers.
  BOOST_TEST((chooseConvolutionTraversal(3, 3, 16, 8) == WeightTraversal::PartKernelFirst));
  BOOST_TEST((chooseConvolutionTraversal(3, 3, 16, 16) == WeightTraversal::DepthFirst)); // 16/16 vs 9/10
}

BOOST_AUTO_TEST_SUITE_END()
