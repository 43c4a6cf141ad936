// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_preparation.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace ethosu::weights {
namespace {

enum class WeightRole : std::uint8_t { Convolution, TransposeConvolution, Depthwise, FullyConnected };

std::optional<WeightRole> roleOf(npu::OpType type) {
  switch (type) {
  case npu::OpType::Conv2D:
  case npu::OpType::Conv2DBias:
  case npu::OpType::QuantizedConv2D:
    return WeightRole::Convolution;
  case npu::OpType::Conv2DBackpropInput:
  case npu::OpType::Conv2DBackpropInputSwitchedBias:
    return WeightRole::TransposeConvolution;
  case npu::OpType::DepthwiseConv2DBias:
    return WeightRole::Depthwise;
  case npu::OpType::FullyConnected:
  case npu::OpType::QuantizedMatMul:
    return WeightRole::FullyConnected;
  default:
    return std::nullopt;
  }
}

/// Everything the preparation reads about one operation, and where to point errors.
struct Context {
  const npu::Subgraph& subgraph;
  const npu::Operation& op;

  [[nodiscard]] npu::SourceLocation location() const {
    std::string object = "operation";
    if (!op.name.empty()) {
      object += " '" + op.name + "'";
    }
    object += " (" + (op.sourceType.empty() ? std::string(npu::nameOf(op.type)) : op.sourceType) + ")";
    return {.file = {}, .line = 0, .column = 0, .object = std::move(object)};
  }
  [[noreturn]] void fail(const std::string& message, const std::string& hint) const {
    npu::throwCompileError("cannot encode the weights: " + message, location(), hint);
  }
  [[nodiscard]] const npu::Tensor& required(npu::TensorId id, const char* role) const {
    const npu::Tensor* tensor = subgraph.findTensor(id);
    if (tensor == nullptr) {
      fail(std::string("the operation has no ") + role, "weighted operations need an IFM and an OFM");
    }
    return *tensor;
  }
};

/// 8-bit values (`Byte` says how they extend) as int16, sixteen at a time: GCC 12 does not vectorise the
/// plain loop at -O2 (RelWithDebInfo), and it was 4% of a MobileNet-v2 compile.
using SignedBytes = std::int8_t __attribute__((vector_size(16)));
using UnsignedBytes = std::uint8_t __attribute__((vector_size(16)));

template <typename Byte, typename Bytes>
void widen(std::span<const std::uint8_t> raw, std::vector<std::int16_t>& out) {
  using Halves = std::int16_t __attribute__((vector_size(32)));
  constexpr std::size_t kStep = 16;
  out.resize(raw.size());
  std::size_t index = 0;
  for (; index + kStep <= raw.size(); index += kStep) {
    Bytes bytes;
    std::memcpy(&bytes, raw.data() + index, sizeof(bytes));
    const Halves halves = __builtin_convertvector(bytes, Halves);
    std::memcpy(out.data() + index, &halves, sizeof(halves));
  }
  for (; index < raw.size(); ++index) {
    out[index] = static_cast<std::int16_t>(static_cast<Byte>(raw[index]));
  }
}

/// Weights read in OHWI with one zero point per OFM channel subtracted (int16 arithmetic, as the
/// reference's "early zero-point correction").
WeightVolume readVolume(const Context& context, const npu::Tensor& weights, WeightRole role,
                        std::vector<std::int16_t> storage) {
  const npu::Shape& shape = weights.shape;
  // The weights are 8-bit, or int16 (checked by the caller): read from the constant's little-endian bytes.
  const std::span<const std::uint8_t> raw = weights.bytes();
  const bool isSigned = weights.type != npu::DataType::UInt8;
  const bool wide = weights.type == npu::DataType::Int16;
  const std::size_t elementBytes = wide ? 2 : 1;
  WeightVolume volume;
  volume.values = std::move(storage);
  volume.values.clear();
  auto dimension = [&](int axis) { return shape[axis]; };
  if (role == WeightRole::FullyConnected) {
    const bool flat = shape.rank() == 2;
    const bool pointwise = shape.rank() == 4 && dimension(1) == 1 && dimension(2) == 1;
    if (!flat && !pointwise) {
      context.fail("fully connected weights of shape " + shape.str() + " are neither [O, I] nor [O, 1, 1, I]",
                   "reshape the weights to two dimensions");
    }
    volume.ofmDepth = dimension(0);
    volume.ifmDepth = dimension(shape.rank() - 1);
  } else {
    if (shape.rank() != 4) {
      context.fail("weights of shape " + shape.str() + " are not four-dimensional",
                   "convolution weights are OHWI, depthwise weights [1, H, W, C]");
    }
    volume.kernelHeight = dimension(1);
    volume.kernelWidth = dimension(2);
    if (role == WeightRole::Depthwise) {
      if (dimension(0) != 1) {
        context.fail("depthwise weights of shape " + shape.str() + " do not start with 1", "expected [1, H, W, C]");
      }
      volume.ofmDepth = dimension(3);
      volume.ifmDepth = 1;
    } else {
      volume.ofmDepth = dimension(0);
      volume.ifmDepth = dimension(3);
    }
  }

  if (static_cast<std::int64_t>(raw.size()) != volume.elements() * static_cast<std::int64_t>(elementBytes)) {
    context.fail("the weights '" + weights.name + "' hold " + std::to_string(raw.size()) + " bytes for " +
                     std::to_string(volume.elements()) + " values of shape " + shape.str(),
                 "the model's weight buffer does not match the tensor's shape");
  }
  const npu::Quantisation& quantisation = weights.quantisation;
  if (!wide && (role == WeightRole::Convolution || role == WeightRole::FullyConnected)) {
    // 8-bit weights in OHWI already: widen all values in one pass, then correct one OFM channel's
    // contiguous run at a time. (int16 weights take the general path, which checks their range.)
    if (isSigned) {
      widen<std::int8_t, SignedBytes>(raw, volume.values);
    } else {
      widen<std::uint8_t, UnsignedBytes>(raw, volume.values);
    }
    const auto run = static_cast<std::size_t>(volume.elements() / std::max(volume.ofmDepth, 1));
    for (int ofm = 0; ofm < volume.ofmDepth; ++ofm) {
      const auto zeroPoint = static_cast<std::int16_t>(quantisation.zeroPointAt(static_cast<std::size_t>(ofm)));
      if (zeroPoint != 0) {
        std::int16_t* values = volume.values.data() + static_cast<std::size_t>(ofm) * run;
        for (std::size_t index = 0; index < run; ++index) {
          values[index] = static_cast<std::int16_t>(values[index] - zeroPoint);
        }
      }
    }
    return volume;
  }
  volume.values.resize(static_cast<std::size_t>(volume.elements()));
  for (int ofm = 0; ofm < volume.ofmDepth; ++ofm) {
    const auto zeroPoint = static_cast<std::int16_t>(quantisation.zeroPointAt(static_cast<std::size_t>(ofm)));
    for (int y = 0; y < volume.kernelHeight; ++y) {
      for (int x = 0; x < volume.kernelWidth; ++x) {
        for (int ifm = 0; ifm < volume.ifmDepth; ++ifm) {
          std::int64_t source = 0;
          if (role == WeightRole::Depthwise) {
            source = (std::int64_t{y} * volume.kernelWidth + x) * volume.ofmDepth + ofm;
          } else {
            // A transpose convolution reads its kernel mirrored in both directions.
            const int sourceY = role == WeightRole::TransposeConvolution ? volume.kernelHeight - 1 - y : y;
            const int sourceX = role == WeightRole::TransposeConvolution ? volume.kernelWidth - 1 - x : x;
            source =
                ((std::int64_t{ofm} * volume.kernelHeight + sourceY) * volume.kernelWidth + sourceX) * volume.ifmDepth +
                ifm;
          }
          const auto at = static_cast<std::size_t>(source) * elementBytes;
          const std::uint8_t byte = raw[at];
          const auto value = wide ? static_cast<std::int16_t>(static_cast<std::uint16_t>(byte | (raw[at + 1] << 8)))
                                  : static_cast<std::int16_t>(isSigned ? static_cast<std::int8_t>(byte) : byte);
          const int corrected = value - zeroPoint;
          if (wide && (corrected < -255 || corrected > 255)) {
            context.fail("the int16 weights '" + weights.name + "' hold " + std::to_string(corrected) +
                             ", outside the encodable range -255..255",
                         "Ethos-U weights are int8 or uint8");
          }
          volume.values[static_cast<std::size_t>(
              ((std::int64_t{ofm} * volume.kernelHeight + y) * volume.kernelWidth + x) * volume.ifmDepth + ifm)] =
              static_cast<std::int16_t>(corrected);
        }
      }
    }
  }
  return volume;
}

/// Dilations above 2 are not in the hardware: the kernel is spread out with zeros so that only a
/// factor of 1 or 2 remains (tflite_graph_optimiser.py, fixup_dilation_gt2).
void expandLargeDilation(WeightStreamInput& input) {
  const int hardwareX = input.dilationX % 2 == 1 ? 1 : 2;
  const int hardwareY = input.dilationY % 2 == 1 ? 1 : 2;
  const int spreadX = input.dilationX / hardwareX;
  const int spreadY = input.dilationY / hardwareY;
  const WeightVolume& original = input.weights;
  WeightVolume spread;
  spread.ofmDepth = original.ofmDepth;
  spread.ifmDepth = original.ifmDepth;
  spread.kernelHeight = (original.kernelHeight - 1) * spreadY + 1;
  spread.kernelWidth = (original.kernelWidth - 1) * spreadX + 1;
  spread.values.assign(static_cast<std::size_t>(spread.elements()), 0);
  for (int ofm = 0; ofm < original.ofmDepth; ++ofm) {
    for (int y = 0; y < original.kernelHeight; ++y) {
      for (int x = 0; x < original.kernelWidth; ++x) {
        for (int ifm = 0; ifm < original.ifmDepth; ++ifm) {
          const std::int64_t target =
              ((std::int64_t{ofm} * spread.kernelHeight + y * spreadY) * spread.kernelWidth + x * spreadX) *
                  spread.ifmDepth +
              ifm;
          spread.values[static_cast<std::size_t>(target)] = original.at(ofm, y, x, ifm);
        }
      }
    }
  }
  input.weights = std::move(spread);
  input.dilationX = hardwareX;
  input.dilationY = hardwareY;
}

int depthMultiplierOf(const Context& context) {
  if (const auto multiplier = context.op.attributes.get<std::int64_t>("depth_multiplier")) {
    return static_cast<int>(*multiplier);
  }
  const int ifmDepth = context.subgraph.ifmShape(context.op).depth;
  const int ofmDepth = context.subgraph.ofmShape(context.op).depth;
  return ifmDepth > 0 ? ofmDepth / ifmDepth : 1;
}

WeightTraversal traversalOf(const Context& context, WeightRole role, const WeightVolume& volume, int ifmBits) {
  if (role == WeightRole::FullyConnected) {
    return WeightTraversal::DepthFirst;
  }
  if (role == WeightRole::Depthwise) {
    if (depthMultiplierOf(context) == 1) {
      return WeightTraversal::Depthwise;
    }
    // A depth multiplier is only possible over a single IFM channel, where the operation is a plain
    // convolution with one IFM channel (graph_optimiser_util.py, convert_depthwise_to_conv).
    const npu::Shape4 ifm = context.subgraph.ifmShape(context.op);
    if (ifm.depth != 1 || context.subgraph.ofmShape(context.op).depth != volume.ofmDepth) {
      context.fail("a depthwise convolution with depth multiplier " + std::to_string(depthMultiplierOf(context)) +
                       " over " + std::to_string(ifm.depth) + " IFM channels",
                   "only a single IFM channel allows a depth multiplier on Ethos-U");
    }
  }
  // A 1x1 convolution over a 1x1 IFM is a fully connected layer (tflite_graph_optimiser.py,
  // convert_conv_to_fc).
  const npu::Shape4 ifm = context.subgraph.ifmShape(context.op);
  if (role == WeightRole::Convolution && ifm.height == 1 && ifm.width == 1 && volume.kernelHeight == 1 &&
      volume.kernelWidth == 1) {
    return WeightTraversal::DepthFirst;
  }
  return chooseConvolutionTraversal(volume.kernelHeight, volume.kernelWidth, volume.ifmDepth, ifmBits);
}

/// Whether the reference multiplies IFM and weight scales in single precision: TFLite does so for
/// uint8 IFMs and for fully connected layers, where the reference goes by the type an operation was
/// created with (a convolution it turned into a fully connected layer keeps double precision).
bool singlePrecisionScaleProduct(const npu::Operation& op, npu::DataType ifmType) {
  const bool fullyConnected = op.type == npu::OpType::FullyConnected && op.sourceType != "CONV_2D";
  return ifmType == npu::DataType::UInt8 || fullyConnected;
}

/// Scales a lowering computed itself (Vela's explicit_scaling), if any.
std::optional<std::vector<QuantisedScale>> explicitScales(const Context& context) {
  const auto multipliers = context.op.attributes.get<std::vector<std::int64_t>>("explicit_scaling_multiplier");
  const auto shifts = context.op.attributes.get<std::vector<std::int64_t>>("explicit_scaling_shift");
  if (!multipliers || !shifts) {
    return std::nullopt;
  }
  if (multipliers->size() != shifts->size() || multipliers->empty()) {
    context.fail("explicit scaling has " + std::to_string(multipliers->size()) + " multipliers and " +
                     std::to_string(shifts->size()) + " shifts",
                 "give one shift per multiplier");
  }
  std::vector<QuantisedScale> scales;
  for (std::size_t index = 0; index < multipliers->size(); ++index) {
    scales.push_back({(*multipliers)[index], static_cast<int>((*shifts)[index])});
  }
  return scales;
}

/// The OFM scale the operation writes with: a forced output quantisation (LUT operations) wins.
double outputScale(const npu::Operation& op, const npu::Tensor& ofm) {
  if (op.attributes.getOr("forced_output_quantisation", false)) {
    if (const auto forced = op.attributes.get<double>("forced_output_scale")) {
      return *forced;
    }
  }
  return ofm.quantisation.scaleAt(0);
}

void prepareScalesAndBiases(const Context& context, WeightStreamInput& input, const npu::Tensor& ifm,
                            const npu::Tensor& ofm, const npu::Tensor& weights) {
  const npu::Tensor* bias = context.subgraph.findTensor(context.op.bias());
  const auto ofmDepth = static_cast<std::size_t>(input.weights.ofmDepth);
  if (bias != nullptr) {
    if (!bias->isConstant() || (bias->type != npu::DataType::Int32 && bias->type != npu::DataType::Int64)) {
      context.fail("the bias '" + bias->name + "' is not a constant int32 or int64 tensor",
                   "Ethos-U takes constant 32- or 64-bit biases");
    }
    input.biases = bias->integerValues();
    if (input.biases.size() != ofmDepth) {
      context.fail("the bias has " + std::to_string(input.biases.size()) + " values for " + std::to_string(ofmDepth) +
                       " OFM channels",
                   "give one bias per output channel");
    }
  } else {
    input.biases.assign(ofmDepth, 0);
  }
  // A missing bias counts as int64 for 16-bit IFMs (tflite_graph_optimiser.py, fixup_bias_tensors).
  const bool bias64 = bias != nullptr ? bias->type == npu::DataType::Int64 : ifm.type == npu::DataType::Int16;

  if (ifm.type != npu::DataType::UInt8 && ifm.type != npu::DataType::Int8 && ifm.type != npu::DataType::Int16) {
    context.fail("the IFM is " + std::string(npu::nameOf(ifm.type)),
                 "Ethos-U weighted operations take uint8, int8 or int16 IFMs");
  }
  if (const auto scales = explicitScales(context)) {
    input.scales = *scales;
  } else {
    const double ifmScale = ifm.quantisation.scaleAt(0);
    const double ofmScale = outputScale(context.op, ofm);
    std::vector<double> weightScales = weights.quantisation.scale;
    if (weightScales.empty()) {
      weightScales.push_back(1.0);
    }
    const bool singlePrecision = singlePrecisionScaleProduct(context.op, ifm.type);
    const bool reduced = ifm.type == npu::DataType::Int16 && bias64;
    for (const double weightScale : weightScales) {
      // weight_compressor.py, _prepare_scale_and_bias: the scales are float32 values of the model.
      const double product = singlePrecision
                                 ? static_cast<double>(static_cast<float>(ifmScale) * static_cast<float>(weightScale))
                                 : ifmScale * weightScale;
      const double scale = product / ofmScale;
      input.scales.push_back(reduced ? reducedQuantiseScale(scale) : quantiseScale(scale));
    }
  }
  if (context.op.rounding == npu::RoundingMode::AwayZero) {
    for (QuantisedScale& scale : input.scales) {
      ++scale.multiplier; // the "next after" value the away-from-zero rounding needs
    }
  }
}

} // namespace

