// SPDX-License-Identifier: Apache-2.0
// Convolution and fully connected rewrites (Vela tflite_graph_optimiser.py: convert_depthwise_to_conv,
// convert_conv_to_fc, convert_avg_pool_to_conv2d, fixup_strided_conv, rewrite_fully_connected_input,
// convert_batched_fc_shape, fixup_conv2d_backprop, fixup_bias_tensors).
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"
#include "padding_math.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <map>

namespace ethosu::lowering {

using namespace npu;

namespace {

RewriteResult single(Operation op) {
  return std::vector<Operation>{std::move(op)};
}

/// A constant like `source` (name, type, quantisation, purpose) with other values and shape.
TensorId constantLike(Subgraph& subgraph, TensorId source, Shape shape, const std::vector<std::int64_t>& values) {
  const Tensor original = subgraph.tensor(source);
  const TensorId id = addConstant(subgraph, original.name, std::move(shape), original.type, values,
                                  original.quantisation, original.purpose);
  subgraph.tensor(id).equivalenceId = original.equivalenceId;
  return id;
}

/// `source` seen with another shape of as many elements: the new constant shares its bytes.
TensorId reshapedConstant(Subgraph& subgraph, TensorId source, Shape shape) {
  const Tensor& original = subgraph.tensor(source);
  npu::require(shape.elements() == original.shape.elements(), "a reshaped constant keeps its element count");
  Tensor tensor;
  tensor.name = original.name;
  tensor.shape = std::move(shape);
  tensor.type = original.type;
  tensor.quantisation = original.quantisation;
  tensor.purpose = original.purpose;
  tensor.data = original.data;
  tensor.equivalenceId = original.equivalenceId;
  return subgraph.addTensor(std::move(tensor)); // `original` may move here: nothing reads it after
}

int outputChannelsOf(const Subgraph& subgraph, const Operation& op) {
  const Shape& weights = subgraph.tensor(op.weights()).shape;
  if (op.type == OpType::DepthwiseConv2DBias) {
    return weights.back(0);
  }
  return weights[0];
}

} // namespace

RewriteResult convertDepthwiseToConv(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::DepthwiseConv2DBias || op.attributes.getOr<std::int64_t>("depth_multiplier", 1) == 1) {
    return std::nullopt;
  }
  const auto multiplier = op.attributes.getOr<std::int64_t>("depth_multiplier", 1);
  const Shape4 ifmShape = op.ifmShapes.empty() ? shape4Of(subgraph, op.ifm()) : op.ifmShapes[0];
  const Shape4 ofmShape = op.ofmShapes.empty() ? shape4Of(subgraph, op.ofm()) : op.ofmShapes[0];
  if (ifmShape.depth != 1 || ofmShape.depth != multiplier) {
    Operation cpu = op;
    cpu.placement = Placement::Cpu;
    cpu.placementReason = "depth_multiplier > 1 is only supported when IFM depth is 1 and OFM depth equals it";
    return single(cpu);
  }
  // Depthwise [1, H, W, M] with one input channel is the convolution OHWI [M, H, W, 1].
  const Tensor& weights = subgraph.tensor(op.weights());
  const int height = weights.shape[1];
  const int width = weights.shape[2];
  const int outputs = weights.shape[3];
  const auto values = weights.integerValues();
  std::vector<std::int64_t> transposed(values.size());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int o = 0; o < outputs; ++o) {
        transposed[static_cast<std::size_t>((o * height + y) * width + x)] =
            values[static_cast<std::size_t>((y * width + x) * outputs + o)];
      }
    }
  }
  Operation conv = op;
  conv.type = OpType::Conv2DBias;
  conv.attributes.erase("depth_multiplier");
  conv.inputs[1] = constantLike(subgraph, op.weights(), Shape{outputs, height, width, 1}, transposed);
  return single(conv);
}

RewriteResult convertConvToFullyConnected(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Conv2DBias || op.ifmShapes.empty()) {
    return std::nullopt;
  }
  const Shape& weightShape = subgraph.tensor(op.weights()).shape;
  if (op.ifmShapes[0].height != 1 || op.ifmShapes[0].width != 1 || weightShape[1] != 1 || weightShape[2] != 1) {
    return std::nullopt;
  }
  Operation fc = op;
  fc.type = OpType::FullyConnected;
  fc.name += "_fc";
  fc.attributes = {};
  fc.attributes.set("weights_format", std::int64_t{0});
  fc.kernel.reset();
  fc.padding = Padding::Valid;
  fc.inputs[1] = reshapedConstant(subgraph, op.weights(), Shape{weightShape[0], weightShape[3]});
  return single(fc);
}

