// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

namespace {

Graph argMax(Shape input, DataType outputType) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", input);
  const TensorId axis = builder.constant("axis", Shape{1}, DataType::Int32, {3});
  const TensorId out = builder.featureMap("ArgMax", Shape{input[0], input[1], input[2]}, outputType, 1.0, 0);
  builder.operation(OpType::ArgMax, "ARG_MAX", {in, axis}, {out});
  builder.output(out);
  return builder.graph;
}

Graph resizeGraph(OpType type, Shape input, Shape output, bool alignCorners, bool halfPixelCentres = false) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", input);
  const TensorId size = builder.constant("size", Shape{2}, DataType::Int32, {output[1], output[2]});
  const TensorId out = builder.featureMap("resized", output);
  Operation& op = builder.operation(
      type, type == OpType::ResizeBilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR", {in, size}, {out});
  op.attributes.set("align_corners", alignCorners);
  op.attributes.set("half_pixel_centers", halfPixelCentres);
  builder.output(out);
  return builder.graph;
}

} // namespace

BOOST_AUTO_TEST_SUITE(arg_max)

BOOST_AUTO_TEST_CASE(an_arg_max_into_int64_is_a_depthwise_convolution_pooling_and_two_casts_named_like_vela) {
  const Graph lowered = lowerForTest(argMax(Shape{1, 4, 5, 21}, DataType::Int64), FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(
      describeOperations(subgraph) ==
          (std::vector<std::string>{"DepthwiseConv2DBias:ArgMax_depthwise_conv_SHL_7", "MaxPool:dw_maxpool_0",
                                    "DepthwiseConv2DBias:ArgMax_cast_to_32bit_1", "Memcpy:ArgMax_memcpy_1",
                                    "DepthwiseConv2DBias:ArgMax_cast_to_32bit_2", "Memcpy:f{orig_name}_memcpy_2"}),
      boost::test_tools::per_element());
  const Operation& pool = subgraph.operations[1];
  BOOST_TEST(pool.ifmShapes[0] == (Shape4{1, 20, 21, 1}));
  BOOST_TEST(pool.kernel->width == 21);
  BOOST_REQUIRE(pool.activation.has_value());
  BOOST_TEST(subgraph.tensor(pool.activation->lut).elements() == 512);
  const Tensor& bias = subgraph.tensor(subgraph.operations[0].bias());
  BOOST_TEST(bias.integerValues().front() == 20); // the reversed channel index breaks ties
  BOOST_TEST(subgraph.operations.back().ofm() == subgraph.outputs.front());
}

BOOST_AUTO_TEST_CASE(an_arg_max_into_int32_needs_one_cast) {
  const Graph lowered = lowerForTest(argMax(Shape{1, 4, 5, 8}, DataType::Int32), FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()).back() == "DepthwiseConv2DBias:ArgMax_cast_to_32bit_1");
  BOOST_TEST(lowered.subgraphs.front().operations.size() == 3U);
}

BOOST_AUTO_TEST_CASE(a_wide_arg_max_pools_in_chunks_of_rows_that_fit_the_hardware) {
  // 2^16 / 30000 = 2 rows per chunk: 3 rows need two max poolings writing parts of one tensor.
  const Graph lowered = lowerForTest(argMax(Shape{1, 3, 30000, 2}, DataType::Int32), FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 4U);
  const Operation& second = subgraph.operations[2];
  BOOST_TEST(second.name == "dw_maxpool_1");
  BOOST_TEST(*second.readOffsets[0] == (Shape4{0, 60000, 0, 0}));
  BOOST_TEST(*second.writeShape == (Shape4{1, 30000, 1, 1}));
  BOOST_TEST(subgraph.operations[1].ofm() == second.ofm());
}

BOOST_AUTO_TEST_CASE(the_shifted_values_and_the_pooled_indices_stay_linear_as_the_pooling_sees_them_flattened) {
  // The pooling reads the int16 values as [1, H*W, C, 1] and writes [1, H*W, 1, 1]: bricks of 16 channels
  // would not match those shapes (Vela: _avoid_nhcwb16_for_shapes compares the consumer's IFM shape even
  // when it reads only a part of the tensor).
  const Graph lowered = lowerForTest(argMax(Shape{1, 4, 5, 21}, DataType::Int64), FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  const Operation& pool = subgraph.operations[1];
  BOOST_REQUIRE(pool.readShapes[0].has_value());
  BOOST_TEST(subgraph.tensor(pool.ifm()).format == TensorFormat::NHWC);
  BOOST_TEST(subgraph.tensor(pool.ofm()).format == TensorFormat::NHWC);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(resizing)

BOOST_AUTO_TEST_CASE(a_resize_of_a_single_pixel_is_an_add_onto_zeros) {
  const Graph lowered = lowerForTest(resizeGraph(OpType::ResizeBilinear, Shape{1, 1, 1, 8}, Shape{1, 33, 33, 8}, true),
                                     FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) == std::vector<std::string>{"Add:resized_add"});
  const Operation& add = subgraph.operations.front();
  BOOST_TEST(subgraph.tensor(add.ifm()).isConstant());
  BOOST_TEST(subgraph.tensor(add.ifm()).name == "size_add");
  BOOST_TEST(subgraph.tensor(add.ifm2()).name == "in");
}

BOOST_AUTO_TEST_CASE(a_resize_to_the_same_size_disappears) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId mid = builder.featureMap("mid", Shape{1, 8, 8, 4});
  const TensorId size = builder.constant("size", Shape{2}, DataType::Int32, {8, 8});
  const TensorId out = builder.featureMap("resized", Shape{1, 8, 8, 4});
  builder.conv(in, mid);
  builder.operation(OpType::ResizeNearestNeighbor, "RESIZE_NEAREST_NEIGHBOR", {mid, size}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) == std::vector<std::string>{"Conv2DBias:mid"});
}

