// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(memory_only)

BOOST_AUTO_TEST_CASE(a_reshape_between_npu_operations_disappears_and_the_producer_writes_its_output) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
  const TensorId conv = builder.featureMap("conv", Shape{1, 4, 4, 8});
  const TensorId flat = builder.featureMap("flat", Shape{1, 128});
  const TensorId shape = builder.constant("shape", Shape{2}, DataType::Int32, {1, 128});
  builder.conv(in, conv);
  builder.operation(OpType::Reshape, "RESHAPE", {conv, shape}, {flat});
  builder.output(flat);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 1U);
  BOOST_TEST(subgraph.tensor(subgraph.operations[0].ofm()).name == "flat");
  BOOST_TEST(subgraph.operations[0].ofmShapes[0] == (Shape4{1, 4, 4, 8}));
}

BOOST_AUTO_TEST_CASE(a_reshape_of_the_graph_input_becomes_a_memcpy) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 64});
  const TensorId image = builder.featureMap("image", Shape{1, 8, 8, 1});
  const TensorId out = builder.featureMap("out", Shape{1, 8, 8, 2});
  const TensorId shape = builder.constant("shape", Shape{4}, DataType::Int32, {1, 8, 8, 1});
  builder.operation(OpType::Reshape, "RESHAPE", {in, shape}, {image});
  builder.conv(image, out);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) ==
             (std::vector<std::string>{"Memcpy:image", "Conv2DBias:out"}));
}

BOOST_AUTO_TEST_CASE(a_reshape_whose_input_has_other_readers_becomes_a_memcpy) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 4});
  const TensorId conv = builder.featureMap("conv", Shape{1, 4, 4, 4});
  const TensorId flat = builder.featureMap("flat", Shape{1, 64});
  const TensorId other = builder.featureMap("other", Shape{1, 4, 4, 4});
  builder.conv(in, conv);
  builder.operation(OpType::Reshape, "RESHAPE", {conv}, {flat});
  builder.conv(conv, other);
  builder.output(flat);
  builder.output(other);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const auto operations = describeOperations(lowered.subgraphs.front());
  BOOST_TEST(std::count(operations.begin(), operations.end(), "Memcpy:flat") == 1);
}

BOOST_AUTO_TEST_CASE(an_identity_on_the_cpu_is_removed_too_and_its_readers_read_its_input) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
  const TensorId conv = builder.featureMap("conv", Shape{1, 4, 4, 8});
  const TensorId same = builder.featureMap("same", Shape{1, 4, 4, 8});
  builder.conv(in, conv);
  builder.operation(OpType::Identity, "IDENTITY", {conv}, {same});
  builder.output(same);
  FakeAccelerator accelerator;
  accelerator.fakeSupport.unsupported[OpType::Identity] = "not on the NPU";
  const Graph lowered = lowerForTest(builder.graph, accelerator);
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) == std::vector<std::string>{"Conv2DBias:conv"});
  BOOST_TEST(subgraph.outputs.front() == subgraph.operations.front().ofm());
}

BOOST_AUTO_TEST_CASE(a_transpose_of_height_and_width_is_an_avgpool_writing_with_swapped_strides) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 6, 4, 8});
  const TensorId conv = builder.featureMap("conv", Shape{1, 6, 4, 8});
  const TensorId permutation = builder.constant("perm", Shape{4}, DataType::Int32, {0, 2, 1, 3});
  const TensorId transposed = builder.featureMap("transposed", Shape{1, 4, 6, 8});
  const TensorId out = builder.featureMap("out", Shape{1, 4, 6, 8});
  builder.conv(in, conv);
  builder.operation(OpType::Transpose, "TRANSPOSE", {conv, permutation}, {transposed});
  builder.conv(transposed, out);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) ==
             (std::vector<std::string>{"Conv2DBias:conv", "AvgPool:transposed_avgpool", "Conv2DBias:out"}));
  const Operation& transpose = subgraph.operations[1];
  BOOST_TEST(transpose.attributes.getOr<bool>("ofm_swap_hw_strides", false));
  // The permutation stays an input (Vela keeps it: it takes its place in the read-only area).
  BOOST_TEST(transpose.inputs == (std::vector<TensorId>{conv, permutation}));
  // The AvgPool loops over the IFM's shape for the OFM too; the OFM is written linear.
  BOOST_TEST(transpose.ofmShapes[0] == (Shape4{1, 6, 4, 8}));
  BOOST_TEST(subgraph.tensor(transpose.ofm()).format == TensorFormat::NHWC);
}

BOOST_AUTO_TEST_CASE(a_transpose_whose_output_an_activation_replaced_may_write_it_in_bricks) {
  // Only the TRANSPOSE's own OFM must stay linear (Vela's fixup_transpose flags that tensor): a LUT
  // activation fused into the AvgPool gives it another OFM, which takes the brick format when nothing
  // else keeps it linear (here the square transpose's view equals the OFM's shape).
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
  const TensorId conv = builder.featureMap("conv", Shape{1, 4, 4, 8});
  const TensorId permutation = builder.constant("perm", Shape{4}, DataType::Int32, {0, 2, 1, 3});
  const TensorId transposed = builder.featureMap("transposed", Shape{1, 4, 4, 8});
  const TensorId swished = builder.featureMap("swished", Shape{1, 4, 4, 8});
  const TensorId out = builder.featureMap("out", Shape{1, 4, 4, 8});
  builder.conv(in, conv);
  builder.operation(OpType::Transpose, "TRANSPOSE", {conv, permutation}, {transposed});
  builder.operation(OpType::HardSwish, "HARD_SWISH", {transposed}, {swished});
  builder.conv(swished, out);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{"ethos-u55-128"});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 3U);
  const Operation& transpose = subgraph.operations[1];
  BOOST_TEST(transpose.attributes.getOr<bool>("ofm_swap_hw_strides", false));
  BOOST_REQUIRE(transpose.activation.has_value());
  BOOST_TEST(subgraph.tensor(transpose.ofm()).name == "swished");
  BOOST_TEST(subgraph.tensor(transpose.ofm()).format == TensorFormat::NHCWB16);
}

BOOST_AUTO_TEST_CASE(a_transpose_of_width_and_depth_is_seen_as_a_transpose_of_height_and_width) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 1, 5, 3});
  const TensorId permutation = builder.constant("perm", Shape{4}, DataType::Int32, {0, 1, 3, 2});
  const TensorId out = builder.featureMap("transposed", Shape{1, 1, 3, 5});
  builder.operation(OpType::Transpose, "TRANSPOSE", {in, permutation}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(lowered.subgraphs.front().operations.front().ifmShapes[0] == (Shape4{1, 5, 3, 1}));
}

BOOST_AUTO_TEST_SUITE_END()
