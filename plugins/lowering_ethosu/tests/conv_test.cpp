// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(convolutions)

BOOST_AUTO_TEST_CASE(a_one_by_one_convolution_on_a_single_pixel_becomes_a_fully_connected_layer) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 1, 1, 64});
  const TensorId out = builder.featureMap("logits", Shape{1, 1, 1, 10});
  builder.conv(in, out);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) == std::vector<std::string>{"FullyConnected:logits_fc"});
  BOOST_TEST(subgraph.tensor(subgraph.operations[0].weights()).shape == (Shape{10, 64}));
  BOOST_TEST(subgraph.tensor(subgraph.operations[0].weights()).purpose == TensorPurpose::Weights);
  BOOST_TEST(subgraph.tensor(subgraph.operations[0].bias()).purpose == TensorPurpose::ScalesBiases);
}

BOOST_AUTO_TEST_CASE(a_depthwise_convolution_with_a_multiplier_on_one_channel_becomes_a_convolution) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 10, 10, 1});
  const TensorId out = builder.featureMap("dw", Shape{1, 10, 10, 8});
  const TensorId weights = builder.weights("w", Shape{1, 3, 3, 8});
  const TensorId bias = builder.constant("b", Shape{8}, DataType::Int32, std::vector<std::int64_t>(8, 0));
  Operation& op = builder.operation(OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D", {in, weights, bias}, {out});
  op.attributes.set("depth_multiplier", std::int64_t{8});
  op.kernel = Kernel{3, 3, 1, 1, 1, 1};
  op.padding = Padding::Same;
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) == std::vector<std::string>{"Conv2DBias:dw"});
  BOOST_TEST(subgraph.tensor(subgraph.operations[0].weights()).shape == (Shape{8, 3, 3, 1}));
  BOOST_TEST(subgraph.operations[0].explicitPadding == (ExplicitPadding{1, 1, 1, 1}));
}

BOOST_AUTO_TEST_CASE(a_fully_connected_layer_reads_its_input_as_a_two_dimensional_view) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 2});
  const TensorId out = builder.featureMap("fc", Shape{1, 10});
  const TensorId weights = builder.weights("w", Shape{10, 32});
  builder.operation(OpType::FullyConnected, "FULLY_CONNECTED", {in, weights, kNoTensor}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Operation& fc = lowered.subgraphs.front().operations.front();
  BOOST_TEST(fc.ifmShapes[0] == (Shape4{1, 1, 1, 32}));
  BOOST_TEST(fc.bias() != kNoTensor); // Vela fixup_bias_tensors adds a zero bias
}

BOOST_AUTO_TEST_CASE(a_grouped_convolution_runs_as_one_convolution_per_group_reading_and_writing_at_offsets) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 16});
  const TensorId out = builder.featureMap("grouped", Shape{1, 8, 8, 8});
  // Weights OHWI with an input depth of 4: four groups of 4 input and 2 output channels.
  const TensorId weights = builder.weights("w", Shape{8, 3, 3, 4});
  const TensorId bias = builder.constant("b", Shape{8}, DataType::Int32, {0, 1, 2, 3, 4, 5, 6, 7});
  Operation& op = builder.operation(OpType::Conv2DBias, "CONV_2D", {in, weights, bias}, {out});
  op.kernel = Kernel{3, 3, 1, 1, 1, 1};
  op.padding = Padding::Same;
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  int convolutions = 0;
  int writes = 0;
  for (const Operation& conv : subgraph.operations) {
    if (conv.type == OpType::Conv2DBias) {
      ++convolutions;
      const int group = conv.name.back() - '0';
      BOOST_TEST(conv.name == "grouped_cg" + std::to_string(group));
      BOOST_TEST(conv.ifm() == subgraph.inputs.front()); // the split became a read at an offset
      BOOST_TEST(*conv.readOffsets[0] == (Shape4{0, 0, 0, 4 * group}));
      BOOST_TEST(subgraph.tensor(conv.weights()).shape == (Shape{2, 3, 3, 4}));
      BOOST_TEST(subgraph.tensor(conv.bias()).integerValues() == (std::vector<std::int64_t>{2 * group, 2 * group + 1}));
    } else {
      ++writes;
      BOOST_TEST(conv.attributes.getOr<std::string>("memory_function", "") == "ConcatSliceWrite");
    }
  }
  BOOST_TEST(convolutions == 4);
  BOOST_TEST(writes == 4);
}

