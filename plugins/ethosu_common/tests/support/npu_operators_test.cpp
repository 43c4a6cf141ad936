// SPDX-License-Identifier: Apache-2.0
// Reasons table for Vela's NPU constraints of single operator types: resize, element-wise operations,
// strided slice, pad, mean, reshape, arg max, LSTM, rsqrt, slice and transpose.

#include "test_operations.hpp"

namespace ethosu::test {
namespace {

TestGraph resize(OpType type, int ifmSize, int ofmSize, bool alignCorners = false, bool halfPixelCenters = false) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, ifmSize, ifmSize, 4});
  const auto size = g.constant("size", {2}, DataType::Int32, {ofmSize, ofmSize});
  const auto ofm = g.featureMap("ofm", {1, ofmSize, ofmSize, 4});
  const bool bilinear = type == OpType::ResizeBilinear;
  auto& op = g.operation(type, bilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR", {ifm, size}, {ofm});
  op.attributes.set("align_corners", alignCorners);
  op.attributes.set("half_pixel_centers", halfPixelCenters);
  return g;
}

TestGraph stridedSliceWith(std::vector<std::int64_t> strides) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4});
  const auto begin = g.constant("begin", {4}, DataType::Int32, {0, 0, 0, 0});
  const auto end = g.constant("end", {4}, DataType::Int32, {1, 8, 8, 4});
  const auto strideTensor = g.constant("strides", {4}, DataType::Int32, strides);
  const auto ofm = g.featureMap("ofm", {1, 4, 8, 4});
  g.operation(OpType::StridedSlice, "STRIDED_SLICE", {ifm, begin, end, strideTensor}, {ofm});
  return g;
}

TestGraph pad(npu::Shape ifmShape, npu::Shape paddingShape, std::vector<std::int64_t> paddings, npu::Shape ofmShape,
              DataType paddingType = DataType::Int32) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", std::move(ifmShape));
  const auto paddingTensor = g.constant("paddings", std::move(paddingShape), paddingType, paddings);
  const auto ofm = g.featureMap("ofm", std::move(ofmShape));
  g.operation(OpType::Pad, "PAD", {ifm, paddingTensor}, {ofm});
  return g;
}

TestGraph mean(npu::Shape ifmShape, std::vector<std::int64_t> axes, DataType type = DataType::Int8) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", std::move(ifmShape), type);
  const auto axisTensor = g.constant("axis", {static_cast<int>(axes.size())}, DataType::Int32, axes);
  const auto ofm = g.featureMap("ofm", {1, 1, 1, 4}, type);
  g.operation(OpType::Mean, "MEAN", {ifm, axisTensor}, {ofm});
  return g;
}

/// RESHAPE whose shape comes from another operation: a SHAPE Vela folds, or one it cannot fold.
TestGraph reshapeWithComputedShape(OpType producerType) {
  TestGraph g;
  const auto source = g.featureMap("source", {1, 32});
  const auto shape = g.featureMap("shape", {2}, DataType::Int32);
  g.operation(producerType, producerType == OpType::Shape ? "SHAPE" : "CAST", {source}, {shape});
  const auto ifm = g.featureMap("ifm", {1, 4, 4, 2});
  const auto ofm = g.featureMap("ofm", {1, 32});
  g.operation(OpType::Reshape, "RESHAPE", {ifm, shape}, {ofm});
  return g;
}

TestGraph argMax(std::int64_t axis, int depth) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, depth});
  const auto axisTensor = g.constant("axis", {1}, DataType::Int32, {axis});
  const auto ofm = g.featureMap("ofm", {1, 8, 8}, DataType::Int32);
  g.operation(OpType::ArgMax, "ARG_MAX", {ifm, axisTensor}, {ofm});
  return g;
}

TestGraph lstmWithInput(std::size_t index, bool present) {
  TestGraph g = lstm();
  g.the().inputs[index] = present ? g.filled("extra", {20}, DataType::Int16, 1) : npu::kNoTensor;
  return g;
}

TestGraph slice(bool constantSize) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4});
  const auto begin = g.constant("begin", {4}, DataType::Int32, {0, 0, 0, 0});
  const auto size = constantSize ? g.constant("size", {4}, DataType::Int32, {1, 4, 8, 4})
                                 : g.featureMap("size", {4}, DataType::Int32);
  const auto ofm = g.featureMap("ofm", {1, 4, 8, 4});
  g.operation(OpType::Slice, "SLICE", {ifm, begin, size}, {ofm});
  return g;
}