RewriteResult convertAvgPoolToConv(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::AvgPool || !op.kernel || op.kernel->strideX <= 3) {
    return std::nullopt;
  }
  // Strides above 3 run as a convolution with unit weights scaled by 1 / (h * w).
  Operation conv = op;
  conv.type = OpType::Conv2DBias;
  conv.name += "_conv2d";
  conv.rounding = RoundingMode::AwayZero;
  const int height = op.kernel->height;
  const int width = op.kernel->width;
  const int channels = subgraph.tensor(op.ofm()).shape.back(0);
  Quantisation quantisation;
  quantisation.scale = {1.0 / (height * width)};
  quantisation.zeroPoint = {0};
  const std::vector<std::int64_t> ones(static_cast<std::size_t>(channels * height * width), 1);
  conv.inputs.push_back(addConstant(subgraph, "weights", Shape{channels, height, width, 1},
                                    subgraph.tensor(op.ifm()).type, ones, quantisation, TensorPurpose::Weights));
  setDefaultShapes(subgraph, conv);
  return single(conv);
}

RewriteResult fixupStridedConv(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Conv2DBias || !op.kernel || op.ifmShapes.empty() || op.attributes.has("strided_conv_fixed")) {
    return std::nullopt;
  }
  Operation conv = op;
  conv.attributes.set("strided_conv_fixed", true);
  Kernel& kernel = *conv.kernel;
  const Shape4 ifmShape = op.ifmShapes[0];
  // Vela returns early for any operation but the network's first with a stride the hardware has, so
  // neither the stride optimisation nor the stride-1 fixup of 1-high or 1-wide OFMs below applies to it.
  if (op.sourceIndex != 0 && kernel.strideX < 4) {
    return single(conv);
  }
  {
    const auto [resizeFactor, finalStride] = stridedConvResizeFactor(ifmShape.width, kernel.strideX);
    const std::int64_t depthAfter = std::int64_t{ifmShape.depth} * resizeFactor;
    const bool paddingKnown = op.padding == Padding::Same || op.padding == Padding::Valid;
    if (kernel.strideX > 1 && (depthAfter <= 8 || kernel.strideX > 3) && resizeFactor != 1 && paddingKnown) {
      if (auto reshaped = reshapeStridedWeights(subgraph, conv, resizeFactor, finalStride)) {
        conv = std::move(*reshaped);
      }
    }
  }
  const Shape4 ofmShape = op.ofmShapes.empty() ? shape4Of(subgraph, op.ofm()) : op.ofmShapes[0];
  if (ofmShape.height == 1 || ofmShape.width == 1) {
    const HardwarePadding padding = hardwarePadding(conv, conv.ifmShapes[0]);
    conv.padding = Padding::Explicit;
    conv.explicitPadding = padding.padding;
    Kernel& fixed = *conv.kernel;
    fixed.strideY = ofmShape.height == 1 ? 1 : fixed.strideY;
    fixed.strideX = ofmShape.width == 1 ? 1 : fixed.strideX;
  }
  return single(conv);
}

RewriteResult optimiseStridedConvVela21(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Conv2DBias || !op.kernel || op.ifmShapes.empty() || op.attributes.has("strided_conv_fixed") ||
      op.sourceIndex != 0 || op.kernel->strideX != 2) {
    return std::nullopt;
  }
  const Shape4 ifmShape = op.ifmShapes[0];
  const Tensor& weights = subgraph.tensor(op.weights());
  if (ifmShape.depth > 4 || ifmShape.width % 2 != 0 || weights.shape.rank() != 4 || weights.shape[2] < 2) {
    return std::nullopt;
  }
  // OHWI weights: a zero-point column on the right makes the width even, then W folds into I.
  const int outputs = weights.shape[0];
  const int height = weights.shape[1];
  const int width = weights.shape[2];
  const int inputs = weights.shape[3];
  const int paddedWidth = width + width % 2;
  const std::int64_t fill = weights.quantisation.zeroPoint.empty() ? 0 : weights.quantisation.zeroPoint[0];
  const auto values = weights.integerValues();
  std::vector<std::int64_t> padded(static_cast<std::size_t>(outputs) * height * paddedWidth * inputs, fill);
  for (int row = 0; row < outputs * height; ++row) {
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(row) * width * inputs, width * inputs,
                padded.begin() + static_cast<std::ptrdiff_t>(row) * paddedWidth * inputs);
  }
  Operation conv = op;
  conv.attributes.set("strided_conv_fixed", true);
  conv.ifmShapes[0] = Shape4{ifmShape.batch, ifmShape.height, ifmShape.width / 2, ifmShape.depth * 2};
  conv.inputs[1] = addConstant(subgraph, weights.name, Shape{outputs, height, paddedWidth / 2, inputs * 2},
                               weights.type, padded, weights.quantisation, weights.purpose);
  conv.kernel->width = paddedWidth / 2;
  conv.kernel->strideX = 1;
  return single(conv);
}

