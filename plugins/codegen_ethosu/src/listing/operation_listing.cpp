// SPDX-License-Identifier: Apache-2.0
#include "listing/operation_listing.hpp"

#include "support/python_format.hpp"

#include <cstdio>
#include <sstream>

namespace ethosu::codegen {

namespace {

using support::pythonFloat;

std::string hex(std::int64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "%s0x%llx", value < 0 ? "-" : "",
                static_cast<unsigned long long>(value < 0 ? -value : value));
  return text;
}

std::string optionalFloat(const std::optional<double>& value) { return value ? pythonFloat(*value) : "None"; }

std::string typeName(NpuDataType type) {
  switch (type) {
  case NpuDataType::Uint8: return "UINT8";
  case NpuDataType::Int8: return "INT8";
  case NpuDataType::Uint16: return "UINT16";
  case NpuDataType::Int16: return "INT16";
  case NpuDataType::Int32: return "INT32";
  }
  return "?";
}

std::string rangeText(const AddressRange& range) {
  return "(region=" + std::to_string(range.region) + ", address=" + hex(range.address) +
         ", length=" + std::to_string(range.length) + ")";
}

std::string quantisationText(const std::optional<Quantisation>& quantisation) {
  if (!quantisation) {
    return "no quantization";
  }
  return "scale: " + optionalFloat(quantisation->scale) + ", zero: " + std::to_string(quantisation->zeroPoint);
}

void printFeatureMap(std::ostream& out, const FeatureMap& map, const char* label) {
  const std::int64_t size =
      std::int64_t{map.shape.height} * map.shape.width * map.shape.depth * (bitsOf(map.type) / 8);
  out << "      " << label << ": h=" << map.shape.height << ",w=" << map.shape.width << ",c=" << map.shape.depth
      << ", region=" << map.region << ", " << (map.layout == NpuLayout::NHCWB16 ? "NHCWB16" : "NHWC") << ", "
      << typeName(map.type) << ", size=" << size << ", " << quantisationText(map.quantisation) << "\n";
  out << "         Stride y/x/c: " << map.strides.height << "/" << map.strides.width << "/" << map.strides.depth
      << ", tiles: w0=" << map.tiles.width0 << ", h0=" << map.tiles.height0 << ", h1=" << map.tiles.height1
      << ", base=['" << hex(map.tiles.addresses[0]) << "', '" << hex(map.tiles.addresses[1]) << "', '"
      << hex(map.tiles.addresses[2]) << "', '" << hex(map.tiles.addresses[3]) << "']\n";
  out << "         name=" << map.name << "\n";
}

std::string poolingName(PoolingFunction function) {
  switch (function) {
  case PoolingFunction::Max: return "MAX";
  case PoolingFunction::Average: return "AVERAGE";
  case PoolingFunction::ReduceSum: return "REDUCE_SUM";
  }
  return "?";
}

std::string elementwiseName(ElementwiseFunction function) {
  static constexpr const char* kNames[] = {"ADD", "SUB", "MUL", "ABS", "MIN", "MAX", "LRELU", "CLZ", "SHR", "SHL"};
  return kNames[static_cast<int>(function)];
}

std::string kindName(BlockOperation::Kind kind) {
  switch (kind) {
  case BlockOperation::Kind::Conv2D: return "Conv2D";
  case BlockOperation::Kind::DepthwiseConv2D: return "ConvDepthWise";
  case BlockOperation::Kind::Pooling: return "Pooling";
  case BlockOperation::Kind::Elementwise: return "ElementWise";
  }
  return "?";
}

std::string activationName(ActivationFunction function) {
  switch (function) {
  case ActivationFunction::NoneOrRelu: return "NONE_OR_RELU";
  case ActivationFunction::Tanh: return "TANH";
  case ActivationFunction::Sigmoid: return "SIGMOID";
  case ActivationFunction::TableLookup: return "TABLE_LOOKUP";
  }
  return "?";
}

std::string rescaleText(const Rescale& rescale) {
  if (const auto* factor = std::get_if<double>(&rescale)) {
    return pythonFloat(*factor);
  }
  if (const auto* pair = std::get_if<ScaleShift>(&rescale)) {
    return "(" + std::to_string(pair->scale) + ", " + std::to_string(pair->shift) + ")";
  }
  if (std::holds_alternative<ExplicitScaling>(rescale)) {
    return "<ExplicitScaling>";
  }
  return "None";
}

void printBlockOperation(std::ostream& out, const BlockOperation& op, int index) {
  out << index << " ";
  if (op.kind == BlockOperation::Kind::Pooling) {
    out << poolingName(op.pooling) << " ";
  } else if (op.kind == BlockOperation::Kind::Elementwise) {
    out << elementwiseName(op.elementwise) << " ";
  } else if (op.kind == BlockOperation::Kind::Conv2D && op.kernel &&
             std::int64_t{op.kernel->width} * op.kernel->height * op.kernel->strideX * op.kernel->strideY *
                     op.kernel->dilationX * op.kernel->dilationY ==
                 1) {
    out << "FullyConnected ";
  }
  out << kindName(op.kind) << " name=" << op.name << ":\n";
  printFeatureMap(out, op.ifm, "IFM");
  if (op.ifm2Scalar && op.ifm2) {
    out << "      IFM2: Scalar=" << pythonFloat(*op.ifm2Scalar) << "\n";
  } else if (op.ifm2) {
    printFeatureMap(out, *op.ifm2, "IFM2");
  }
  printFeatureMap(out, op.ofm, "OFM");
  if (op.kernel && op.kind != BlockOperation::Kind::Elementwise) {
    out << "      Kernel: w=" << op.kernel->width << ", h=" << op.kernel->height << ", stride=(" << op.kernel->strideX
        << ", " << op.kernel->strideY << "), dilation=(" << op.kernel->dilationX << ", " << op.kernel->dilationY
        << ")\n";
  }
  if (op.padding) {
    out << "      NpuPadding(top=" << op.padding->top << ", left=" << op.padding->left << ", bottom="
        << op.padding->bottom << ", right=" << op.padding->right << ")\n";
  }
  for (const AddressRange& weights : op.weights) {
    out << "      Weights: " << rangeText(weights) << "\n";
  }
  for (const AddressRange& scales : op.biases) {
    out << "      Scales: " << rangeText(scales) << "\n";
  }
  if (op.activation) {
    const NpuActivation& act = *op.activation;
    if (act.function != ActivationFunction::NoneOrRelu || act.min || act.max) {
      out << "      Activation: " << activationName(act.function) << ", min=" << optionalFloat(act.min)
          << ", max=" << optionalFloat(act.max);
      if (act.function == ActivationFunction::TableLookup) {
        out << ", lut index=" << act.lookupTableIndex;
      }
      out << "\n";
    }
  }
  if (op.kind == BlockOperation::Kind::Conv2D) {
    out << "      NpuBlockTraversal."
        << (op.blockTraversal == BlockTraversal::PartKernelFirst ? "PART_KERNEL_FIRST" : "DEPTH_FIRST") << "\n";
  }
  static constexpr const char* kResampling[] = {"NONE", "NEAREST", "TRANSPOSE"};
  static constexpr const char* kRounding[] = {"TFL", "TRUNCATE", "NATURAL"};
  out << "      Block config: h=" << op.blockConfig.height << ",w=" << op.blockConfig.width
      << ",c=" << op.blockConfig.depth << ", NpuResamplingMode." << kResampling[static_cast<int>(op.ifmUpscale)]
      << ", NpuRoundingMode." << kRounding[static_cast<int>(op.rounding)];
  if (op.kind == BlockOperation::Kind::Pooling || op.kind == BlockOperation::Kind::Elementwise) {
    out << ", rescale=" << rescaleText(op.rescale);
  }
  out << "\n";
}

} // namespace

std::string formatOperation(const NpuOperation& operation, int index) {
  std::ostringstream out;
  if (const auto* dma = std::get_if<DmaOperation>(&operation)) {
    out << index << " Dma name=" << dma->name << ", src=" << rangeText(dma->source)
        << ", dest=" << rangeText(dma->destination) << ":\n";
  } else {
    printBlockOperation(out, std::get<BlockOperation>(operation), index);
  }
  return out.str();
}

std::string formatOperations(std::span<const NpuOperation> operations) {
  std::string text;
  for (std::size_t i = 0; i < operations.size(); ++i) {
    text += formatOperation(operations[i], static_cast<int>(i));
  }
  return text;
}

} // namespace ethosu::codegen
