// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(pad_and_mean)

BOOST_AUTO_TEST_CASE(a_pad_before_a_valid_convolution_is_folded_into_explicit_hardware_padding) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId paddings = builder.constant("paddings", Shape{4, 2}, DataType::Int32, {0, 0, 1, 1, 1, 1, 0, 0});
  const TensorId padded = builder.featureMap("padded", Shape{1, 10, 10, 4});
  const TensorId out = builder.featureMap("conv", Shape{1, 8, 8, 4});
  builder.operation(OpType::Pad, "PAD", {in, paddings}, {padded});
  builder.conv(padded, out, 3, 1, Padding::Valid);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 1U);
  const Operation& conv = subgraph.operations[0];
  BOOST_TEST(conv.ifm() == in);
  BOOST_TEST(conv.padding == Padding::Explicit);
  BOOST_TEST(conv.explicitPadding == (ExplicitPadding{1, 1, 1, 1}));
}

BOOST_AUTO_TEST_CASE(a_pad_that_cannot_be_folded_becomes_avgpool_writes_of_the_input_and_the_borders) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 4});
  const TensorId paddings = builder.constant("paddings", Shape{4, 2}, DataType::Int32, {0, 0, 2, 0, 0, 3, 0, 0});
  const TensorId out = builder.featureMap("pad", Shape{1, 6, 7, 4});
  builder.operation(OpType::Pad, "PAD", {in, paddings}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) ==
             (std::vector<std::string>{"AvgPool:pad_main", "AvgPool:pad_top", "AvgPool:pad_right"}));
}

BOOST_AUTO_TEST_CASE(a_mean_over_height_and_width_becomes_a_depthwise_sum_and_a_scaling_mul) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 7, 7, 32});
  const TensorId axes = builder.constant("axes", Shape{2}, DataType::Int32, {1, 2});
  const TensorId out = builder.featureMap("Mean", Shape{1, 32});
  builder.operation(OpType::Mean, "MEAN", {in, axes}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) ==
             (std::vector<std::string>{"DepthwiseConv2DBias:MeanMean_conv_0", "Mul:Mean_mul"}));
}

BOOST_AUTO_TEST_SUITE_END()
