// SPDX-License-Identifier: Apache-2.0
// Reasons table for Vela's operator-specific semantic constraints: convolution groups, data types,
// concatenation, element-wise shapes and signs, reshapes, softmax and split.

#include "test_operations.hpp"

namespace ethosu::test {
namespace {

TestGraph concatenation(std::int64_t axis = 3) {
  TestGraph g;
  const auto a = g.featureMap("a", {1, 4, 4, 2});
  const auto b = g.featureMap("b", {1, 4, 4, 6});
  const auto ofm = g.featureMap("ofm", {1, 4, 4, 8});
  g.operation(OpType::ConcatTFLite, "CONCATENATION", {a, b}, {ofm}).attributes.set("axis", axis);
  return g;
}

TestGraph reshape() {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 4, 4, 2});
  const auto shape = g.constant("shape", {2}, DataType::Int32, {1, 32});
  const auto ofm = g.featureMap("ofm", {1, 32});
  g.operation(OpType::Reshape, "RESHAPE", {ifm, shape}, {ofm});
  return g;
}

TestGraph split(std::int64_t axis, std::int64_t splits) {
  TestGraph g;
  const auto axisTensor = g.constant("axis", {}, DataType::Int32, {axis});
  const auto ifm = g.featureMap("ifm", {1, 4, 4, 6});
  const auto a = g.featureMap("a", {1, 4, 4, 3});
  const auto b = g.featureMap("b", {1, 4, 4, 3});
  g.operation(OpType::Split, "SPLIT", {axisTensor, ifm}, {a, b}).attributes.set("num_splits", splits);
  return g;
}

TestGraph splitV(std::vector<std::int64_t> sizes) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 4, 4, 6});
  const auto sizeTensor = g.constant("sizes", {2}, DataType::Int32, sizes);
  const auto axisTensor = g.constant("axis", {}, DataType::Int32, {3});
  const auto a = g.featureMap("a", {1, 4, 4, 3});
  const auto b = g.featureMap("b", {1, 4, 4, 3});
  g.operation(OpType::SplitV, "SPLIT_V", {ifm, sizeTensor, axisTensor}, {a, b})
      .attributes.set("num_splits", std::int64_t{2});
  return g;
}