BOOST_AUTO_TEST_CASE(a_bilinear_4x_upscale_with_aligned_corners_doubles_then_averages_a_4x4_window) {
  const Graph lowered = lowerForTest(resizeGraph(OpType::ResizeBilinear, Shape{1, 5, 5, 8}, Shape{1, 17, 17, 8}, true),
                                     FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) ==
             (std::vector<std::string>{"ResizeBilinear:resized", "ResizeBilinear:resized_1"}));
  const Operation& first = subgraph.operations[0];
  const Operation& last = subgraph.operations[1];
  BOOST_TEST(first.ifmResampling == Resampling::Nearest);
  BOOST_TEST(first.kernel->width == 1);
  BOOST_TEST(subgraph.tensor(first.ofm()).shape == (Shape{1, 10, 10, 8}));
  BOOST_TEST(last.ifmResampling == Resampling::Nearest);
  BOOST_TEST(last.kernel->width == 4);
  BOOST_TEST(last.padding == Padding::Valid);
}

BOOST_AUTO_TEST_CASE(a_bilinear_2x_upscale_without_aligned_corners_pads_right_and_bottom) {
  const Graph lowered = lowerForTest(resizeGraph(OpType::ResizeBilinear, Shape{1, 5, 5, 8}, Shape{1, 10, 10, 8}, false),
                                     FakeAccelerator{});
  const Operation& op = lowered.subgraphs.front().operations.front();
  BOOST_TEST(op.kernel->width == 2);
  BOOST_TEST(op.padding == Padding::Explicit);
  BOOST_TEST(op.explicitPadding == (ExplicitPadding{0, 0, 1, 1}));
}

BOOST_AUTO_TEST_CASE(a_nearest_neighbour_upscale_with_aligned_corners_picks_values_with_a_depthwise_convolution) {
  const Graph lowered = lowerForTest(
      resizeGraph(OpType::ResizeNearestNeighbor, Shape{1, 5, 5, 3}, Shape{1, 9, 9, 3}, true), FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) == std::vector<std::string>{"DepthwiseConv2DBias:resized"});
  const Operation& op = subgraph.operations.front();
  BOOST_TEST(op.ifmResampling == Resampling::Nearest);
  const auto weights = subgraph.tensor(op.weights()).integerValues();
  BOOST_TEST(std::count(weights.begin(), weights.end(), 1) == 3); // one coefficient per channel
  BOOST_TEST(weights[3 * 3] == 1);                                // the (1, 1) tap of the 2x2 kernel, channel 0
}

BOOST_AUTO_TEST_CASE(a_half_pixel_bilinear_upscale_is_four_tiled_depthwise_convolutions) {
  const Graph lowered = lowerForTest(
      resizeGraph(OpType::ResizeBilinear, Shape{1, 4, 4, 8}, Shape{1, 8, 8, 8}, false, true), FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 5U);
  BOOST_TEST(subgraph.operations[0].name == "rb_init_avgpool");
  std::vector<std::string> convolutions;
  for (std::size_t i = 1; i < 5; ++i) {
    const Operation& conv = subgraph.operations[i];
    convolutions.push_back(conv.name);
    BOOST_TEST(conv.padding == Padding::Tile);
    BOOST_TEST(conv.ofm() == subgraph.outputs.front());
    BOOST_TEST(subgraph.tensor(conv.weights()).integerValues().size() == 32U);
  }
  std::sort(convolutions.begin(), convolutions.end());
  BOOST_TEST(convolutions == (std::vector<std::string>{"depthwise_conv_0", "depthwise_conv_1", "depthwise_conv_2",
                                                       "depthwise_conv_3"}));
  BOOST_TEST(subgraph.tensor(subgraph.outputs.front()).format == TensorFormat::NHWC);
}

BOOST_AUTO_TEST_SUITE_END()
