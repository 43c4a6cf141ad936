// SPDX-License-Identifier: Apache-2.0
#include "operations/operation_semantics.hpp"

#include "commands/scaling.hpp"

#include "npu/core/diagnostics.hpp"

#include <cmath>

namespace ethosu::codegen {

namespace {

using npu::OpType;

using npu::isAvgPool;
using npu::isMaxPool;
using npu::isReluLike;

bool isResize(OpType type) {
  return type == OpType::ResizeBilinear || type == OpType::ResizeNearestNeighbor;
}

std::string memoryFunction(const npu::Operation& op) {
  return op.attributes.getOr<std::string>("memory_function", "");
}

/// The operation was (or absorbed) a QUANTIZE (Vela: any op of the pass is or was a Quantize).
bool fusedQuantize(const npu::Operation& op) {
  return op.type == OpType::Quantize || op.sourceType == "QUANTIZE";
}

bool hasExplicitScaling(const npu::Operation& op) {
  return op.attributes.has("explicit_scaling_multiplier");
}

bool forcedOutputQuantisation(const npu::Operation& op) {
  return op.attributes.getOr<bool>("forced_output_quantisation", false);
}

/// Block type of the operator the operation came from (Vela: op.original_type.npu_block_type): the type
/// lowering created it with, or the model's operator.
NpuBlockType originalBlockType(const npu::Operation& op) {
  if (const auto created = op.attributes.get<std::string>("original_type")) {
    const auto type = npu::opTypeFromName(*created);
    return type ? npuBlockTypeOf(*type) : NpuBlockType::Default;
  }
  if (op.sourceType == "CONV_2D" || op.sourceType == "TRANSPOSE_CONV") {
    return NpuBlockType::ConvolutionMxN;
  }
  if (op.sourceType == "DEPTHWISE_CONV_2D") {
    return NpuBlockType::ConvolutionDepthWise;
  }
  return NpuBlockType::Default;
}

// Vela: high_level_command_to_npu_op.use_zero_point_0.
bool useZeroPointZero(const npu::Subgraph& subgraph, const npu::Operation& op, npu::TensorId tensor, bool input) {
  if (subgraph.tensor(tensor).type == npu::DataType::Int32 && input) {
    return true;
  }
  if (op.rounding == npu::RoundingMode::AwayZero) {
    const bool fromAvgPool = op.sourceType == "AVERAGE_POOL_2D";
    if (fromAvgPool && op.type == OpType::Conv2DBias &&
        (op.padding == npu::Padding::Explicit || op.padding == npu::Padding::Valid)) {
      return true;
    }
    if (op.sourceType == "RESIZE_BILINEAR" && op.type == OpType::DepthwiseConv2DBias) {
      return true;
    }
    if (!input && fromAvgPool && op.padding == npu::Padding::Explicit && op.type == OpType::DepthwiseConv2DBias) {
      return true;
    }
  }
  if (op.type != OpType::AvgPool && op.type != OpType::CLZ && op.type != OpType::SHL && !isResize(op.type)) {
    return false;
  }
  if (op.type == OpType::AvgPool && hasExplicitScaling(op)) {
    return false;
  }
  const bool activationAllows =
      !op.activation || forcedOutputQuantisation(op) || (isAvgPool(op.type) && isReluLike(op.activation->type));
  return activationAllows && memoryFunction(op) != "ConcatSliceWrite" && !fusedQuantize(op);
}

// Vela: high_level_command_to_npu_op.get_rounding_mode.
NpuRounding roundingOf(const npu::Subgraph& subgraph, const npu::Operation& op, const OperationInfo& info) {
  NpuRounding rounding = NpuRounding::TFLite;
  if (isResize(op.type)) {
    rounding = NpuRounding::Natural;
  } else if ((originalBlockType(op) == NpuBlockType::ConvolutionMxN ||
              originalBlockType(op) == NpuBlockType::ConvolutionDepthWise) &&
             subgraph.tensor(op.ifm()).type == npu::DataType::Int16) {
    rounding = NpuRounding::Natural;
  } else if (!info.fusedQuantize && isAvgPool(op.type) && memoryFunction(op) == "ConcatSliceWrite" &&
             (!op.kernel || op.kernel->elementsWH() == 1)) {
    rounding = NpuRounding::Natural;
  }
  // Our IR has no "unset" rounding: TFLite is the default and any other mode was chosen by lowering.
  switch (op.rounding) {
  case npu::RoundingMode::TFLite:
    break;
  case npu::RoundingMode::ToZero:
    rounding = NpuRounding::Truncate;
    break;
  case npu::RoundingMode::HalfUp:
  case npu::RoundingMode::AwayZero:
    rounding = NpuRounding::Natural;
    break;
  }
  return rounding;
}

// Vela: high_level_command_to_npu_op.create_npu_activation.
NpuActivation activationOf(const npu::Subgraph& subgraph, const npu::Operation& op) {
  NpuActivation activation;
  if (!op.activation) {
    return activation;
  }
  switch (op.activation->type) {
  case OpType::Tanh:
    activation.function = ActivationFunction::Tanh;
    break;
  case OpType::Sigmoid:
    activation.function = ActivationFunction::Sigmoid;
    break;
  case OpType::LUT:
    activation.function = ActivationFunction::TableLookup;
    break;
  default:
    if (!isReluLike(op.activation->type)) {
      npu::throwCompileError("operation '" + op.name + "' has an activation the NPU cannot apply (" +
                             std::string(npu::nameOf(op.activation->type)) + ")");
    }
  }
  activation.min = op.activation->min;
  activation.max = op.activation->max;
  if (activation.function == ActivationFunction::NoneOrRelu && isAvgPool(op.type) && !hasExplicitScaling(op)) {
    const npu::Quantisation& quantisation = subgraph.tensor(op.ofm()).quantisation;
    const std::int64_t zeroPoint = quantisation.zeroPointAt(0);
    if (zeroPoint != 0) {
      const double scale = quantisation.scale.empty() ? 1.0 : quantisation.scaleAt(0);
      const auto snap = [&](std::optional<double>& limit) {
        if (limit) {
          limit = scale * static_cast<double>(quantiseFloat32(*limit, scale, zeroPoint));
        }
      };
      snap(activation.min);
      snap(activation.max);
    }
  }
  return activation;
}

void describeKind(const npu::Operation& op, OperationInfo& info) {
  switch (info.blockType) {
  case NpuBlockType::ConvolutionMxN:
  case NpuBlockType::VectorProduct:
    info.kind = BlockOperation::Kind::Conv2D;
    break;
  case NpuBlockType::ConvolutionDepthWise:
    info.kind = BlockOperation::Kind::DepthwiseConv2D;
    break;
  case NpuBlockType::Pooling:
  case NpuBlockType::ReduceSum:
    info.kind = BlockOperation::Kind::Pooling;
    if (isMaxPool(op.type)) {
      info.pooling = PoolingFunction::Max;
    } else if (isAvgPool(op.type) || isResize(op.type)) {
      info.pooling = PoolingFunction::Average;
    } else if (op.type == OpType::ReduceSum) {
      info.pooling = PoolingFunction::ReduceSum;
    } else {
      npu::throwInternalError("unknown pooling operation '" + op.name + "'");
    }
    break;
  case NpuBlockType::ElementWise: {
    info.kind = BlockOperation::Kind::Elementwise;
    static const std::pair<OpType, ElementwiseFunction> kFunctions[] = {
        {OpType::Mul, ElementwiseFunction::Mul},     {OpType::Add, ElementwiseFunction::Add},
        {OpType::Sub, ElementwiseFunction::Sub},     {OpType::Minimum, ElementwiseFunction::Min},
        {OpType::Maximum, ElementwiseFunction::Max}, {OpType::LeakyRelu, ElementwiseFunction::LeakyRelu},
        {OpType::Abs, ElementwiseFunction::Abs},     {OpType::CLZ, ElementwiseFunction::Clz},
        {OpType::SHR, ElementwiseFunction::Shr},     {OpType::SHL, ElementwiseFunction::Shl}};
    bool known = false;
    for (const auto& [type, function] : kFunctions) {
      if (type == op.type) {
        info.elementwise = function;
        known = true;
      }
    }
    if (!known) {
      npu::throwInternalError("unknown elementwise operation '" + op.name + "'");
    }
    info.unary = info.elementwise == ElementwiseFunction::Abs || info.elementwise == ElementwiseFunction::LeakyRelu ||
                 info.elementwise == ElementwiseFunction::Clz;
    break;
  }
  case NpuBlockType::Dma:
    info.memoryCopy = true;
    break;
  case NpuBlockType::Default:
    npu::throwInternalError("operation '" + op.name + "' is placed on the NPU but has no NPU block type");
  }
}

/// Explicit scaling as Vela's ExplicitScaling, or nothing.
std::optional<ExplicitScaling> explicitScalingOf(const npu::Operation& op) {
  const auto multipliers = op.attributes.get<std::vector<std::int64_t>>("explicit_scaling_multiplier");
  const auto shifts = op.attributes.get<std::vector<std::int64_t>>("explicit_scaling_shift");
  if (!multipliers || !shifts) {
    return std::nullopt;
  }
  return ExplicitScaling{multipliers->size() > 1, *shifts, *multipliers};
}

} // namespace

void describeScaling(const npu::Operation& op, OperationInfo& info) {
  const auto scaling = explicitScalingOf(op);
  if (info.kind == BlockOperation::Kind::Pooling && scaling) {
    info.rescale = *scaling;
  }
  if (info.kind != BlockOperation::Kind::Elementwise) {
    return;
  }
  const auto scaleOf = [](const std::optional<Quantisation>& q) { return q && q->scale ? *q->scale : 1.0; };
  if (scaling) {
    info.rescale = ScaleShift{scaling->multiplier.at(0), scaling->shift.at(0)};
  } else if (op.type == OpType::Add &&
             (op.sourceType == "RESIZE_BILINEAR" || op.sourceType == "RESIZE_NEAREST_NEIGHBOR")) {
    info.ofmScaleOverride = info.ifm2 ? scaleOf(info.ifm2->quantisation) : 1.0;
  } else if (op.type == OpType::Abs) {
    // Both scales are numpy float32 in Vela, so the quotient is single precision.
    info.ofmScaleOverride = static_cast<double>(static_cast<float>(scaleOf(info.ifm.quantisation)) /
                                                static_cast<float>(scaleOf(info.ofm.quantisation)));
  } else if (op.type == OpType::LeakyRelu) {
    info.ofmScaleOverride = op.attributes.getOr<double>("alpha", 0.0);
  } else if ((op.type == OpType::Add || op.type == OpType::Mul || op.type == OpType::Sub) && op.activation &&
             (op.activation->type == OpType::Sigmoid || op.activation->type == OpType::Tanh)) {
    info.ofmScaleOverride = 1.0 / 0x3000;
  }
}

NpuDataType npuDataType(npu::DataType type, const std::string& tensorName) {
  switch (type) {
  case npu::DataType::UInt8:
    return NpuDataType::Uint8;
  case npu::DataType::Int8:
    return NpuDataType::Int8;
  case npu::DataType::UInt16:
    return NpuDataType::Uint16;
  case npu::DataType::Int16:
    return NpuDataType::Int16;
  case npu::DataType::Int32:
    return NpuDataType::Int32;
  default:
    npu::throwCompileError("tensor '" + tensorName + "' has type " + std::string(npu::nameOf(type)) +
                           ", which the NPU cannot read or write");
  }
}

std::optional<Quantisation> hardwareQuantisation(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                 npu::TensorId tensor, bool input) {
  const npu::Tensor& t = subgraph.tensor(tensor);
  Quantisation result;
  if (!input && op.attributes.getOr<bool>("forced_output_quantisation", false)) {
    result.scale = op.attributes.getOr<double>("forced_output_scale", 1.0);
    result.zeroPoint = static_cast<std::int64_t>(op.attributes.getOr<double>("forced_output_zero_point", 0.0));
  } else {
    if (t.quantisation.empty()) {
      return std::nullopt;
    }
    if (!t.quantisation.scale.empty()) {
      result.scale = t.quantisation.scaleAt(0);
    }
    result.zeroPoint = t.quantisation.zeroPointAt(0);
  }
  if (useZeroPointZero(subgraph, op, tensor, input)) {
    result.zeroPoint = 0;
  }
  return result;
}

int runnableStride(int stride, int ofmExtent, const std::string& operation) {
  constexpr int kMaxHardwareStride = 4; // KERNEL_STRIDE holds stride - 1 in two bits per axis
  if (stride >= 1 && stride <= kMaxHardwareStride) {
    return stride;
  }
  if (ofmExtent == 1 && stride > kMaxHardwareStride) {
    return 1;
  }
  npu::throwCompileError("operation '" + operation + "' has stride " + std::to_string(stride) +
                         ", which the NPU cannot run (1 to " + std::to_string(kMaxHardwareStride) + ")");
}

void describeSemantics(const npu::Subgraph& subgraph, const npu::Operation& op, OperationInfo& info) {
  describeKind(op, info);
  if (info.memoryCopy) {
    return;
  }
  info.fusedQuantize = fusedQuantize(op);
  info.activation = activationOf(subgraph, op);
  info.rounding = roundingOf(subgraph, op, info);
  info.upscale = op.ifmResampling == npu::Resampling::Nearest     ? NpuResampling::Nearest
                 : op.ifmResampling == npu::Resampling::Transpose ? NpuResampling::Transpose
                                                                  : NpuResampling::None;
  if (info.kind != BlockOperation::Kind::Elementwise) {
    const npu::Kernel kernel = op.kernel.value_or(npu::Kernel{});
    info.kernel = NpuKernel{kernel.width,
                            kernel.height,
                            runnableStride(kernel.strideX, info.ofm.shape.width, info.name),
                            runnableStride(kernel.strideY, info.ofm.shape.height, info.name),
                            kernel.dilationX,
                            kernel.dilationY};
    info.explicitPadding = op.explicitPadding;
    info.tilePadding = op.padding == npu::Padding::Tile;
  }
}

} // namespace ethosu::codegen