const std::vector<ReasonCase> kSpecificSemanticCases{
    {"conv_groups_ifm_depth",
     [](bool failing) {
       TestGraph g = convolution();
       g.tensor("ifm").shape = npu::Shape{1, 8, 8, failing ? 6 : 8}; // weights take 4 channels per group
       return g;
     },
     "IFM depth = 6 and filter kernel depth = 4"},
    {"conv_groups_num_filters",
     [](bool failing) {
       TestGraph g = convolution();
       g.tensor("ifm").shape = npu::Shape{1, 8, 8, failing ? 12 : 8}; // 3 groups cannot share 8 kernels
       return g;
     },
     "Filter kernels = 8 and convolution groups = 3"},
    {"matching_in_out_types",
     [](bool failing) {
       TestGraph g = pooling(OpType::MaxPool);
       g.tensor("ofm").type = failing ? DataType::Int16 : DataType::Int8;
       return g;
     },
     "Op has ifm_dtype=int8 and ofm_dtype=int16"},
    {"axis_exists",
     [](bool failing) {
       TestGraph g = concatenation();
       if (failing) {
         g.the().attributes.erase("axis");
       }
       return g;
     },
     "Op has axis=None"},
    {"axis_valid", [](bool failing) { return concatenation(failing ? 4 : -1); },
     "Op has ofm_dimensions=4 and axis attribute is: 4"},
    {"matching_dimensionality",
     [](bool failing) {
       TestGraph g = concatenation();
       if (failing) {
         g.tensor("a").shape = npu::Shape{4, 4, 2};
       }
       return g;
     },
     "Op has ofm_dimension=4 and the list of mismatching inputs are: Tensor 'a' has dimension: 3"},
    {"valid_dimensions",
     [](bool failing) {
       TestGraph g = concatenation();
       g.tensor("b").shape = npu::Shape{1, 4, failing ? 5 : 4, 6};
       return g;
     },
     "Op has axis=3, ofm_shape=[1, 4, 4, 8] and the list of mismatching inputs are: Tensor 'b' has shape: "
     "[1, 4, 5, 6]"},
    {"valid_dimensions_axis",
     [](bool failing) {
       TestGraph g = concatenation();
       g.tensor("ofm").shape = npu::Shape{1, 4, 4, failing ? 9 : 8};
       return g;
     },
     "Op has axis=3, ofm_shape=[1, 4, 4, 9] and the list of mismatching inputs are: Tensor 'a' has shape: "
     "[1, 4, 4, 2], Tensor 'b' has shape: [1, 4, 4, 6]"},
    {"matching_either_shapes",
     [](bool failing) {
       TestGraph g = binary(OpType::Add, "ADD");
       g.tensor("ifm").shape = npu::Shape{1, 8, 1, 4};
       g.tensor("ifm2").shape = npu::Shape{1, failing ? 1 : 8, 8, 4};
       return g;
     },
     "Op has ifm_shape=[1, 8, 1, 4], ifm2_shape=[1, 1, 8, 4] and ofm_shape=[1, 8, 8, 4]"},
    {"matching_inputs_types",
     [](bool failing) {
       TestGraph g = binary(OpType::Mul, "MUL");
       g.tensor("ifm2").type = failing ? DataType::UInt8 : DataType::Int8;
       return g;
     },
     "Op has ifm_dtype=int8 and ifm2_dtype=uint8"},
    {"matching_signed",
     [](bool failing) {
       TestGraph g = binary(OpType::Sub, "SUB", DataType::Int16);
       g.tensor("ofm").type = failing ? DataType::UInt8 : DataType::Int8;
       return g;
     },
     "Op has ifm_dtype=int16 and ofm_dtype=uint8"},
    {"unsigned_valid",
     [](bool failing) {
       TestGraph g = binary(OpType::Add, "ADD", DataType::UInt8);
       g.tensor("ofm").type = failing ? DataType::Int16 : DataType::Int32;
       return g;
     },
     "Op has ifm_dtype=uint8 and ofm_dtype=int16"},
    {"matching_in_out_quant",
     [](bool failing) {
       TestGraph g = reshape();
       g.tensor("ofm").quantisation.zeroPoint = {failing ? 3 : 0};
       return g;
     },
     "IFM and OFM quantisation parameters are not equal."},
    {"matching_in_out_elements",
     [](bool failing) {
       TestGraph g = reshape();
       g.tensor("ofm").shape = npu::Shape{1, failing ? 30 : 32};
       return g;
     },
     "IFM [1, 4, 4, 2] and OFM [1, 30] number of elements are not equal."},
    {"matching_shapes",
     [](bool failing) {
       TestGraph g = unary(OpType::Softmax, "SOFTMAX");
       if (failing) {
         g.tensor("ofm").shape = npu::Shape{1, 8, 4, 8};
       }
       return g;
     },
     "Op has ifm_shape=[1, 8, 8, 4] and ofm_shape=[1, 8, 4, 8]"},
    {"beta_value_range",
     [](bool failing) {
       TestGraph g = unary(OpType::Softmax, "SOFTMAX");
       g.the().attributes.set("beta", failing ? -0.5 : 0.0);
       return g;
     },
     "Op has beta=-0.5"},
    {"split_axis", [](bool failing) { return split(failing ? 4 : -1, 2); },
     "Op has ifm_dimensions=4 and axis value is: 4"},
    {"split_num_splits", [](bool failing) { return split(3, failing ? 4 : 2); },
     "Op has ifm shape=[1, 4, 4, 6] axis=3 num_splits=4"},
    {"splitv_inferred",
     [](bool failing) {
       return splitV(failing ? std::vector<std::int64_t>{-1, -1} : std::vector<std::int64_t>{3, -1});
     },
     "Op has multiple inferred sizes (-1): [-1 -1]"},
};

} // namespace

BOOST_AUTO_TEST_SUITE(semantic_specific_constraints)

BOOST_AUTO_TEST_CASE(each_specific_semantic_constraint_accepts_a_valid_operation_and_names_what_breaks_it) {
  checkReasonTable(kSpecificSemanticCases);
}

BOOST_AUTO_TEST_CASE(grouped_convolution_depth_is_read_from_the_ohwi_weights) {
  TestGraph g = convolution();
  g.tensor("ifm").shape = npu::Shape{1, 8, 8, 8}; // two groups of four channels
  BOOST_TEST(g.diagnose().supported);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
