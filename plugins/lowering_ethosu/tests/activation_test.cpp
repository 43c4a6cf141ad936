// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include "ethosu_lowering/lowering.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

namespace {
GraphBuilder convThenLogistic() {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId conv = builder.featureMap("conv", Shape{1, 8, 8, 4});
  const TensorId out = builder.featureMap("sigmoid", Shape{1, 8, 8, 4}, DataType::Int8, 1.0 / 256, -128);
  builder.conv(in, conv, 3);
  builder.operation(OpType::Sigmoid, "LOGISTIC", {conv}, {out});
  builder.output(out);
  return builder;
}
} // namespace

BOOST_AUTO_TEST_SUITE(activations)

BOOST_AUTO_TEST_CASE(an_int8_logistic_becomes_a_lut_fused_into_the_convolution_before_it) {
  const Graph lowered = lowerForTest(convThenLogistic().graph, FakeAccelerator{"ethos-u55-128"});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 1U);
  const Operation& conv = subgraph.operations.front();
  BOOST_REQUIRE(conv.activation.has_value());
  BOOST_TEST(conv.activation->type == OpType::LUT);
  BOOST_TEST(subgraph.tensor(conv.activation->lut).elements() == 256);
  BOOST_TEST(subgraph.tensor(conv.ofm()).name == "sigmoid");
}

BOOST_AUTO_TEST_CASE(on_an_ethos_u55_64_the_lut_stays_a_pass_of_its_own) {
  const Graph lowered = lowerForTest(convThenLogistic().graph, FakeAccelerator{"ethos-u55-64"});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) ==
             (std::vector<std::string>{"Conv2DBias:conv", "Add:sigmoid_lut_sigmoid"}));
}

BOOST_AUTO_TEST_CASE(a_standalone_relu_is_packed_into_its_producer_and_counted_as_vela_does) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId conv = builder.featureMap("conv", Shape{1, 8, 8, 4});
  const TensorId out = builder.featureMap("relu", Shape{1, 8, 8, 4});
  builder.conv(in, conv);
  builder.operation(OpType::Relu, "RELU", {conv}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 1U);
  BOOST_TEST(subgraph.operations[0].activation->type == OpType::Relu);
  const PlacementCounts counts = countPlacements(lowered);
  BOOST_TEST(counts.npuOperations == 2);
  BOOST_TEST(counts.npuPasses == 1);
}

BOOST_AUTO_TEST_CASE(a_relu_reading_a_slice_of_its_producer_gives_the_packed_pass_its_own_ofm_shape) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId conv = builder.featureMap("conv", Shape{1, 8, 8, 4});
  const TensorId begin = builder.constant("begin", Shape{4}, DataType::Int32, {0, 2, 0, 0});
  const TensorId size = builder.constant("size", Shape{4}, DataType::Int32, {1, 3, 8, 4});
  const TensorId slice = builder.featureMap("slice", Shape{1, 3, 8, 4});
  const TensorId out = builder.featureMap("relu", Shape{1, 3, 8, 4});
  builder.conv(in, conv);
  builder.operation(OpType::Slice, "SLICE", {conv, begin, size}, {slice});
  builder.operation(OpType::Relu, "RELU", {slice}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 1U);
  const Operation& pass = subgraph.operations.front();
  BOOST_TEST(pass.activation->type == OpType::Relu);
  BOOST_TEST(subgraph.tensor(pass.ofm()).name == "relu");
  BOOST_REQUIRE(!pass.ofmShapes.empty());
  BOOST_TEST(pass.ofmShapes[0] == (Shape4{1, 3, 8, 4}));
}

BOOST_AUTO_TEST_CASE(a_quantize_between_integer_types_becomes_an_avgpool) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 4});
  const TensorId out = builder.featureMap("requantised", Shape{1, 4, 4, 4}, DataType::Int8, 0.1, 3);
  builder.operation(OpType::Quantize, "QUANTIZE", {in}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) == std::vector<std::string>{"AvgPool:requantised"});
}

BOOST_AUTO_TEST_CASE(a_quantize_of_an_int8_constant_is_folded_in_fixed_point_as_vela_rounds_it) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 2});
  const TensorId constant =
      builder.constant("constant", Shape{1, 1, 1, 2}, DataType::Int8, {64, 65}, static_cast<double>(0.04916707F));
  builder.subgraph().tensor(constant).quantisation.zeroPoint = {4};
  const TensorId requantised =
      builder.featureMap("requantised", Shape{1, 1, 1, 2}, DataType::Int8, static_cast<double>(0.13184454F), 7);
  const TensorId out = builder.featureMap("out", Shape{1, 4, 4, 2});
  builder.operation(OpType::Quantize, "QUANTIZE", {constant}, {requantised});
  builder.operation(OpType::Add, "ADD", {in, requantised}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 1U);
  // (64 - 4) x 0.3729 = 22.375 rounds to 23 through the 31-bit multiplier's two roundings (Vela's
  // optimise_quantize), where one rounding in double precision gives 22.
  BOOST_TEST(subgraph.tensor(subgraph.operations[0].ifm2()).floatValues() == (std::vector<double>{30, 30}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(identical_lookup_tables_share_one_equivalence_id) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId first = builder.featureMap("first", Shape{1, 8, 8, 4}, DataType::Int8, 1.0 / 256, -128);
  const TensorId second = builder.featureMap("second", Shape{1, 8, 8, 4}, DataType::Int8, 1.0 / 256, -128);
  const TensorId out = builder.featureMap("out", Shape{1, 8, 8, 4}, DataType::Int8, 1.0 / 128, 0);
  builder.operation(OpType::Sigmoid, "LOGISTIC", {in}, {first});
  builder.operation(OpType::Sigmoid, "LOGISTIC", {in}, {second});
  builder.operation(OpType::Add, "ADD", {first, second}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  std::vector<std::int64_t> ids;
  for (const Operation& op : subgraph.operations) {
    if (op.activation && op.activation->lut != kNoTensor) {
      ids.push_back(subgraph.tensor(op.activation->lut).equivalenceId);
    }
  }
  BOOST_REQUIRE_EQUAL(ids.size(), 2U);
  BOOST_TEST(ids[0] >= 0);
  BOOST_TEST(ids[0] == ids[1]);
}

BOOST_AUTO_TEST_SUITE_END()
