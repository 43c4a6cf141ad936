// SPDX-License-Identifier: Apache-2.0
// The IFM box a kernel operation reads when its IFM is a part of a larger tensor (a SPLIT or
// STRIDED_SLICE whose read was moved into its reader): found within the part, then moved to it.
#include "stream/box.hpp"

#include <boost/test/unit_test.hpp>

using namespace ethosu::codegen;

BOOST_AUTO_TEST_SUITE(ifm_box)

BOOST_AUTO_TEST_CASE(a_strided_convolution_of_a_part_reads_from_the_part_start_not_the_offset_times_the_stride) {
  // random_425: a 1x1 stride-2 CONV_2D of width 4..22 of a [1, 16, 47, 26] input, OFM [1, 8, 9, 15].
  IfmBoxQuery query;
  query.strideY = 2;
  query.strideX = 2;
  query.skirt = std::array<int, 4>{0, 0, 0, 0};
  query.ifmShape = {1, 16, 47, 26};
  query.dotProduct = true;
  query.readOffset = npu::Shape4{0, 0, 4, 0};
  query.readShape = npu::Shape4{1, 16, 18, 26};
  const IfmBox result = ifmBoxFor(Box{{0, 0, 0, 0}, {1, 8, 9, 15}}, query);
  BOOST_TEST(result.box.str() == "<Box [0, 0, 4, 0] - [1, 16, 22, 26]>");
  BOOST_TEST(result.padTop == 0);
  BOOST_TEST(result.padBottom == 0);
}

BOOST_AUTO_TEST_CASE(a_padded_stripe_at_the_top_of_a_lower_part_is_padded_rather_than_reading_the_part_above) {
  // A 3x3 SAME depthwise convolution (skirt 1 on every side) of rows 8..16 of a [1, 16, 8, 4] tensor,
  // its OFM in two stripes of four rows: the first is padded at the part's top edge, the second at
  // its bottom edge, neither reads the other part's rows.
  IfmBoxQuery query;
  query.skirt = std::array<int, 4>{1, 1, 1, 1};
  query.ifmShape = {1, 16, 8, 4};
  query.dilatedKernelHeight = 3;
  query.readOffset = npu::Shape4{0, 8, 0, 0};
  query.readShape = npu::Shape4{1, 8, 8, 4};
  const IfmBox top = ifmBoxFor(Box{{0, 0, 0, 0}, {1, 4, 8, 4}}, query);
  BOOST_TEST(top.box.str() == "<Box [0, 8, 0, 0] - [1, 13, 8, 4]>");
  BOOST_TEST(top.padTop == 1);
  BOOST_TEST(top.padBottom == 0);
  const IfmBox bottom = ifmBoxFor(Box{{0, 4, 0, 0}, {1, 8, 8, 4}}, query);
  BOOST_TEST(bottom.box.str() == "<Box [0, 11, 0, 0] - [1, 16, 8, 4]>");
  BOOST_TEST(bottom.padTop == 0);
  BOOST_TEST(bottom.padBottom == 1);
}

BOOST_AUTO_TEST_CASE(a_stride_one_kernel_inside_its_part_reads_the_box_vela_reads) {
  // Width 2..10 of a [1, 6, 12, 8] tensor, a 3x3 VALID convolution: the box is the shifted OFM box
  // grown by the kernel, as Vela computes it.
  IfmBoxQuery query;
  query.skirt = std::array<int, 4>{0, 0, 2, 2};
  query.ifmShape = {1, 6, 12, 8};
  query.dotProduct = true;
  query.dilatedKernelHeight = 3;
  query.readOffset = npu::Shape4{0, 0, 2, 0};
  query.readShape = npu::Shape4{1, 6, 8, 8};
  const IfmBox result = ifmBoxFor(Box{{0, 0, 0, 0}, {1, 4, 6, 5}}, query);
  BOOST_TEST(result.box.str() == "<Box [0, 0, 2, 0] - [1, 6, 10, 8]>");
  BOOST_TEST(result.padTop == 0);
  BOOST_TEST(result.padBottom == 0);
}

BOOST_AUTO_TEST_SUITE_END()