TestGraph transposeOp(std::vector<std::int64_t> permutation) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 6, 4});
  const auto perm = g.constant("perm", {4}, DataType::Int32, permutation);
  const auto ofm = g.featureMap("ofm", {1, 6, 8, 4});
  g.operation(OpType::Transpose, "TRANSPOSE", {ifm, perm}, {ofm});
  return g;
}

const std::vector<ReasonCase> kOperatorCases{
    {"resize", [](bool failing) { return resize(OpType::ResizeNearestNeighbor, 4, failing ? 12 : 8); },
     "Op has ifm_shape=[1, 4, 4, 4], ofm_shape=[1, 12, 12, 4] and align_corners=False"},
    {"resize", [](bool failing) { return resize(OpType::ResizeBilinear, 33, failing ? 513 : 65, true); },
     "Op has ifm_shape=[1, 33, 33, 4], ofm_shape=[1, 513, 513, 4] and align_corners=True"},
    {"resize_size",
     [](bool failing) {
       TestGraph g = resize(OpType::ResizeBilinear, 4, 8);
       g.setValues("size", {8, failing ? 7 : 8});
       return g;
     },
     "Op has size=8x7 and ofm_shape=[1, 8, 8, 4]."},
    {"resize_attrs", // (7 - 1) / (4 - 1) is the 2x upscale with align_corners
     [](bool failing) { return resize(OpType::ResizeNearestNeighbor, 4, failing ? 7 : 8, failing, true); },
     "Op has both align_corners and half_pixel_centers set to True."},
    {"resizebi_half_pixel_centers_dims",
     [](bool failing) { return resize(OpType::ResizeBilinear, 4, failing ? 16 : 8, false, true); },
     "Op has ifm_shape=[1, 4, 4, 4], ofm_shape=[1, 16, 16, 4] and half_pixel_centers=True"},
    {"matching_quantization_parameters",
     [](bool failing) {
       TestGraph g = binary(OpType::Minimum, "MINIMUM");
       g.tensor("ifm2").quantisation.scale = {failing ? 0.25 : 0.5};
       return g;
     },
     "Op has tensors with different quantization parameters to the OFM 'ofm': ifm2"},
    {"broadcast_shapes",
     [](bool failing) {
       TestGraph g = binary(OpType::Add, "ADD");
       g.tensor("ifm2").shape = npu::Shape{1, 8, failing ? 2 : 1, 4};
       return g;
     },
     "Op has ifm_shape=[1, 8, 8, 4] and ifm2_shape=[1, 8, 2, 4]"},
    {"inputs_int32",
     [](bool failing) { return binary(OpType::SHR, "SHR", failing ? DataType::Int8 : DataType::Int32); },
     "Op has ifm_dtype=int8 and ifm2_dtype=int8"},
    {"output_int32",
     [](bool failing) {
       TestGraph g = binary(OpType::SHL, "SHL", DataType::Int32);
       g.tensor("ofm").type = failing ? DataType::Int16 : DataType::Int32;
       return g;
     },
     "Op has ofm_dtype=int16"},
    {"stridedslice_stride_values",
     [](bool failing) {
       return stridedSliceWith({1, failing ? 2 : 1, 1, 1});
     },
     "Op has strides values [1 2 1 1]"},
    {"stridedslice_offset_false",
     [](bool failing) {
       TestGraph g = stridedSliceWith({1, 1, 1, 1});
       g.the().attributes.set("offset", failing);
       return g;
     },
     "Op has offset=True"},
    {"pad_shape",
     [](bool failing) {
       return failing ? pad({8, 4}, {2, 2}, {1, 1, 0, 0}, {10, 4})
                      : pad({8, 8, 4}, {3, 2}, {1, 1, 1, 1, 0, 0}, {10, 10, 4});
     },
     "The pad tensor has the shape: [2, 2]"},
    {"padding_dimensions",
     [](bool failing) {
       return pad({1, 8, 8, 4}, {4, 2}, {0, 0, 1, 1, 1, 1, 0, failing ? 4 : 0}, {1, 10, 10, failing ? 8 : 4});
     },
     "First dimension padding: [0 0], last dimension padding: [0 4]"},
    {"pad_type",
     [](bool failing) {
       return pad({1, 8, 8, 4}, {4, 2}, {0, 0, 1, 1, 1, 1, 0, 0}, {1, 10, 10, 4},
                  failing ? DataType::Int16 : DataType::Int64);
     },
     "Tensor 'paddings' has data type: int16"},
    {"mean_height_width_product",
     [](bool failing) {
       return mean({1, failing ? 257 : 256, 256, 4}, {1, 2}, DataType::Int16);
     },
     "Datatype is int16, product of axes is 65792"},
    {"mean_width",
     [](bool failing) {
       return mean({1, 1, failing ? 4097 : 4096, 4}, {1, 2});
     },
     "Width is 4097"},
    {"mean_depth",
     [](bool failing) {
       return mean({1, 1, 1, failing ? 4097 : 4096}, {3});
     },
     "Depth is 4097, shape is [1, 1, 1, 4097], axis is [3]"},
    {"reshape_shape_constant",
     [](bool failing) { return reshapeWithComputedShape(failing ? OpType::Cast : OpType::Shape); },
     "Op has non-const input(s): shape"},
    {"argmax_axis", [](bool failing) { return argMax(failing ? 1 : -1, 4); },
     "Axis is [1] and number of input dimensions is 4"},
    {"argmax_depth", [](bool failing) { return argMax(3, failing ? 128 : 127); }, "IFM depth is 128"},
    {"lstm_no_cifg",
     [](bool failing) {
       TestGraph g = lstm();
       if (failing) {
         g.the().inputs[1] = npu::kNoTensor;
         g.the().inputs[5] = npu::kNoTensor;
       }
       return g;
     },
     "Op uses CIFG"},
    {"lstm_no_peep_hole", [](bool failing) { return lstmWithInput(9, failing); }, "Op uses peephole"},
    {"lstm_no_projection", [](bool failing) { return lstmWithInput(16, failing); }, "Op uses projection"},
    {"lstm_no_normalisation", [](bool failing) { return lstmWithInput(20, failing); }, "Op uses normalisation"},
    {"lstm_weights", [](bool failing) { return lstmWithInput(2, !failing); }, "Op has missing weights"},
    {"lstm_weight_dimensions",
     [](bool failing) {
       TestGraph g = lstm();
       if (failing) {
         g.tensor("weights5").shape = npu::Shape{20, 20, 1};
       }
       return g;
     },
     "Op recurrent weights are not 2D"},
    {"rsqrt_input_int8",
     [](bool failing) { return unary(OpType::Rsqrt, "RSQRT", failing ? DataType::Int16 : DataType::Int8); },
     "Op has ifm_dtype=int16"},
    {"slice_inputs_const", [](bool failing) { return slice(!failing); },
     "Op has non-constant tensors: Size tensor 'size'"},
    {"transpose",
     [](bool failing) {
       return transposeOp(failing ? std::vector<std::int64_t>{0, 1, 3, 2} : std::vector<std::int64_t>{0, 2, 1, 3});
     },
     "Op has ifm_shape: [1, 8, 6, 4] and permutation is: [0 1 3 2]"},
};

} // namespace

BOOST_AUTO_TEST_SUITE(npu_operator_constraints)

BOOST_AUTO_TEST_CASE(each_operator_constraint_accepts_a_valid_operation_and_names_what_breaks_it) {
  checkReasonTable(kOperatorCases);
}

BOOST_AUTO_TEST_CASE(a_quantize_of_a_constant_is_folded_rather_than_placed) {
  // Vela's optimise_quantize turns it into a constant before the NPU checks would reject the float input
  for (const bool constantInput : {true, false}) {
    TestGraph g;
    const auto ifm = constantInput ? g.constant("ifm", {4}, DataType::Float32, {0, 0, 0, 0})
                                   : g.featureMap("ifm", {4}, DataType::Float32);
    const auto ofm = g.featureMap("ofm", {4}, DataType::Int16);
    g.operation(OpType::Quantize, "QUANTIZE", {ifm}, {ofm});
    const SupportDiagnosis diagnosis = g.diagnose();
    BOOST_TEST(diagnosis.supported == constantInput);
    BOOST_TEST(diagnosis.constraint == (constantInput ? "" : "tens_dtype"));
  }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
