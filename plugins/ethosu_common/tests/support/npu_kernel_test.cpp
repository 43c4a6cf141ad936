// SPDX-License-Identifier: Apache-2.0
// Reasons table for Vela's NPU constraints on kernels: strides, dilation, filter sizes, weights, biases
// and transpose convolution geometry.

#include "test_operations.hpp"

namespace ethosu::test {
namespace {

TestGraph convolutionWith(npu::Kernel kernel) {
  TestGraph g = convolution();
  g.the().kernel = kernel;
  return g;
}

TestGraph poolingWith(OpType type, npu::Kernel kernel, npu::Padding padding) {
  TestGraph g = pooling(type);
  g.the().kernel = kernel;
  g.the().padding = padding;
  return g;
}

/// A 16x16 convolution over 256 channels: 65536 weights per output channel, all `value`.
TestGraph heavyConvolution(std::int64_t value) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 16, 16, 256});
  const auto weights = g.filled("weights", {1, 16, 16, 256}, DataType::Int8, value);
  const auto bias = g.filled("bias", {1}, DataType::Int32, 0);
  const auto ofm = g.featureMap("ofm", {1, 16, 16, 1});
  auto& op = g.operation(OpType::Conv2DBias, "CONV_2D", {ifm, weights, bias}, {ofm});
  op.kernel = kernelOf(16, 16);
  op.padding = npu::Padding::Same;
  return g;
}

/// A 16x16 depthwise convolution over 256 channels of uint8 weights, all 200, with one zero point per
/// channel, the smallest `smallestZero`: Vela sums |weight - zero| over all 65536 weights per zero point.
/// The feature maps are uint8, where asymmetric weights are allowed.
TestGraph heavyDepthwise(std::int64_t smallestZero) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 16, 16, 256});
  const auto weights = g.filled("weights", {1, 16, 16, 256}, DataType::UInt8, 200);
  const auto bias = g.filled("bias", {256}, DataType::Int32, 0);
  const auto ofm = g.featureMap("ofm", {1, 16, 16, 256});
  auto& op = g.operation(OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D", {ifm, weights, bias}, {ofm});
  op.kernel = kernelOf(16, 16);
  op.padding = npu::Padding::Same;
  g.tensor("ifm").type = DataType::UInt8;
  g.tensor("ofm").type = DataType::UInt8;
  auto& zeroPoints = g.tensor("weights").quantisation.zeroPoint;
  zeroPoints.assign(256, 150);
  zeroPoints[100] = smallestZero;
  return g;
}

TestGraph depthwiseWithMultiplier(int ifmChannels) {
  TestGraph g;
  const int ofmChannels = ifmChannels * 2;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, ifmChannels});
  const auto weights = g.filled("weights", {1, 3, 3, ofmChannels}, DataType::Int8, 1);
  const auto bias = g.filled("bias", {ofmChannels}, DataType::Int32, 0);
  const auto ofm = g.featureMap("ofm", {1, 8, 8, ofmChannels});
  auto& op = g.operation(OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D", {ifm, weights, bias}, {ofm});
  op.kernel = kernelOf(3, 3);
  op.padding = npu::Padding::Same;
  op.attributes.set("depth_multiplier", std::int64_t{2});
  return g;
}

TestGraph biasWith(DataType type, npu::Shape shape, std::int64_t value) {
  TestGraph g = convolution();
  npu::Tensor& bias = g.tensor("bias");
  bias.type = type;
  bias.shape = std::move(shape);
  g.setValues("bias", std::vector<std::int64_t>(static_cast<std::size_t>(bias.shape.elements()), value));
  return g;
}

