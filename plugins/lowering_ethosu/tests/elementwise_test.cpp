// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include "ethosu_lowering/lowering.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

namespace {

Graph prelu(std::vector<std::int64_t> alphaValues, bool constantAlpha = true) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 3});
  const TensorId alpha = constantAlpha ? builder.constant("alpha", Shape{1, 1, 3}, DataType::Int8, alphaValues, 0.01)
                                       : builder.input("alpha", Shape{1, 1, 3});
  const TensorId out = builder.featureMap("Prelu", Shape{1, 4, 4, 3}, DataType::Int8, 0.04, 0);
  builder.operation(OpType::Prelu, "PRELU", {in, alpha}, {out});
  builder.output(out);
  return builder.graph;
}

} // namespace

// Expected operations are in Vela's pass order: a depth-first walk from the outputs visits the producer of
// the last operand first, so it comes first.
BOOST_AUTO_TEST_SUITE(elementwise)

BOOST_AUTO_TEST_CASE(a_squared_difference_is_computed_in_int32_like_the_reference) {
  GraphBuilder builder;
  const TensorId a = builder.input("a", Shape{1, 4, 4, 8});
  const TensorId b = builder.input("b", Shape{1, 4, 4, 8});
  const TensorId out = builder.featureMap("sqd", Shape{1, 4, 4, 8}, DataType::Int8, 0.2, 0);
  builder.operation(OpType::SquaredDifference, "SQUARED_DIFFERENCE", {a, b}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) ==
                 (std::vector<std::string>{"DepthwiseConv2DBias:sqd_ifm2_32bit_shifted", "Mul:sqd_scaled_input2",
                                           "DepthwiseConv2DBias:sqd_ifm_32bit_shifted", "Mul:sqd_scaled_input1",
                                           "Sub:sqd_raw_diff", "Mul:sqd_squared_raw", "Mul:sqd"}),
             boost::test_tools::per_element());
  // int8 inputs are shifted left by 7 while widened to int32.
  BOOST_TEST(integerList(subgraph.operations[0].attributes, "explicit_scaling_multiplier") ==
             (std::vector<std::int64_t>{128}));
  BOOST_TEST(subgraph.tensor(subgraph.operations[4].ofm()).type == DataType::Int32);
}

BOOST_AUTO_TEST_CASE(a_prelu_with_one_alpha_is_a_leaky_relu_lookup_table) {
  const Graph lowered = lowerForTest(prelu({25, 25, 25}), FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) == std::vector<std::string>{"Add:LeakyRelu_lut_lrelu"});
}

BOOST_AUTO_TEST_CASE(a_prelu_with_alphas_below_one_is_the_maximum_of_two_products) {
  const Graph lowered = lowerForTest(prelu({10, 20, 30}), FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) ==
                 (std::vector<std::string>{"Mul:Prelu_mul_identity", "Mul:Prelu_mul_alpha", "Maximum:Prelu_max"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_prelu_with_a_variable_alpha_adds_the_negative_and_positive_parts) {
  const Graph lowered = lowerForTest(prelu({}, false), FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) ==
                 (std::vector<std::string>{"AvgPool:Prelu_relu_avgpool", "Minimum:Prelu_min", "Mul:Prelu_mul_alpha",
                                           "Add:Prelu_add"}),
             boost::test_tools::per_element());
  // The ReLU rescales (its output has the OFM's scale), so it is its own AvgPool, not a packed one.
  BOOST_TEST(countPlacements(lowered).npuOperations == 4);
}

BOOST_AUTO_TEST_CASE(a_maximum_of_x_and_a_positive_multiple_of_x_is_a_leaky_relu) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 3});
  const TensorId scalar = builder.constant("slope", Shape{}, DataType::Int8, {26}, 0.01);
  const TensorId product = builder.featureMap("mul", Shape{1, 4, 4, 3});
  const TensorId out = builder.featureMap("Maximum", Shape{1, 4, 4, 3});
  builder.operation(OpType::Mul, "MUL", {in, scalar}, {product});
  builder.operation(OpType::Maximum, "MAXIMUM", {in, product}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) == std::vector<std::string>{"Add:LeakyRelu_lut_lrelu"});
}

BOOST_AUTO_TEST_CASE(a_maximum_of_x_and_minus_x_is_an_abs) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 3});
  const TensorId scalar = builder.constant("minus_one", Shape{}, DataType::Int8, {-1}, 1.0);
  const TensorId product = builder.featureMap("mul", Shape{1, 4, 4, 3});
  const TensorId out = builder.featureMap("Maximum", Shape{1, 4, 4, 3});
  builder.operation(OpType::Mul, "MUL", {in, scalar}, {product});
  builder.operation(OpType::Maximum, "MAXIMUM", {product, in}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) == std::vector<std::string>{"Abs:Abs"});
}

BOOST_AUTO_TEST_CASE(an_int16_leaky_relu_with_rescaling_becomes_a_maximum_of_two_products) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 3}, DataType::Int16);
  const TensorId out = builder.featureMap("LeakyRelu", Shape{1, 4, 4, 3}, DataType::Int16, 0.001, 0);
  builder.operation(OpType::LeakyRelu, "LEAKY_RELU", {in}, {out}).attributes.set("alpha", 0.1);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) ==
                 (std::vector<std::string>{"Mul:LeakyRelu_mul_identity", "Mul:LeakyRelu_mul_alpha", "Maximum:Maximum"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