BOOST_AUTO_TEST_CASE(a_dilation_of_three_is_built_into_a_sparse_kernel) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 16, 16, 2});
  const TensorId out = builder.featureMap("dilated", Shape{1, 16, 16, 2});
  builder.conv(in, out, 3).kernel->dilationX = 3;
  builder.subgraph().operations.back().kernel->dilationY = 3;
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Operation& conv = lowered.subgraphs.front().operations.front();
  BOOST_TEST(conv.kernel->width == 7);
  BOOST_TEST(conv.kernel->dilationX == 1);
  const Tensor& weights = lowered.subgraphs.front().tensor(conv.weights());
  BOOST_TEST(weights.shape == (Shape{2, 7, 7, 2}));
  const auto values = weights.integerValues();
  BOOST_TEST(std::count(values.begin(), values.end(), 1) == 2 * 9 * 2); // the original taps, the rest zero
  BOOST_TEST(conv.explicitPadding == (ExplicitPadding{3, 3, 3, 3}));
}

BOOST_AUTO_TEST_CASE(a_stride_folded_into_the_depth_keeps_the_depth_a_dimension_the_npu_runs) {
  // 65535 channels folded by a width stride of 65535 overflowed an int (found by reading the lowering's
  // arithmetic on model shapes); such a fold is not made.
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 1, 65535, 65535});
  const TensorId out = builder.featureMap("strided", Shape{1, 1, 1, 1});
  builder.conv(in, out, 1, 65535, Padding::Valid);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Operation& conv = lowered.subgraphs.front().operations.front();
  BOOST_TEST(conv.ifmShapes.at(0).depth == 65535);
  BOOST_TEST(conv.ifmShapes.at(0).width == 65535);
}

BOOST_AUTO_TEST_CASE(a_dilation_of_four_keeps_a_hardware_dilation_of_two) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 16, 16, 2});
  const TensorId out = builder.featureMap("dilated", Shape{1, 16, 16, 2});
  builder.conv(in, out, 3).kernel->dilationX = 4;
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Operation& conv = lowered.subgraphs.front().operations.front();
  BOOST_TEST(conv.kernel->width == 5);
  BOOST_TEST(conv.kernel->dilationX == 2);
  BOOST_TEST(conv.kernel->height == 3);
  BOOST_TEST(conv.kernel->areaWidth() == 9);
}

BOOST_AUTO_TEST_CASE(a_strided_transpose_convolution_upscales_its_input_and_pads_for_the_upscaled_size) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
  const TensorId outputShape = builder.constant("output_shape", Shape{4}, DataType::Int32, {1, 8, 8, 4});
  const TensorId weights = builder.weights("w", Shape{4, 3, 3, 8});
  const TensorId out = builder.featureMap("deconv", Shape{1, 8, 8, 4});
  Operation& op = builder.operation(OpType::Conv2DBackpropInput, "TRANSPOSE_CONV", {outputShape, weights, in}, {out});
  op.kernel = Kernel{3, 3, 2, 2, 1, 1};
  op.padding = Padding::Same;
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) == std::vector<std::string>{"Conv2DBackpropInputSwitchedBias:deconv"});
  const Operation& deconv = subgraph.operations.front();
  BOOST_TEST(deconv.ifm() == subgraph.inputs.front());
  BOOST_TEST(deconv.ifmResampling == Resampling::Transpose);
  BOOST_TEST(deconv.kernel->strideX == 1);
  BOOST_TEST(deconv.bias() != kNoTensor); // a zero bias is added at the TFLite bias position
  // Vela calc_upscaled_padding_and_skirt for SAME: right/bottom from the upscaled size, left/top the rest.
  BOOST_TEST(deconv.explicitPadding == (ExplicitPadding{2, 2, 0, 0}));
}

BOOST_AUTO_TEST_SUITE_END()