const std::vector<ReasonCase> kKernelCases{
    {"stride_width_no_upper_limit", [](bool failing) { return convolutionWith(kernelOf(3, 3, 1, failing ? 4 : 3)); },
     "Op has stride WxH as: 1x4, ifm shape as: [1, 8, 8, 4], ofm shape as: [1, 8, 8, 8]"},
    {"stride_width_no_upper_limit", // a width stride of 4 folds into the 8 wide IFM, 5 does not
     [](bool failing) { return convolutionWith(kernelOf(3, 3, failing ? 5 : 4, 1)); },
     "Op has stride WxH as: 5x1, ifm shape as: [1, 8, 8, 4], ofm shape as: [1, 8, 8, 8]"},
    {"dilated_height_range", [](bool failing) { return convolutionWith(kernelOf(3, 3, 1, 1, 1, failing ? 32 : 31)); },
     "Op has dilated kernel height as: 65"},
    {"dilated_product_range", [](bool failing) { return convolutionWith(kernelOf(3, 3, 1, 1, failing ? 40 : 30, 31)); },
     "Op has product of dilated kernel width and height as: 5103"},
    {"weights_type",
     [](bool failing) {
       TestGraph g = convolution();
       if (failing) {
         g.tensor("weights").type = DataType::Int16;
         g.setValues("weights", std::vector<std::int64_t>(8 * 3 * 3 * 4, 1));
       }
       return g;
     },
     "Tensor 'weights' is 16-bit"},
    {"weights_const",
     [](bool failing) {
       TestGraph g = fullyConnected();
       if (failing) {
         g.tensor("weights").data = nullptr;
         g.subgraph.inputs.push_back(g.the().inputs[1]); // fed at run time
       }
       return g;
     },
     "Tensor 'weights' has non-constant values"},
    {"weights_limit", [](bool failing) { return heavyConvolution(failing ? -128 : 127); },
     "Tensor 'weights' has the sum of weights: 8388608"},
    {"weights_limit", [](bool failing) { return heavyDepthwise(failing ? 72 : 73); },
     "Tensor 'weights' has the sum of weights: 8388608"},
    {"bias_shape", // only a bias fed at run time keeps its shape: Vela's reader flattens constant ones
     [](bool failing) {
       TestGraph g = biasWith(DataType::Int32, failing ? npu::Shape{1, 8} : npu::Shape{8}, 0);
       g.tensor("bias").data = nullptr;
       g.subgraph.inputs.push_back(g.the().inputs[2]);
       return g;
     },
     "Tensor 'bias' has shape: [1, 8]"},
    {"bias_type", [](bool failing) { return biasWith(failing ? DataType::Int16 : DataType::Int64, {8}, 0); },
     "Tensor 'bias' has data type: int16"},
    {"bias_40bit",
     [](bool failing) {
       return biasWith(DataType::Int64, {8}, failing ? -(std::int64_t{1} << 39) : (std::int64_t{1} << 40) - 1);
     },
     "Tensor 'bias' has values larger than 40-bits"},
    {"tconv_stride",
     [](bool failing) {
       TestGraph g = transposeConvolution();
       g.the().kernel = kernelOf(3, 3, failing ? 2 : 1, 1);
       g.tensor("ofm").shape = npu::Shape{1, 4, failing ? 8 : 4, 8};
       return g;
     },
     "Op has ifm_height=4, kernel_height=3 and stride WxH as 2x1"},
    {"tconv_same",
     [](bool failing) {
       TestGraph g = transposeConvolution();
       g.tensor("ofm").shape = npu::Shape{1, failing ? 9 : 8, 8, 8};
       return g;
     },
     "Op has ifm_shape=[1, 4, 4, 4], ofm_shape=[1, 9, 8, 8] and stride WxH as 2x2"},
    {"tconv_valid",
     [](bool failing) {
       TestGraph g = transposeConvolution();
       g.the().padding = npu::Padding::Valid;
       const int size = failing ? 8 : 9; // 4 * 2 + (3 - 2)
       g.tensor("ofm").shape = npu::Shape{1, size, size, 8};
       return g;
     },
     "Op has ifm_shape=[1, 4, 4, 4], ofm_shape=[1, 8, 8, 8], stride WxH as 2x2 and kernel WxH as 3x3"},
    {"depthwise_conv_stride",
     [](bool failing) {
       TestGraph g = depthwiseConvolution();
       g.the().kernel = kernelOf(3, 3, failing ? 4 : 3, 3);
       return g;
     },
     "Op has stride WxH as: 4x3"},
    {"depth_multiplier", [](bool failing) { return depthwiseWithMultiplier(failing ? 2 : 1); },
     "Op has ifm_channels=2, ofm_channels=4 and depth_multiplier=2"},
    {"stride_range",
     [](bool failing) {
       const int size = failing ? 4 : 3;
       return poolingWith(OpType::MaxPool, kernelOf(size, size, size, size), npu::Padding::Valid);
     },
     "Op has stride WxH as: 4x4"},
    {"stride_range_no_padding",
     [](bool failing) {
       return poolingWith(OpType::AvgPool, kernelOf(4, 1, 4, 1), failing ? npu::Padding::Same : npu::Padding::Valid);
     },
     "Op has stride WxH as: 4x1, ifm shape as: [1, 8, 8, 4], ofm shape as: [1, 4, 4, 4], padding: Padding.SAME"},
    {"filter_range",
     [](bool failing) { return poolingWith(OpType::AvgPool, kernelOf(failing ? 9 : 8, 2), npu::Padding::Same); },
     "Op has kernel filter WxH as: 9x2"},
    {"filter_height_range",
     [](bool failing) { return poolingWith(OpType::MaxPool, kernelOf(1, failing ? 257 : 256), npu::Padding::Valid); },
     "Op has kernel filter height as: 257"},
    {"filter_product_range",
     [](bool failing) { return poolingWith(OpType::MaxPool, kernelOf(failing ? 257 : 256, 256), npu::Padding::Same); },
     "Op has product of kernel filter width and height as: 65792"},
    {"filter_height_range_valid_pad",
     [](bool failing) { return poolingWith(OpType::AvgPool, kernelOf(1, failing ? 257 : 256), npu::Padding::Valid); },
     "Op has kernel filter height as: 257"},
    {"filter_product_range_valid_pad",
     [](bool failing) { return poolingWith(OpType::AvgPool, kernelOf(failing ? 257 : 256, 256), npu::Padding::Valid); },
     "Op has product of kernel filter width and height as: 65792"},
};

} // namespace