std::optional<WeightStreamInput> prepareWeightStream(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                     std::vector<std::int16_t> storage) {
  const Context context{subgraph, op};
  const npu::TensorId weightsId = op.weights();
  if (!subgraph.validTensorId(weightsId)) {
    return std::nullopt;
  }
  const std::optional<WeightRole> role = roleOf(op.type);
  if (!role) {
    context.fail("operations of type " + std::string(npu::nameOf(op.type)) +
                     " are not encoded by the Ethos-U weight encoder",
                 "lower the operation to a convolution, depthwise convolution or fully connected layer first");
  }
  const npu::Tensor& weights = subgraph.tensor(weightsId);
  if (!weights.isConstant()) {
    context.fail("the weights '" + weights.name + "' are not constant", "Ethos-U needs constant weights");
  }
  // int16 weights are what Vela 3.10 gives the depthwise convolutions of an int16 RESIZE_BILINEAR
  // (convert_resizebilinear_to_depthwise_convolutions: the IFM's type, values 0..16); the encoder takes
  // them as long as every value is in its range (checked as they are read).
  if (weights.type != npu::DataType::Int8 && weights.type != npu::DataType::UInt8 &&
      weights.type != npu::DataType::Int16) {
    context.fail("the weights '" + weights.name + "' are " + std::string(npu::nameOf(weights.type)),
                 "Ethos-U weights are int8 or uint8");
  }
  const npu::Tensor& ifm = context.required(op.ifm(), "IFM");
  const npu::Tensor& ofm = context.required(op.ofm(), "OFM");

  WeightStreamInput input;
  input.weights = readVolume(context, weights, *role, std::move(storage));
  input.ifmBits = npu::bitsOf(ifm.type);
  if (op.kernel && *role != WeightRole::FullyConnected) {
    if (op.kernel->height != input.weights.kernelHeight || op.kernel->width != input.weights.kernelWidth) {
      context.fail("the kernel is " + std::to_string(op.kernel->width) + "x" + std::to_string(op.kernel->height) +
                       " but the weights are " + std::to_string(input.weights.kernelWidth) + "x" +
                       std::to_string(input.weights.kernelHeight),
                   "the operation's kernel must match its weights");
    }
    input.dilationX = op.kernel->dilationX;
    input.dilationY = op.kernel->dilationY;
  }
  if (input.dilationX < 1 || input.dilationY < 1) {
    context.fail("dilation must be positive", "check the operation's dilation factors");
  }
  if (input.dilationX > 2 || input.dilationY > 2) {
    expandLargeDilation(input);
  }
  input.traversal = traversalOf(context, *role, input.weights, input.ifmBits);
  prepareScalesAndBiases(context, input, ifm, ofm, weights);
  return input;
}

} // namespace ethosu::weights
