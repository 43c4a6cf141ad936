// SPDX-License-Identifier: Apache-2.0
// Vela 2.1.1's constraints that 3.10 relaxed (checkVela21Restrictions): each case is an operation Vela
// 3.10 accepts and 2.1.1 refuses, next to one both accept.

#include "test_operations.hpp"

#include "ethosu/support/vela21_support.hpp"

namespace ethosu::test {
namespace {

SupportDiagnosis vela21(const TestGraph& g) {
  return checkVela21Restrictions(g.subgraph, g.subgraph.operation(g.op));
}

TestGraph resizeBilinear(int ifmSize, int ofmSize, bool alignCorners) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, ifmSize, ifmSize, 4});
  const auto size = g.constant("size", {2}, DataType::Int32, {ofmSize, ofmSize});
  const auto ofm = g.featureMap("ofm", {1, ofmSize, ofmSize, 4});
  auto& op = g.operation(OpType::ResizeBilinear, "RESIZE_BILINEAR", {ifm, size}, {ofm});
  op.attributes.set("align_corners", alignCorners);
  return g;
}

TestGraph meanOver(npu::Shape ifmShape, npu::Shape axisShape, std::vector<std::int64_t> axes, DataType type,
                   bool keepDims) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", std::move(ifmShape), type);
  const auto axisTensor = g.constant("axis", std::move(axisShape), DataType::Int32, axes);
  const auto ofm = g.featureMap("ofm", {1, 1, 1, 4}, type);
  g.subgraph.tensor(ofm).quantisation.scale = {0.25}; // other quantisation than the IFM: only set A holds
  auto& op = g.operation(OpType::Mean, "MEAN", {ifm, axisTensor}, {ofm});
  op.attributes.set("keep_dims", keepDims);
  return g;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela21_support)

BOOST_AUTO_TEST_CASE(operator_types_vela_2_1_does_not_know_are_cpu_only) {
  const SupportDiagnosis argMax = vela21(unary(OpType::ArgMax, "ARG_MAX"));
  BOOST_TEST(!argMax.supported);
  BOOST_TEST(argMax.constraint == "operator_type");
  BOOST_TEST(argMax.detail == "Op type is ARG_MAX");
  BOOST_TEST(!vela21(unary(OpType::Squeeze, "SQUEEZE")).supported);
  BOOST_TEST(vela21(unary(OpType::Abs, "ABS")).supported);
}

BOOST_AUTO_TEST_CASE(strides_above_three_are_refused_even_for_a_global_pool) {
  TestGraph global = pooling();
  global.the().kernel = kernelOf(8, 8, 8, 8); // kernel and stride cover the IFM: 3.10 judges it with stride 1
  global.tensor("ofm").shape = npu::Shape{1, 1, 1, 4};
  BOOST_TEST(global.diagnose().supported);
  const SupportDiagnosis strided = vela21(global);
  BOOST_TEST(!strided.supported);
  BOOST_TEST(strided.constraint == "stride_range");
  BOOST_TEST(strided.detail == "Op has stride WxH as: 8x8");
  BOOST_TEST(vela21(pooling()).supported);
  BOOST_TEST(vela21(convolution()).supported);
}

BOOST_AUTO_TEST_CASE(resize_bilinear_needs_repeated_doubling_but_any_number_of_steps) {
  BOOST_TEST(vela21(resizeBilinear(33, 513, true)).supported); // four 2x - 1 steps; 3.10 refuses it
  BOOST_TEST(vela21(resizeBilinear(4, 16, false)).supported);
  const SupportDiagnosis tripled = vela21(resizeBilinear(4, 12, false));
  BOOST_TEST(!tripled.supported);
  BOOST_TEST(tripled.constraint == "resize");
}

BOOST_AUTO_TEST_CASE(mean_needs_an_8_bit_input_and_both_height_and_width_in_an_axis_list) {
  BOOST_TEST(vela21(meanOver({1, 8, 8, 4}, {2}, {1, 2}, DataType::Int8, true)).supported);
  const SupportDiagnosis int16 = vela21(meanOver({1, 8, 8, 4}, {2}, {1, 2}, DataType::Int16, true));
  BOOST_TEST(int16.constraint == "input_8bit");
  // Other quantisation without keep_dims: neither of 2.1.1's two sets holds.
  BOOST_TEST(vela21(meanOver({1, 8, 8, 4}, {2}, {1, 2}, DataType::Int8, false)).constraint == "mean_properties");
  // int8 over H and W with keep_dims: at most 16 x 16.
  const SupportDiagnosis large = vela21(meanOver({1, 17, 16, 4}, {2}, {1, 2}, DataType::Int8, true));
  BOOST_TEST(large.constraint == "mean_height_width_product_int8");
  BOOST_TEST(large.detail == "Product of height and width is 272");
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