RewriteResult rewriteFullyConnectedInput(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::FullyConnected || op.attributes.has("fc_shapes_fixed") || op.ifmShapes.empty() ||
      op.ofmShapes.empty()) {
    return std::nullopt;
  }
  Operation fc = op;
  fc.attributes.set("fc_shapes_fixed", true);
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const int inputDepth = subgraph.tensor(op.weights()).shape.back(0);
  if (!op.readShapes[0] && ifm.shape.rank() != 1 && inputDepth > 0 && ifm.elements() % inputDepth == 0) {
    // Vela get_shape_as_2d: the IFM as [elements / depth, 1, 1, depth].
    fc.ifmShapes[0] = Shape4{static_cast<int>(ifm.elements() / inputDepth), 1, 1, inputDepth};
    if (fc.ifmShapes[0].batch > 1 && fc.ofmShapes[0].batch == 1) {
      fc.ofmShapes[0] = Shape4{fc.ofmShapes[0].height * fc.ofmShapes[0].width, 1, 1, fc.ofmShapes[0].depth};
    }
  }
  // Vela convert_batched_fc_shape: a batch becomes H x W.
  static const std::map<int, std::pair<int, int>> kBatchSplit{{4, {2, 2}}, {8, {2, 4}}, {16, {4, 4}}};
  const auto split = [](int batch) {
    const auto it = kBatchSplit.find(batch);
    return it == kBatchSplit.end() ? std::pair<int, int>{1, batch} : it->second;
  };
  if (fc.ifmShapes[0].batch > 1) {
    const auto [h, w] = split(fc.ifmShapes[0].batch);
    fc.ifmShapes[0] = Shape4{1, h, w, fc.ifmShapes[0].depth};
    const auto [oh, ow] = split(fc.ofmShapes[0].batch);
    fc.ofmShapes[0] = Shape4{1, oh, ow, fc.ofmShapes[0].depth};
  }
  return single(fc);
}

RewriteResult fixupTransposeConv(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Conv2DBackpropInput) {
    return std::nullopt;
  }
  Operation conv = op;
  std::swap(conv.inputs[0], conv.inputs[2]);
  conv.type = OpType::Conv2DBackpropInputSwitchedBias;
  if (conv.kernel && (conv.kernel->strideX > 1 || conv.kernel->strideY > 1)) {
    conv.ifmResampling = Resampling::Transpose;
  }
  if (conv.kernel) {
    conv.kernel->strideX = 1;
    conv.kernel->strideY = 1;
  }
  setDefaultShapes(subgraph, conv);
  // The operation keeps the shapes it was given before a bypassed RESHAPE changed its tensors (Vela's
  // fixup_conv2d_backprop leaves ifm_shapes and ofm_shapes as they are).
  if (!op.ofmShapes.empty()) {
    conv.ofmShapes = op.ofmShapes;
  }
  if (op.ifmShapes.size() == conv.ifmShapes.size() && !op.ifmShapes.empty()) {
    conv.ifmShapes = op.ifmShapes;
  }
  return single(conv);
}

namespace {

/// Vela's fixup_bias_tensors: an operation that needs a bias and has none gets a zero one, whose type
/// `biasType` chooses from the IFM's.
RewriteResult addMissingBias(Subgraph& subgraph, const Operation& op, DataType (*biasType)(DataType)) {
  const bool needsBias = op.type == OpType::Conv2DBias || op.type == OpType::DepthwiseConv2DBias ||
                         op.type == OpType::FullyConnected || op.type == OpType::Conv2DBackpropInputSwitchedBias;
  if (!needsBias || op.weights() == kNoTensor || op.bias() != kNoTensor) {
    return std::nullopt;
  }
  Operation fixed = op;
  const std::size_t biasIndex = op.type == OpType::Conv2DBackpropInputSwitchedBias ? 3 : 2;
  fixed.inputs.resize(std::max(fixed.inputs.size(), biasIndex + 1), kNoTensor);
  fixed.inputs[biasIndex] =
      addZeroBiasOf(subgraph, op.name, outputChannelsOf(subgraph, op), biasType(subgraph.tensor(op.ifm()).type));
  return single(fixed);
}

} // namespace

