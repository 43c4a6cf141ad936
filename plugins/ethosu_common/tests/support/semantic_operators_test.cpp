// SPDX-License-Identifier: Apache-2.0
// Reasons table for Vela's semantic constraints of single operator types: strided slice, fully
// connected, pad, hard swish, mean, arg max, exp, LSTM and transpose.

#include "test_operations.hpp"

namespace ethosu::test {
namespace {

TestGraph stridedSlice(std::vector<std::int64_t> begin, std::vector<std::int64_t> end) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4});
  const auto beginTensor = g.constant("begin", {4}, DataType::Int32, begin);
  const auto endTensor = g.constant("end", {4}, DataType::Int32, end);
  const auto strides = g.constant("strides", {4}, DataType::Int32, {1, 1, 1, 1});
  const auto ofm = g.featureMap("ofm", {1, 4, 8, 4});
  g.operation(OpType::StridedSlice, "STRIDED_SLICE", {ifm, beginTensor, endTensor, strides}, {ofm});
  return g;
}

TestGraph pad(std::vector<std::int64_t> paddings, npu::Shape ofmShape) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4});
  const auto paddingTensor = g.constant("paddings", {4, 2}, DataType::Int32, paddings);
  const auto ofm = g.featureMap("ofm", std::move(ofmShape));
  g.operation(OpType::Pad, "PAD", {ifm, paddingTensor}, {ofm});
  return g;
}

TestGraph mean(npu::Shape ifmShape, std::vector<std::int64_t> axes) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", std::move(ifmShape));
  const auto axisTensor = g.constant("axis", {static_cast<int>(axes.size())}, DataType::Int32, axes);
  const auto ofm = g.featureMap("ofm", {1, 1, 1, 4});
  g.operation(OpType::Mean, "MEAN", {ifm, axisTensor}, {ofm}).attributes.set("keep_dims", true);
  return g;
}

TestGraph argMax(DataType ifmType, DataType ofmType) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4}, ifmType);
  const auto axis = g.constant("axis", {1}, DataType::Int32, {3});
  const auto ofm = g.featureMap("ofm", {1, 8, 8}, ofmType);
  g.operation(OpType::ArgMax, "ARG_MAX", {ifm, axis}, {ofm});
  return g;
}

TestGraph transposeOp(npu::Shape permutationShape, std::vector<std::int64_t> permutation) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 6, 4});
  const auto perm = g.constant("perm", std::move(permutationShape), DataType::Int32, permutation);
  const auto ofm = g.featureMap("ofm", {1, 6, 8, 4});
  g.operation(OpType::Transpose, "TRANSPOSE", {ifm, perm}, {ofm});
  return g;
}

