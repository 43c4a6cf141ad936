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

BOOST_AUTO_TEST_SUITE_END()