RewriteResult fixupBiasTensors(Subgraph& subgraph, const Operation& op) {
  return addMissingBias(subgraph, op, zeroBiasType);
}

RewriteResult fixupBiasTensorsVela21(Subgraph& subgraph, const Operation& op) {
  return addMissingBias(subgraph, op, [](DataType) { return DataType::Int32; });
}

RewriteResult fixupDilation(Subgraph& subgraph, const Operation& op) {
  if ((op.type != OpType::Conv2DBias && op.type != OpType::DepthwiseConv2DBias) || !op.kernel ||
      (op.kernel->dilationX <= 2 && op.kernel->dilationY <= 2) || op.weights() == kNoTensor) {
    return std::nullopt;
  }
  // Dilation above 2 is built into a sparse kernel; an even dilation keeps a hardware dilation of 2 and
  // halves the kernel (Vela fixup_dilation_gt2).
  const Kernel kernel = *op.kernel;
  const int hardwareY = kernel.dilationY % 2 == 0 ? 2 : 1;
  const int hardwareX = kernel.dilationX % 2 == 0 ? 2 : 1;
  const int scaleY = kernel.dilationY / hardwareY;
  const int scaleX = kernel.dilationX / hardwareX;
  const Tensor weights = subgraph.tensor(op.weights());
  // OHWI for convolutions, [1, H, W, C] for depthwise: H and W are dimensions 1 and 2 either way.
  const int outer = weights.shape[0];
  const int height = weights.shape[1];
  const int width = weights.shape[2];
  const int inner = weights.shape[3];
  const int newHeight = (height - 1) * scaleY + 1;
  const int newWidth = (width - 1) * scaleX + 1;
  const auto values = weights.integerValues();
  // The holes hold the weights' zero point, i.e. real zeros (Vela writes raw zeros, the same for the
  // symmetric int8 weights the NPU checks require, but wrong for asymmetric uint8 weights).
  const std::int64_t fill = weights.quantisation.zeroPoint.size() == 1 ? weights.quantisation.zeroPoint[0] : 0;
  std::vector<std::int64_t> sparse(static_cast<std::size_t>(outer) * newHeight * newWidth * inner, fill);
  for (int o = 0; o < outer; ++o) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        for (int i = 0; i < inner; ++i) {
          sparse[static_cast<std::size_t>(((o * newHeight + y * scaleY) * newWidth + x * scaleX) * inner + i)] =
              values[static_cast<std::size_t>(((o * height + y) * width + x) * inner + i)];
        }
      }
    }
  }
  Operation dilated = op;
  dilated.inputs[1] = constantLike(subgraph, op.weights(), Shape{outer, newHeight, newWidth, inner}, sparse);
  dilated.kernel->height = newHeight;
  dilated.kernel->width = newWidth;
  dilated.kernel->dilationY = hardwareY;
  dilated.kernel->dilationX = hardwareX;
  return single(dilated);
}

RewriteResult fixupAsymmetricWeights(Subgraph& subgraph, const Operation& op) {
  if ((op.type != OpType::Conv2DBias && op.type != OpType::DepthwiseConv2DBias) || op.weights() == kNoTensor) {
    return std::nullopt;
  }
  const DataType ifmType = subgraph.tensor(op.ifm()).type;
  const Quantisation& quantisation = subgraph.tensor(op.weights()).quantisation;
  const bool asymmetric = std::any_of(quantisation.zeroPoint.begin(), quantisation.zeroPoint.end(),
                                      [](std::int64_t zeroPoint) { return zeroPoint != 0; });
  if ((ifmType != DataType::Int8 && ifmType != DataType::Int16) || !asymmetric) {
    return std::nullopt;
  }
  // The accelerator only accepts asymmetric int8/int16 weights when told to force them symmetric (Vela's
  // --force-symmetric-int-weights); their zero points are then taken as zero (Vela fixup_asymmetric_weights).
  Operation symmetric = op;
  Tensor weights = subgraph.tensor(op.weights());
  weights.name += "_symmetric";
  std::fill(weights.quantisation.zeroPoint.begin(), weights.quantisation.zeroPoint.end(), 0);
  symmetric.inputs[1] = subgraph.addTensor(std::move(weights));
  return single(symmetric);
}

} // namespace ethosu::lowering
