// SPDX-License-Identifier: Apache-2.0
// Vela 2.1.1's supported-operator constraints that Vela 3.10 relaxed (see vela21_support.hpp). Each
// check below names the 2.1.1 constraint it reproduces; the texts are 2.1.1's.
#include "ethosu/support/vela21_support.hpp"

#include "constraint.hpp"
#include "operation_view.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>
#include <sstream>

namespace ethosu {

using npu::OpType;

namespace {

using support::integerValues;

std::optional<SupportDiagnosis> failing(std::string constraint, std::string description, std::string detail) {
  return SupportDiagnosis{false, SupportStage::NpuConstraint, std::move(constraint), std::move(description),
                          std::move(detail)};
}

template <std::size_t N>
bool among(OpType type, const std::array<OpType, N>& types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

// Types Vela 3.10 places on the NPU that 2.1.1's SupportedOperators.supported_operators lacks.
constexpr std::array kTypesUnknownTo21{OpType::Shape,
                                       OpType::UnidirectionalSequenceLstm,
                                       OpType::ResizeNearestNeighbor,
                                       OpType::ArgMax,
                                       OpType::Exp,
                                       OpType::Rsqrt,
                                       OpType::SquaredDifference,
                                       OpType::Prelu,
                                       OpType::Squeeze,
                                       OpType::ExpandDims,
                                       OpType::Transpose};
constexpr std::array kConvolutions{OpType::Conv2DBias, OpType::Conv2D, OpType::QuantizedConv2D,
                                   OpType::DepthwiseConv2DBias, OpType::Conv2DBackpropInput};
constexpr std::array kPoolings{OpType::ReduceSum, OpType::MaxPool, OpType::QuantizedMaxPool, OpType::AvgPool,
                               OpType::QuantizedAvgPool};
constexpr std::array kPadConsumers{OpType::Conv2DBias,          OpType::Conv2D,    OpType::QuantizedConv2D,
                                   OpType::DepthwiseConv2DBias, OpType::ReduceSum, OpType::MaxPool,
                                   OpType::QuantizedMaxPool,    OpType::AvgPool,   OpType::QuantizedAvgPool};
constexpr std::array kElementwise{OpType::Minimum, OpType::Maximum, OpType::Add, OpType::Mul,       OpType::Sub,
                                  OpType::SHL,     OpType::SHR,     OpType::Abs, OpType::LeakyRelu, OpType::CLZ};

std::string shapeText(const npu::Shape& shape) {
  std::ostringstream text;
  text << '[';
  for (int i = 0; i < shape.rank(); ++i) {
    text << (i > 0 ? ", " : "") << shape[i];
  }
  text << ']';
  return text.str();
}

/// constraint_stride_range (convolutions and poolings) and constraint_dilation_range (convolutions).
std::optional<SupportDiagnosis> checkKernel(const npu::Operation& op) {
  if (!op.kernel) {
    return std::nullopt;
  }
  const npu::Kernel& kernel = *op.kernel;
  if (kernel.strideX < 1 || kernel.strideX > 3 || kernel.strideY < 1 || kernel.strideY > 3) {
    return failing("stride_range", "Stride values for both width and height must be in the range [1, 3]",
                   "Op has stride WxH as: " + std::to_string(kernel.strideX) + "x" + std::to_string(kernel.strideY));
  }
  if (among(op.type, kConvolutions) &&
      (kernel.dilationX < 1 || kernel.dilationX > 2 || kernel.dilationY < 1 || kernel.dilationY > 2)) {
    return failing("dilation_range", "Dilation factor values for both width and height must be in the range [1, 2]",
                   "Op has dilation factor WxH as: " + std::to_string(kernel.dilationX) + "x" +
                       std::to_string(kernel.dilationY));
  }
  if (op.type == OpType::Conv2DBackpropInput && (kernel.strideX != 2 || kernel.strideY != 2)) {
    return failing("tconv_stride", "Stride values for both width and height must be 2",
                   "Op has stride WxH as: " + std::to_string(kernel.strideX) + "x" + std::to_string(kernel.strideY));
  }
  return std::nullopt;
}

/// constraint_resize: 1x1 IFM, equal shapes, or repeated 2x upscaling (2x - 1 with align_corners).
std::optional<SupportDiagnosis> checkResize(const support::OperationView& view) {
  const npu::Shape& ifm = view.ifm()->shape;
  const npu::Shape& ofm = view.ofm()->shape;
  const bool alignCorners = view.op().attributes.getOr<bool>("align_corners", false);
  bool valid = false;
  if (ifm.rank() == 4) {
    if ((ifm[1] == 1 && ifm[2] == 1) || ifm == ofm) {
      valid = true;
    } else if (ofm.rank() == 4) {
      std::array<std::int64_t, 2> upscaled{ifm[1], ifm[2]};
      const std::array<std::int64_t, 2> out{ofm[1], ofm[2]};
      while (upscaled[0] < out[0] && upscaled[1] < out[1]) {
        for (auto& size : upscaled) {
          size = size * 2 - (alignCorners ? 1 : 0);
        }
        if (upscaled == out) {
          valid = true;
          break;
        }
      }
    }
  }
  if (valid) {
    return std::nullopt;
  }
  return failing("resize",
                 "The width and height of the IFM and OFM must match one of the following criteria:\n"
                 "        IFM W and H must both be 1\n"
                 "        IFM must match OFM\n"
                 "        OFM W and H must be 2x IFM -1, if align_corners is True\n"
                 "        OFM W and H must be 2x IFM, if align_corners is False",
                 "Op has ifm_shape=" + shapeText(ifm) + ", ofm_shape=" + shapeText(ofm) +
                     " and align_corners=" + (alignCorners ? "True" : "False"));
}

/// The MEAN constraints of 2.1.1: 8-bit input, set A or B, 2-4D, H/W axes, H*W bounds.
std::optional<SupportDiagnosis> checkMean(const support::OperationView& view) {
  const npu::Tensor& ifm = *view.ifm();
  const npu::Tensor& ofm = *view.ofm();
  if (ifm.type != npu::DataType::Int8 && ifm.type != npu::DataType::UInt8) {
    return failing("input_8bit", "IFM must be int8 or uint8", "Op has ifm_dtype=" + std::string(npu::nameOf(ifm.type)));
  }
  const auto axisValues = integerValues(view.input(1)).value_or(std::vector<std::int64_t>{});
  const bool axisHW = axisValues.size() == 2 && std::min(axisValues[0], axisValues[1]) == 1 &&
                      std::max(axisValues[0], axisValues[1]) == 2;
  const bool keepDims = view.op().attributes.getOr<bool>("keep_dims", false);
  const bool setA = ifm.shape.rank() == 4 && axisHW && keepDims;
  const bool setB = ifm.quantisation.zeroPoint == ofm.quantisation.zeroPoint &&
                    static_cast<float>(ifm.quantisation.scaleAt(0)) == static_cast<float>(ofm.quantisation.scaleAt(0));
  if (!setA && !setB) {
    return failing("mean_properties",
                   "Every constraint in either one (or both) of the following sets of constraints must be fulfilled:\n"
                   "        Set A:\n"
                   "            IFM dimensions are 4,\n"
                   "            Axis indices are 1 and 2,\n"
                   "            keep_dims is set to True\n"
                   "        Set B:\n"
                   "            IFM zero point and OFM zero point are the same,\n"
                   "            IFM scale and OFM scale are the same",
                   "");
  }
  const int dims = ifm.shape.rank();
  if (dims < 2 || dims > 4) {
    return failing("mean_input_dims", "Input tensor must be at least 2D", "Input is " + std::to_string(dims) + "D");
  }
  // A scalar axis may name either axis; a list must name both (2.1.1 compares the list with [a, b], [b, a]).
  const bool scalarAxis = view.input(1) != nullptr && view.input(1)->shape.rank() == 0;
  const auto axisIs = [&](std::initializer_list<std::int64_t> single, std::int64_t a, std::int64_t b) {
    if (scalarAxis && axisValues.size() == 1) {
      return std::find(single.begin(), single.end(), axisValues[0]) != single.end();
    }
    return axisValues.size() == 2 && std::min(axisValues[0], axisValues[1]) == a &&
           std::max(axisValues[0], axisValues[1]) == b;
  };
  if (!(dims == 4 ? axisIs({1, 2}, 1, 2) : axisIs({0, 1}, 0, 1))) {
    return failing("mean_axis", "Axis indices must correspond to height and width axes", "");
  }
  const int heightAxis = dims < 4 ? 0 : 1;
  const std::int64_t product = std::int64_t{ifm.shape[heightAxis]} * ifm.shape[heightAxis + 1];
  if (product > 64 * 64) {
    return failing("mean_height_width_product", "Product of height and width can be at most 4096",
                   "Product of height and width is " + std::to_string(product));
  }
  if (dims == 4 && ifm.type == npu::DataType::Int8 && keepDims && axisHW && product > 16 * 16) {
    return failing("mean_height_width_product_int8",
                   "Product of IFM height and width can be at most 256 when the following are true:\n"
                   "        IFM dimensions are 4,\n"
                   "        Axis indices are 1 and 2,\n"
                   "        keep_dims is set to True and\n"
                   "        IFM datatype is int8",
                   "Product of height and width is " + std::to_string(product));
  }
  return std::nullopt;
}

/// 2.1.1 folds a PAD only into a following VALID convolution or pooling, padding H and W by at most
/// half the kernel (constraint_pad_shape, _padding_dimensions, _pad_ofm, _pad_size).
std::optional<SupportDiagnosis> checkPad(const npu::Subgraph& subgraph, const npu::Operation& op) {
  const npu::Tensor* padTensor =
      op.inputs.size() > 1 && op.inputs[1] != npu::kNoTensor ? &subgraph.tensor(op.inputs[1]) : nullptr;
  if (padTensor == nullptr || padTensor->shape != npu::Shape{4, 2}) {
    return failing("pad_shape", "The padding tensor must have the shape [4,2]", "");
  }
  const auto pads = integerValues(padTensor);
  if (!pads) {
    return std::nullopt; // 3.10's pad_constant refuses it too
  }
  const auto& p = *pads;
  if (p[0] + p[1] + p[6] + p[7] != 0) {
    return failing("padding_dimensions", "The pad tensor can only pad width and height", "");
  }
  const npu::TensorId ofm = op.outputs.at(0);
  std::vector<const npu::Operation*> consumers;
  for (const npu::Operation& other : subgraph.operations) {
    if (std::find(other.inputs.begin(), other.inputs.end(), ofm) != other.inputs.end()) {
      consumers.push_back(&other);
    }
  }
  const bool isOutput = std::find(subgraph.outputs.begin(), subgraph.outputs.end(), ofm) != subgraph.outputs.end();
  const bool consumersOk = !isOutput && std::all_of(consumers.begin(), consumers.end(), [](const npu::Operation* c) {
    return among(c->type, kPadConsumers) && c->padding == npu::Padding::Valid;
  });
  if (!consumersOk) {
    return failing("pad_ofm",
                   "Must be followed by one of the following operator types: AVERAGE_POOL_2D, CONV_2D, "
                   "DEPTHWISE_CONV_2D, MAX_POOL_2D",
                   "");
  }
  const std::int64_t top = p[2];
  const std::int64_t bottom = p[3];
  const std::int64_t left = p[4];
  const std::int64_t right = p[5];
  for (const npu::Operation* consumer : consumers) {
    if (!consumer->kernel) {
      continue;
    }
    const int kw = consumer->kernel->areaWidth();
    const int kh = consumer->kernel->areaHeight();
    const bool avgPool = consumer->type == OpType::AvgPool || consumer->type == OpType::QuantizedAvgPool;
    const auto leadingOk = [](std::int64_t pad, int stride, int size) {
      return pad == size / 2 || size / 2 <= stride || pad % stride == 0;
    };
    bool valid = true;
    if (avgPool) {
      valid = (left == 0 || left == kw / 2) && (right == 0 || right == kw / 2) && (top == 0 || top == kh / 2) &&
              (bottom == 0 || bottom == kh / 2);
    } else {
      valid = left <= kw / 2 && right <= kw / 2 && top <= kh / 2 && bottom <= kh / 2 &&
              leadingOk(top, consumer->kernel->strideY, kh) && leadingOk(left, consumer->kernel->strideX, kw);
    }
    if (!valid) {
      return failing("pad_size", "Padding must be at most kernel size divided by 2", "");
    }
  }
  return std::nullopt;
}

/// constraint_elemwise_batch_size: inputs of more than two dimensions must have batch 1.
std::optional<SupportDiagnosis> checkElementwiseBatch(const support::OperationView& view) {
  for (const npu::Tensor* input : {view.ifm(), view.ifm2()}) {
    if (input != nullptr && input->shape.rank() > 2 && input->shape[0] != 1) {
      return failing("elemwise_batch_size", "Batch size must be 1 for Input tensors with more than 2 dimensions",
                     "Op has invalid input tensors: " + input->name);
    }
  }
  return std::nullopt;
}

} // namespace

SupportDiagnosis checkVela21Restrictions(const npu::Subgraph& subgraph, const npu::Operation& op) {
  if (support::isGraphPlaceholder(op.type)) {
    return {};
  }
  if (among(op.type, kTypesUnknownTo21)) {
    return {false, SupportStage::OperatorType, "operator_type", "Op type is not supported by the NPU (a CPU only op)",
            "Op type is " + tfliteOperatorName(op)};
  }
  const support::OperationView view(subgraph, op);
  std::optional<SupportDiagnosis> failure;
  if (among(op.type, kConvolutions) || among(op.type, kPoolings)) {
    failure = checkKernel(op);
  } else if (op.type == OpType::ResizeBilinear && view.ifm() != nullptr && view.ofm() != nullptr) {
    failure = checkResize(view);
  } else if (op.type == OpType::Mean && view.ifm() != nullptr && view.ofm() != nullptr) {
    failure = checkMean(view);
  } else if (op.type == OpType::Pad && !op.outputs.empty()) {
    failure = checkPad(subgraph, op);
  } else if (among(op.type, kElementwise)) {
    failure = checkElementwiseBatch(view);
  }
  if (!failure && op.type == OpType::Quantize && view.ifm() != nullptr && npu::isFloat(view.ifm()->type)) {
    // 3.10 folds a QUANTIZE of a constant before its checks; 2.1.1 checks its float input
    failure = failing("tens_dtype", "Tensors must be of type: int16, int32, int8, uint8",
                      "Tensor '" + view.ifm()->name + "' has data type: " + std::string(npu::nameOf(view.ifm()->type)));
  }
  if (!failure && op.type == OpType::LeakyRelu && op.attributes.getOr<double>("alpha", 0.0) < 0.0) {
    failure = failing("alpha_valid", "Alpha must not be negative", "");
  }
  return failure.value_or(SupportDiagnosis{});
}

} // namespace ethosu