BOOST_AUTO_TEST_SUITE(npu_kernel_constraints)

BOOST_AUTO_TEST_CASE(each_kernel_constraint_accepts_its_boundary_and_names_what_lies_past_it) {
  checkReasonTable(kKernelCases);
}

BOOST_AUTO_TEST_CASE(global_pooling_is_judged_after_vela_resets_its_stride_to_one) {
  for (const OpType type : {OpType::AvgPool, OpType::MaxPool}) {
    TestGraph g = poolingWith(type, kernelOf(8, 8, 8, 8), npu::Padding::Same);
    g.tensor("ofm").shape = npu::Shape{1, 1, 1, 4};
    BOOST_TEST(g.diagnose().supported);
  }
}

BOOST_AUTO_TEST_CASE(constant_biases_and_weights_are_seen_in_the_shapes_vela_reads_them_in) {
  TestGraph g = biasWith(DataType::Int32, {1, 1, 1, 1, 8}, 0); // flattened to [8] by Vela's reader
  BOOST_TEST(g.diagnose().supported);
  g.tensor("ifm").shape = npu::Shape{1, 8, 8, 65536};
  g.tensor("weights").shape = npu::Shape{8, 3, 3, 65536};
  const SupportDiagnosis diagnosis = g.diagnose();
  BOOST_TEST(diagnosis.constraint == "tens_dimension");
  BOOST_TEST(diagnosis.detail == // weights in HWIO, as Vela prints them
             "Tensor 'ifm' has shape: [1, 8, 8, 65536], Tensor 'weights' has shape: [3, 3, 65536, 8]");
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
