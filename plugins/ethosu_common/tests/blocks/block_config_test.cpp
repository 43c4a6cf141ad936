// SPDX-License-Identifier: Apache-2.0
#include "ethosu/blocks/block_config.hpp"
#include "ethosu/config/system_config.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using ethosu::BlockSearchQuery;
using ethosu::NpuBlockType;
using npu::Shape4;

ethosu::Architecture architectureOf(std::string_view variantName) {
  const auto& variant = *ethosu::findVariant(variantName);
  return {variant, ethosu::buildMemorySystem(variant, ethosu::internalDefaultSystemConfig(variant),
                                             ethosu::internalDefaultMemoryMode(variant), std::nullopt)};
}

BlockSearchQuery convolution(Shape4 ifm, Shape4 ofm, npu::Kernel kernel, int ifmBits = 8) {
  BlockSearchQuery query;
  query.blockType = NpuBlockType::ConvolutionMxN;
  query.ifm = ifm;
  query.ofm = ofm;
  query.kernel = kernel;
  query.ifmBits = ifmBits;
  return query;
}

BlockSearchQuery elementwise(Shape4 shape, bool scalar) {
  BlockSearchQuery query;
  query.blockType = NpuBlockType::ElementWise;
  query.ifm = shape;
  query.ifm2 = scalar ? Shape4{1, 1, 1, 1} : shape;
  query.ofm = shape;
  query.usesScalar = scalar;
  return query;
}

} // namespace

BOOST_AUTO_TEST_SUITE(block_config)

BOOST_AUTO_TEST_CASE(a_u55_128_convolution_gets_vela_s_block_and_shram_layout) {
  const auto arch = architectureOf("ethos-u55-128");
  const auto config = ethosu::findBlockConfig(arch, convolution({1, 32, 32, 3}, {1, 32, 32, 16}, {3, 3}));
  BOOST_REQUIRE(config.has_value());
  BOOST_TEST(config->velaNotation() == (std::array<int, 4>{4, 32, 8, 16}));
  BOOST_TEST(config->ifmBlock == Shape4(1, 6, 34, 8));
  BOOST_TEST(config->partKernel); // IFM depth <= 8
  // IFM 6x34x8 bytes -> 2 banks, double buffered 4; accumulators 4x32x16x4 bytes -> 8, doubled 16.
  BOOST_TEST((config->layout == ethosu::ShramLayout{2, 6, 6, 6, 22}));
}

BOOST_AUTO_TEST_CASE(the_chosen_block_is_one_of_the_candidates_which_all_fit) {
  const auto arch = architectureOf("ethos-u65-256");
  const auto query = convolution({1, 56, 56, 64}, {1, 56, 56, 128}, {3, 3});
  const auto chosen = ethosu::findBlockConfig(arch, query);
  const auto candidates = ethosu::allBlockConfigs(arch, query);
  BOOST_REQUIRE(chosen.has_value());
  BOOST_TEST((std::find(candidates.begin(), candidates.end(), *chosen) != candidates.end()));
  for (const auto& candidate : candidates) {
    BOOST_TEST(ethosu::tryBlockConfig(arch, query, candidate.ofmBlock, candidate.partKernel).has_value());
    BOOST_TEST(candidate.ofmBlock.height % 2 == 0);
    BOOST_TEST(candidate.ofmBlock.width % 2 == 0);
  }
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    const auto& a = candidates[i - 1].ofmBlock;
    const auto& b = candidates[i].ofmBlock;
    BOOST_TEST((std::tuple(a.depth, a.height, a.width) < std::tuple(b.depth, b.height, b.width)));
  }
}

BOOST_AUTO_TEST_CASE(blocks_that_break_the_micro_block_or_the_maximum_are_refused) {
  const auto arch = architectureOf("ethos-u55-256");
  const auto query = convolution({1, 16, 16, 16}, {1, 16, 16, 16}, {1, 1});
  BOOST_TEST(!ethosu::tryBlockConfig(arch, query, {1, 3, 2, 16}, false).has_value());
  BOOST_TEST(!ethosu::tryBlockConfig(arch, query, {1, 2, 2, 12}, false).has_value());
  BOOST_TEST(!ethosu::tryBlockConfig(arch, query, {1, 34, 2, 16}, false).has_value());
  BOOST_TEST(ethosu::tryBlockConfig(arch, query, {1, 2, 2, 16}, false).has_value());
}

BOOST_AUTO_TEST_CASE(an_elementwise_scalar_operand_needs_no_ifm2_buffer) {
  const auto arch = architectureOf("ethos-u55-128");
  const auto full = ethosu::tryBlockConfig(arch, elementwise({1, 8, 8, 16}, false), {1, 4, 8, 16}, false);
  const auto scalar = ethosu::tryBlockConfig(arch, elementwise({1, 8, 8, 16}, true), {1, 4, 8, 16}, false);
  BOOST_REQUIRE(full.has_value());
  BOOST_REQUIRE(scalar.has_value());
  // Both IFM buffers end where the accumulators would start: elementwise has none.
  BOOST_TEST(full->layout.ifmEnd == full->layout.accumulatorStart);
  BOOST_TEST(scalar->layout.ifmEnd == scalar->layout.accumulatorStart);
  // A big block fits with a scalar operand but not with a full second IFM.
  const Shape4 shape{1, 16, 16, 64};
  const Shape4 big{1, 8, 16, 64}; // 8 KiB of IFM: 16 banks double buffered, of 20 between output and LUT
  BOOST_TEST(ethosu::tryBlockConfig(arch, elementwise(shape, true), big, false).has_value());
  BOOST_TEST(!ethosu::tryBlockConfig(arch, elementwise(shape, false), big, false).has_value());
}

