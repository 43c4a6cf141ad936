// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_reorder.hpp"

#include <boost/test/unit_test.hpp>

#include <numeric>

using ethosu::weights::ReorderParameters;
using ethosu::weights::reorderWeights;
using ethosu::weights::WeightTraversal;
using ethosu::weights::WeightVolume;

namespace {

/// Weights numbered 1, 2, ... in OHWI order, so that each output names its source position.
WeightVolume numbered(int ofmDepth, int height, int width, int ifmDepth) {
  WeightVolume volume{ofmDepth, height, width, ifmDepth, {}};
  volume.values.resize(static_cast<std::size_t>(volume.elements()));
  std::iota(volume.values.begin(), volume.values.end(), std::int16_t{1});
  return volume;
}

} // namespace

BOOST_AUTO_TEST_SUITE(weight_reorder)

BOOST_AUTO_TEST_CASE(depthwise_weights_run_over_kernel_positions_padded_to_four_then_channels) {
  const WeightVolume weights = numbered(8, 3, 3, 1);
  ReorderParameters parameters;
  parameters.traversal = WeightTraversal::Depthwise;
  parameters.ofmBlockDepth = 8;
  const std::vector<std::int16_t> order = reorderWeights(weights, parameters);
  BOOST_TEST(order.size() == 12U * 8U); // 9 positions padded to 12, 8 channels each
  for (int element = 0; element < 12; ++element) {
    for (int channel = 0; channel < 8; ++channel) {
      const std::int16_t expected = element < 9 ? weights.at(channel, element / 3, element % 3, 0) : std::int16_t{0};
      BOOST_TEST(order[static_cast<std::size_t>(element * 8 + channel)] == expected);
    }
  }
}

BOOST_AUTO_TEST_CASE(depth_first_reads_whole_32_deep_ifm_blocks_in_8x8_micro_blocks) {
  const WeightVolume weights = numbered(2, 1, 1, 3);
  ReorderParameters parameters;
  parameters.ofmBlockDepth = 16;
  const std::vector<std::int16_t> order = reorderWeights(weights, parameters);
  BOOST_TEST(order.size() == 4U * 8U * 8U); // four IFM micro-blocks x 8 OFM x 8 IFM channels
  // First micro-block: OFM channel outer, IFM channel inner.
  BOOST_TEST(order[0] == weights.at(0, 0, 0, 0));
  BOOST_TEST(order[2] == weights.at(0, 0, 0, 2));
  BOOST_TEST(order[3] == 0);
  BOOST_TEST(order[8] == weights.at(1, 0, 0, 0));
  BOOST_TEST(order[16] == 0); // OFM channel 2 does not exist
  BOOST_TEST(std::count(order.begin(), order.end(), std::int16_t{0}) == 256 - 6);
}

BOOST_AUTO_TEST_CASE(part_kernel_first_pads_kernel_positions_to_four_for_8_bit_ifms) {
  const WeightVolume weights = numbered(1, 3, 3, 3);
  ReorderParameters parameters;
  parameters.traversal = WeightTraversal::PartKernelFirst;
  parameters.ofmBlockDepth = 8;
  const std::vector<std::int16_t> order = reorderWeights(weights, parameters);
  BOOST_TEST(order.size() == 12U * 8U * 8U); // 9 -> 12 positions, one IFM micro-block, 8 x 8 channels
  BOOST_TEST(order[0] == weights.at(0, 0, 0, 0));
  BOOST_TEST(order[64] == weights.at(0, 0, 1, 0)); // next kernel position after one 8x8 micro-block
  BOOST_TEST(order[9 * 64] == 0);                  // padding positions
  parameters.ifmBits = 16;
  BOOST_TEST(reorderWeights(weights, parameters).size() == 10U * 8U * 8U); // 9 -> 10 for 16-bit IFMs
}

BOOST_AUTO_TEST_CASE(dilation_two_splits_kernels_into_4x4_sub_kernels) {
  const WeightVolume weights = numbered(8, 5, 5, 1);
  ReorderParameters parameters;
  parameters.traversal = WeightTraversal::Depthwise;
  parameters.ofmBlockDepth = 8;
  BOOST_TEST(reorderWeights(weights, parameters).size() == 28U * 8U); // one 5x5 sub-kernel, 25 -> 28
  parameters.dilationX = 2;
  parameters.dilationY = 2;
  // Sub-kernels 4x4, 4x1, 1x4, 1x1: 16 + 4 + 4 + 4 (1 padded to 4) positions.
  BOOST_TEST(reorderWeights(weights, parameters).size() == 28U * 8U);
  const WeightVolume wide = numbered(8, 1, 9, 1);
  BOOST_TEST(reorderWeights(wide, parameters).size() == (4U + 4U + 4U) * 8U); // 4 + 4 + 1 -> 4, 4, 4
}

BOOST_AUTO_TEST_CASE(ofm_blocks_and_micro_blocks_follow_the_block_depth) {
  const WeightVolume weights = numbered(24, 1, 1, 8);
  ReorderParameters parameters;
  parameters.ofmBlockDepth = 16;
  const std::vector<std::int16_t> order = reorderWeights(weights, parameters);
  // Blocks of 16 and 8 OFM channels, each with one 32-deep IFM block.
  BOOST_TEST(order.size() == (16U + 8U) * 32U);
  BOOST_TEST(order[16 * 32] == weights.at(16, 0, 0, 0));
  // With 4-deep OFM micro-blocks (Ethos-U55-32) four OFM channels share each IFM micro-block.
  parameters.ofmMicroBlockDepth = 4;
  const std::vector<std::int16_t> narrow = reorderWeights(weights, parameters);
  BOOST_TEST(narrow.size() == order.size());
  BOOST_TEST(narrow[8] == weights.at(1, 0, 0, 0));
  BOOST_TEST(narrow[32] == 0); // IFM channels 8..15 of OFM channels 0..3
  BOOST_TEST(narrow[128] == weights.at(4, 0, 0, 0));
}

BOOST_AUTO_TEST_SUITE_END()