const std::vector<ReasonCase> kOperatorSemanticCases{
    {"stridedslice_input_count",
     [](bool failing) {
       TestGraph g = stridedSlice({0, 0, 0, 0}, {1, 4, 8, 4});
       if (failing) {
         g.the().inputs.pop_back();
       }
       return g;
     },
     "Op has 3 inputs"},
    {"stridedslice_inputs_const",
     [](bool failing) {
       TestGraph g = stridedSlice({0, 0, 0, 0}, {1, 4, 8, 4});
       if (failing) {
         g.tensor("end").data = nullptr;
         g.subgraph.inputs.push_back(g.the().inputs[2]); // fed at run time
       }
       return g;
     },
     "Op has non-constant tensors: End tensor 'end'"},
    {"ellipsis_mask",
     [](bool failing) {
       TestGraph g = stridedSlice({0, 0, 0, 0}, {1, 4, 8, 4});
       g.the().attributes.set("ellipsis_mask", std::int64_t{failing ? 2 : 0});
       return g;
     },
     "Op has ellipsis mask as: 2"},
    {"axis_masks",
     [](bool failing) {
       TestGraph g = stridedSlice({0, 0, 0, 0}, {1, 4, 8, 4});
       g.the().attributes.set("new_axis_mask", std::int64_t{failing ? 1 : 0});
       g.the().attributes.set("shrink_axis_mask", std::int64_t{1});
       return g;
     },
     "Op has new_axis_mask=1 and shrink_axis_mask=1"},
    {"slice_ranges",
     [](bool failing) {
       return stridedSlice({0, failing ? 4 : -4, 0, 0}, {1, failing ? 4 : 8, 8, 4});
     },
     "Op has begin_values=[0 4 0 0] and end_values=[1 4 8 4]"},
    {"fc_output_2d",
     [](bool failing) {
       TestGraph g = fullyConnected();
       g.tensor("ifm").shape = failing ? npu::Shape{33} : npu::Shape{2, 16};
       if (!failing) {
         g.tensor("ofm").shape = npu::Shape{2, 8};
       }
       return g;
     },
     "Op has non-2D output tensor 'ofm'"},
    {"keep_dim_ifm_ofm",
     [](bool failing) {
       TestGraph g = fullyConnected();
       g.the().attributes.set("keep_num_dims", true);
       if (failing) {
         g.tensor("ifm").shape = npu::Shape{1, 1, 16};
       }
       return g;
     },
     "Op has ifm shape=[1, 1, 16] and ofm shape=[1, 8]"},
    {"pad_input_count",
     [](bool failing) {
       TestGraph g = pad({0, 0, 1, 1, 1, 1, 0, 0}, {1, 10, 10, 4});
       if (failing) {
         g.the().inputs.push_back(g.constant("constant_values", {1}, DataType::Int8, {0}));
       }
       return g;
     },
     "Op has 3 inputs"},
    {"pad_constant",
     [](bool failing) {
       TestGraph g = pad({0, 0, 1, 1, 1, 1, 0, 0}, {1, 10, 10, 4});
       if (failing) {
         g.tensor("paddings").data = nullptr;
         g.subgraph.inputs.push_back(g.the().inputs[1]); // fed at run time
       }
       return g;
     },
     "Op has non-constant padding tensor: None"},
    {"pad_output_shape",
     [](bool failing) {
       return pad({0, 0, 1, 1, 1, 1, 0, 0}, {1, failing ? 9 : 10, 10, 4});
     },
     "Op has wrong output tensor shape: [1, 9, 10, 4], has shape: [ 1 10 10  4]"},
    {"input_8bit",
     [](bool failing) { return unary(OpType::HardSwish, "HARD_SWISH", failing ? DataType::Int16 : DataType::UInt8); },
     "Op has ifm_dtype=int16"},
    {"mean_input_dims",
     [](bool failing) {
       return mean(failing ? npu::Shape{16} : npu::Shape{4, 16}, {0});
     },
     "Input is 1D"},
    {"mean_axis",
     [](bool failing) {
       return mean({1, 8, 8, 4}, {1, failing ? 3 : 2});
     },
     "Shape is [1, 8, 8, 4], Axis is [1, 3]."},
    {"mean_axis",
     [](bool failing) {
       return mean({1, 8, 8, 4}, {failing ? -1 : 1, 2});
     },
     "Axis parameter is out of bounds. axis: {axis}, dims: {dims}. "},
    {"argmax_output", [](bool failing) { return argMax(DataType::Int8, failing ? DataType::Int16 : DataType::Int32); },
     "Op has ofm_dtype=int16"},
    {"input_signed",
     [](bool failing) { return unary(OpType::Exp, "EXP", failing ? DataType::UInt8 : DataType::Int16); },
     "Op has ifm_dtype=uint8"},
    {"lstm_dimensions",
     [](bool failing) {
       TestGraph g = lstm();
       if (failing) {
         g.tensor("ofm").shape = npu::Shape{28, 20};
       }
       return g;
     },
     "Op has ifm shape [1, 28, 28] and ofm shape [28, 20]"},
    {"lstm_inputs",
     [](bool failing) {
       TestGraph g = lstm();
       if (failing) {
         g.the().inputs.pop_back();
       }
       return g;
     },
     "Op has 23 inputs"},
    {"lstm_intermediates",
     [](bool failing) {
       TestGraph g = lstm();
       if (failing) {
         g.the().intermediates.pop_back();
       }
       return g;
     },
     "Op has 4 intermediates"},
    {"lstm_variables",
     [](bool failing) {
       TestGraph g = lstm();
       g.tensor("cell_state").isVariable = !failing;
       return g;
     },
     "Op has non-variable state tensor(s): cell_state"},
    {"transpose_permutation_size",
     [](bool failing) {
       return failing ? transposeOp({3}, {1, 0, 2}) : transposeOp({4}, {0, 2, 1, 3});
     },
     "Op has ifm_dimension=4 and permutation shape [3]"},
    {"transpose_permutation_values",
     [](bool failing) {
       return transposeOp({4}, {0, 2, 1, failing ? 4 : 3});
     },
     "Op has ifm_dimension=4 and permutation values are: [0 2 1 4]"},
};

} // namespace

BOOST_AUTO_TEST_SUITE(semantic_operator_constraints)

BOOST_AUTO_TEST_CASE(each_operator_semantic_constraint_accepts_a_valid_operation_and_names_what_breaks_it) {
  checkReasonTable(kOperatorSemanticCases);
}

BOOST_AUTO_TEST_CASE(shrunk_axes_of_a_strided_slice_need_no_range) {
  TestGraph g = stridedSlice({0, 4, 0, 0}, {1, 4, 8, 4});
  g.the().attributes.set("shrink_axis_mask", std::int64_t{2});
  g.tensor("ofm").shape = npu::Shape{1, 8, 4};
  BOOST_TEST(g.diagnose().supported);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