BOOST_AUTO_TEST_CASE(a_lookup_table_takes_two_banks_only_on_the_small_variants) {
  auto query = convolution({1, 8, 8, 16}, {1, 8, 8, 16}, {1, 1});
  query.lutBanks = 2;
  const auto small = ethosu::tryBlockConfig(architectureOf("ethos-u55-64"), query, {1, 2, 2, 16}, false);
  const auto large = ethosu::tryBlockConfig(architectureOf("ethos-u55-128"), query, {1, 2, 2, 16}, false);
  BOOST_REQUIRE(small.has_value());
  BOOST_REQUIRE(large.has_value());
  BOOST_TEST(small->layout.lutStart == 14); // 16 banks, the LUT in the last two
  BOOST_TEST(large->layout.lutStart == 22); // 24 banks, the LUT in the two reserved end banks
  query.lutBanks = 0;
  BOOST_TEST(ethosu::tryBlockConfig(architectureOf("ethos-u55-64"), query, {1, 2, 2, 16}, false)->layout.lutStart ==
             16);
}

BOOST_AUTO_TEST_CASE(scaled_16_bit_operations_accumulate_in_40_bits_except_pooling) {
  using ethosu::ShramElement;
  BOOST_TEST((ethosu::accumulatorFor(NpuBlockType::ConvolutionMxN, 16, true) == ShramElement::Accumulator40));
  BOOST_TEST((ethosu::accumulatorFor(NpuBlockType::ConvolutionMxN, 16, false) == ShramElement::Accumulator32));
  BOOST_TEST((ethosu::accumulatorFor(NpuBlockType::Pooling, 16, true) == ShramElement::Accumulator32));
  BOOST_TEST((ethosu::accumulatorFor(NpuBlockType::ElementWise, 8, true) == ShramElement::Accumulator32));
  const auto arch = architectureOf("ethos-u55-128");
  const auto config = ethosu::findBlockConfig(arch, convolution({1, 16, 16, 32}, {1, 16, 16, 32}, {3, 3}, 16));
  BOOST_REQUIRE(config.has_value());
  BOOST_TEST(ethosu::accumulatorBits(config->accumulator) == 40);
  BOOST_TEST(config->ifmBlock.depth <= 16);
  BOOST_TEST(config->ifmBlock.depth % 4 == 0);
}

BOOST_AUTO_TEST_CASE(part_kernel_first_wins_only_when_it_uses_the_hardware_better) {
  BOOST_TEST(ethosu::choosePartKernel({1, 8, 8, 8}, 8, {3, 3}));
  BOOST_TEST(!ethosu::choosePartKernel({1, 8, 8, 64}, 8, {3, 3}));
  BOOST_TEST(ethosu::choosePartKernel({1, 8, 8, 17}, 8, {4, 4}));
}

BOOST_AUTO_TEST_CASE(the_ifm_area_follows_kernel_stride_dilation_and_upscaling) {
  const Shape4 ofm{1, 4, 6, 8};
  npu::Kernel kernel{3, 3, 2, 2, 2, 2}; // dilated extent 5
  BOOST_TEST(ethosu::ifmAreaRequired(ofm, kernel, npu::Resampling::None) == Shape4(1, 11, 15, 1));
  const npu::Kernel pointwise{1, 1};
  BOOST_TEST(ethosu::ifmAreaRequired({1, 8, 8, 8}, pointwise, npu::Resampling::Nearest) == Shape4(1, 5, 5, 1));
  BOOST_TEST(ethosu::ifmAreaRequired({1, 8, 8, 8}, pointwise, npu::Resampling::Transpose) == Shape4(1, 4, 4, 1));
}

BOOST_AUTO_TEST_CASE(upscaling_halves_the_ifm_block) {
  const auto arch = architectureOf("ethos-u55-128");
  BlockSearchQuery query;
  query.blockType = NpuBlockType::Pooling;
  query.ifm = {1, 8, 8, 16};
  query.ofm = {1, 16, 16, 16};
  query.resampling = npu::Resampling::Nearest;
  const auto config = ethosu::tryBlockConfig(arch, query, {1, 8, 8, 16}, false);
  BOOST_REQUIRE(config.has_value());
  BOOST_TEST(config->ifmBlock == Shape4(1, 5, 6, 16)); // ceil((7 + 1 + 1) / 2), rounded to the micro-block
}

BOOST_AUTO_TEST_CASE(single_row_outputs_use_the_conv1d_layout_on_the_256_mac_variants) {
  const auto arch = architectureOf("ethos-u65-256");
  const auto config = ethosu::findBlockConfig(arch, convolution({1, 1, 64, 32}, {1, 1, 64, 32}, {3, 1}));
  BOOST_REQUIRE(config.has_value());
  BOOST_TEST(config->ofmBlock.height == 2); // reported unfitted, laid out with height 1
}

BOOST_AUTO_TEST_CASE(the_framework_block_config_carries_the_whole_configuration) {
  const auto arch = architectureOf("ethos-u55-256");
  const auto config = ethosu::findBlockConfig(arch, convolution({1, 16, 16, 16}, {1, 16, 16, 32}, {3, 3}, 16));
  BOOST_REQUIRE(config.has_value());
  BOOST_TEST((ethosu::fromBlockConfig(ethosu::toBlockConfig(*config)) == *config));
}

BOOST_AUTO_TEST_SUITE_END()
