// SPDX-License-Identifier: Apache-2.0
// NPU constraints of Vela 3.10 (tflite_supported_operators.py) on kernels: strides, dilation and
// filter sizes of convolutions and pooling, transpose convolution geometry, weights and biases.

#include "absolute_difference_sum.hpp"
#include "constraint.hpp"
#include "python_format.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace ethosu::support::kernel {

using npu::DataType;
using npu::OpType;
using npu::Padding;
using npu::Tensor;

namespace {

constexpr int kMinStride = 1; // Vela's stride_range
constexpr int kMaxStride = 3;
constexpr int kMaxDilatedHeight = 64;                 // dilated_height_range
constexpr int kMaxDilatedProduct = 64 * 64;           // dilated_product_range
constexpr std::int64_t kWeightsLimit = 127 * 65536;   // weights_limit
constexpr int kMaxFilter = 8;                         // filter_range
constexpr int kMaxFilterHeight = 256;                 // filter_height_range
constexpr std::int64_t kMaxFilterProduct = 256 * 256; // filter_product_range
constexpr int kMaxBiasBits = 40;

bool inRange(std::int64_t value, std::int64_t low, std::int64_t high) { return low <= value && value <= high; }

/// Python's shape[index] (negative counts from the end); nullopt where Python would raise.
std::optional<int> dimension(const Tensor* tensor, int index) {
  if (tensor == nullptr) {
    return std::nullopt;
  }
  const int rank = tensor->shape.rank();
  const int position = index < 0 ? index + rank : index;
  if (position < 0 || position >= rank) {
    return std::nullopt;
  }
  return tensor->shape[position];
}

std::string shapeOrNone(const Tensor* tensor) { return tensor == nullptr ? "None" : pythonList(tensor->shape); }
std::string strideText(const KernelGeometry& k) { return std::to_string(k.strideX) + "x" + std::to_string(k.strideY); }

std::string paddingName(Padding padding) {
  switch (padding) {
  case Padding::Same: return "Padding.SAME";
  case Padding::Valid: return "Padding.VALID";
  case Padding::Explicit: return "Padding.EXPLICIT";
  case Padding::Tile: return "Padding.TILE";
  }
  return "None";
}

/// The stride a strided convolution ends up with once Vela folds part of a large width stride into
/// the IFM (utils.py, calc_resize_factor).
int optimisedStride(int ifmWidth, int strideX) {
  if (strideX <= 1) {
    return strideX;
  }
  int resizeFactor = strideX;
  if (ifmWidth % resizeFactor != 0) {
    int hardwareStride = 1;
    for (const int candidate : {2, 3}) {
      if (resizeFactor % candidate == 0 && ifmWidth % (strideX / candidate) == 0) {
        hardwareStride = candidate;
        break;
      }
    }
    const int newFactor = resizeFactor / hardwareStride;
    resizeFactor = newFactor != resizeFactor ? newFactor : 1;
  }
  return strideX / resizeFactor;
}

ConstraintResult checkStrideWidthNoUpperLimit(const OperationView& view) {
  const KernelGeometry k = view.kernel();
  const auto ifmWidth = dimension(view.ifm(), 2);
  const auto ofmHeight = dimension(view.ofm(), 1);
  const auto ofmWidth = dimension(view.ofm(), 2);
  const std::string detail = "Op has stride WxH as: " + strideText(k) + ", ifm shape as: " + shapeOrNone(view.ifm()) +
                             ", ofm shape as: " + shapeOrNone(view.ofm());
  if (!ifmWidth || !ofmHeight || !ofmWidth) {
    return {false, detail};
  }
  const bool heightValid = *ofmHeight == 1 || inRange(k.strideY, kMinStride, kMaxStride);
  const bool widthValid =
      *ofmWidth == 1 || (k.strideX >= kMinStride && optimisedStride(*ifmWidth, k.strideX) <= kMaxStride);
  return {heightValid && widthValid, detail};
}

ConstraintResult checkStrideRangeNoPadding(const OperationView& view) {
  const ConstraintResult strides = checkStrideWidthNoUpperLimit(view);
  const Padding padding = view.padding();
  const bool validPadding = padding == Padding::Valid || view.kernel().strideX <= kMaxStride;
  return {strides.valid && validPadding, strides.detail + ", padding: " + paddingName(padding)};
}

ConstraintResult checkDilatedHeightRange(const OperationView& view) {
  const int height = view.kernel().areaHeight();
  return {inRange(height, 1, kMaxDilatedHeight), "Op has dilated kernel height as: " + std::to_string(height)};
}

ConstraintResult checkDilatedProductRange(const OperationView& view) {
  const KernelGeometry k = view.kernel();
  const std::int64_t product = std::int64_t{k.areaWidth()} * k.areaHeight();
  return {inRange(product, 1, kMaxDilatedProduct),
          "Op has product of dilated kernel width and height as: " + std::to_string(product)};
}

ConstraintResult checkWeightsType(const OperationView& view) {
  const Tensor* weights = view.weights();
  const int bits = weights == nullptr ? 0 : npu::bitsOf(weights->type) / 8 * 8; // Vela: element_size() * 8
  return {bits == 8, "Tensor '" + nameOrNone(weights) + "' is " + std::to_string(bits) + "-bit"};
}

ConstraintResult checkWeightsConst(const OperationView& view) {
  const Tensor* weights = view.weights();
  return {weights != nullptr && weights->isConstant(), "Tensor '" + nameOrNone(weights) + "' has non-constant values"};
}

/// Sum of |value - zero| over all values, for each zero point; 8-bit values go through a histogram so
/// that many zero points (one per channel) do not mean many passes over the weights.
template <typename T>
std::int64_t largestSumOverAll(std::span<const T> values, const std::vector<std::int64_t>& zeros) {
  std::int64_t largest = 0;
  if constexpr (sizeof(T) == 1) {
    std::array<std::int64_t, 256> histogram{};
    for (const T value : values) {
      ++histogram[static_cast<std::uint8_t>(value)];
    }
    std::vector<std::int64_t> distinctZeros = zeros; // often one (symmetric weights), however many channels
    std::sort(distinctZeros.begin(), distinctZeros.end());
    distinctZeros.erase(std::unique(distinctZeros.begin(), distinctZeros.end()), distinctZeros.end());
    for (const std::int64_t zero : distinctZeros) {
      std::int64_t sum = 0;
      for (int slot = 0; slot < 256; ++slot) {
        const std::int64_t value = static_cast<T>(static_cast<std::uint8_t>(slot));
        sum += histogram[static_cast<std::size_t>(slot)] * std::abs(value - zero);
      }
      largest = std::max(largest, sum);
    }
  } else {
    for (const std::int64_t zero : zeros) {
      std::int64_t sum = 0;
      for (const T value : values) {
        sum += std::abs(static_cast<std::int64_t>(value) - zero);
      }
      largest = std::max(largest, sum);
    }
  }
  return largest;
}

/// The largest per-output-channel sum of |weight - zero point| in Vela's HWIO view. For depthwise
/// weights ([1, H, W, C*M] read as [H, W, C*M, 1]) Vela's sum runs over all weights, once per zero point.
template <typename T>
std::int64_t largestWeightSum(const OperationView& view, const Tensor& weights, std::span<const T> values) {
  const auto& zeroPoints = weights.quantisation.zeroPoint;
  const std::vector<std::int64_t> zeros = zeroPoints.empty() ? std::vector<std::int64_t>{0} : zeroPoints;
  if (view.type() == OpType::DepthwiseConv2DBias || weights.shape.rank() != 4) {
    return largestSumOverAll(values, zeros);
  }
  std::int64_t largest = 0;
  const auto channels = static_cast<std::size_t>(weights.shape[0]); // OHWI
  const std::size_t perChannel = channels == 0 ? 0 : values.size() / channels;
  for (std::size_t channel = 0; channel < channels; ++channel) {
    const std::int64_t zero = zeros[zeros.size() == 1 ? 0 : std::min(channel, zeros.size() - 1)];
    largest = std::max(largest, absoluteDifferenceSum(values.subspan(channel * perChannel, perChannel), zero));
  }
  return largest;
}

template <typename T>
std::span<const T> bytesAs(const Tensor& tensor) {
  const std::span<const std::uint8_t> raw = tensor.bytes();
  return {reinterpret_cast<const T*>(raw.data()), raw.size()};
}

ConstraintResult checkWeightsLimit(const OperationView& view) {
  const Tensor* weights = view.weights();
  std::int64_t sum = 0;
  if (weights != nullptr && weights->isConstant() && weights->type == DataType::UInt8) {
    sum = largestWeightSum(view, *weights, bytesAs<std::uint8_t>(*weights));
  } else if (weights != nullptr && weights->isConstant() && weights->type == DataType::Int8) {
    sum = largestWeightSum(view, *weights, bytesAs<std::int8_t>(*weights));
  } else {
    const auto values = integerValues(weights);
    if (!values) {
      return {false, "Tensor '" + nameOrNone(weights) + "' has the sum of weights: None"};
    }
    sum = largestWeightSum(view, *weights, std::span<const std::int64_t>(*values));
  }
  return {sum <= kWeightsLimit, "Tensor '" + weights->name + "' has the sum of weights: " + std::to_string(sum)};
}

ConstraintResult checkBiasShape(const OperationView& view) {
  const Tensor* bias = view.bias();
  if (bias == nullptr) {
    return {true, "Op has no bias tensor"};
  }
  const npu::Shape shape = view.velaShape(*bias); // a constant bias is always 1-D to Vela
  return {shape.rank() == 1, "Tensor '" + bias->name + "' has shape: " + pythonList(shape)};
}

ConstraintResult checkBiasType(const OperationView& view) {
  const Tensor* bias = view.bias();
  if (bias == nullptr) {
    return {true, "Op has no bias tensor"};
  }
  const bool valid = bias->type == DataType::Int32 || bias->type == DataType::Int64;
  return {valid, "Tensor '" + bias->name + "' has data type: " + std::string(npu::nameOf(bias->type))};
}

/// Length of Python's bin(value)[2:], which for negative values keeps a "b" from the "-0b" prefix.
int pythonBinLength(std::int64_t value) {
  const std::uint64_t magnitude = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  int bits = 1;
  while (bits < 64 && (magnitude >> bits) != 0) {
    ++bits;
  }
  return bits + (value < 0 ? 1 : 0);
}

ConstraintResult checkBias40bit(const OperationView& view) {
  const Tensor* bias = view.bias();
  const auto values = integerValues(bias);
  if (bias == nullptr || bias->type != DataType::Int64 || !values) {
    return {true, "Op has no bias tensor, or it fits in 40-bit"};
  }
  const bool valid = std::all_of(values->begin(), values->end(),
                                 [](std::int64_t value) { return pythonBinLength(value) <= kMaxBiasBits; });
  return {valid, "Tensor '" + bias->name + "' has values larger than 40-bits"};
}

ConstraintResult checkTconvStride(const OperationView& view) {
  const KernelGeometry k = view.kernel();
  const auto ifmHeight = dimension(view.ifm(), 1);
  const bool square = (k.strideX == 1 && k.strideY == 1) || (k.strideX == 2 && k.strideY == 2);
  const bool widthOnly = k.strideX == 2 && k.strideY == 1 && ifmHeight == 1 && k.height == 1;
  return {square || widthOnly, "Op has ifm_height=" + (ifmHeight ? std::to_string(*ifmHeight) : "None") +
                                   ", kernel_height=" + std::to_string(k.height) + " and stride WxH as " +
                                   strideText(k)};
}

ConstraintResult checkTconvSame(const OperationView& view) {
  if (view.padding() != Padding::Same) {
    return {true, "Op has padding=VALID"};
  }
  const KernelGeometry k = view.kernel();
  const auto ifmH = dimension(view.ifm(), 1);
  const auto ifmW = dimension(view.ifm(), 2);
  const auto ofmH = dimension(view.ofm(), 1);
  const auto ofmW = dimension(view.ofm(), 2);
  const bool valid = ifmH && ifmW && ofmH && ofmW && *ofmH == *ifmH * k.strideY && *ofmW == *ifmW * k.strideX;
  return {valid, "Op has ifm_shape=" + shapeOrNone(view.ifm()) + ", ofm_shape=" + shapeOrNone(view.ofm()) +
                     " and stride WxH as " + strideText(k)};
}

ConstraintResult checkTconvValid(const OperationView& view) {
  if (view.padding() != Padding::Valid) {
    return {true, "Op has padding=SAME"};
  }
  const KernelGeometry k = view.kernel();
  const auto ifmH = dimension(view.ifm(), 1);
  const auto ifmW = dimension(view.ifm(), 2);
  const auto ofmH = dimension(view.ofm(), 1);
  const auto ofmW = dimension(view.ofm(), 2);
  const bool valid = ifmH && ifmW && ofmH && ofmW && *ofmH == *ifmH * k.strideY + std::max(k.height - k.strideY, 0) &&
                     *ofmW == *ifmW * k.strideX + std::max(k.width - k.strideX, 0);
  return {valid, "Op has ifm_shape=" + shapeOrNone(view.ifm()) + ", ofm_shape=" + shapeOrNone(view.ofm()) +
                     ", stride WxH as " + strideText(k) + " and kernel WxH as " + std::to_string(k.width) + "x" +
                     std::to_string(k.height)};
}

ConstraintResult checkStrideRange(const OperationView& view) {
  const KernelGeometry k = view.kernel();
  const bool valid = inRange(k.strideX, kMinStride, kMaxStride) && inRange(k.strideY, kMinStride, kMaxStride);
  return {valid, "Op has stride WxH as: " + strideText(k)};
}

ConstraintResult checkDepthMultiplier(const OperationView& view) {
  const std::int64_t multiplier = view.depthMultiplier();
  if (multiplier <= 1) {
    return {true, "Op has depth_multiplier=1"};
  }
  const auto ifmChannels = dimension(view.ifm(), 3);
  const auto ofmChannels = dimension(view.ofm(), 3);
  const bool valid = ifmChannels == 1 && ofmChannels && *ofmChannels == multiplier;
  return {valid, "Op has ifm_channels=" + (ifmChannels ? std::to_string(*ifmChannels) : "None") +
                     ", ofm_channels=" + (ofmChannels ? std::to_string(*ofmChannels) : "None") +
                     " and depth_multiplier=" + std::to_string(multiplier)};
}

ConstraintResult checkFilterRange(const OperationView& view) {
  if (view.padding() != Padding::Same) {
    return {true, "Op has padding=VALID"};
  }
  const KernelGeometry k = view.kernel();
  const bool widthValid = inRange(k.width, 1, kMaxFilter) || k.strideX == k.width;
  const bool valid = widthValid && inRange(k.height, 1, kMaxFilter);
  return {valid, "Op has kernel filter WxH as: " + std::to_string(k.width) + "x" + std::to_string(k.height)};
}

ConstraintResult checkFilterHeightRange(const OperationView& view) {
  const int height = view.kernel().height;
  return {inRange(height, 1, kMaxFilterHeight), "Op has kernel filter height as: " + std::to_string(height)};
}

ConstraintResult checkFilterProductRange(const OperationView& view) {
  const KernelGeometry k = view.kernel();
  const std::int64_t product = std::int64_t{k.width} * k.height;
  return {inRange(product, 1, kMaxFilterProduct),
          "Op has product of kernel filter width and height as: " + std::to_string(product)};
}

ConstraintResult checkFilterHeightRangeValidPad(const OperationView& view) {
  return view.padding() == Padding::Valid ? checkFilterHeightRange(view)
                                          : ConstraintResult{true, "Op has padding=SAME"};
}

ConstraintResult checkFilterProductRangeValidPad(const OperationView& view) {
  return view.padding() == Padding::Valid ? checkFilterProductRange(view)
                                          : ConstraintResult{true, "Op has padding=SAME"};
}

} // namespace

const Constraint strideWidthNoUpperLimit{
    "stride_width_no_upper_limit",
    "Strides must fulfil the following criteria:\n"
    "        - Stride h must be between 1 and 3 when ofm height is greater than 1\n"
    "        - Stride w must be between 1 and 3 when ofm height is greater than 1 or\n"
    "          stride w must be divisible by 2 or 3 and ifm width must be divisible\n"
    "          by stride_w/2 or stride_w/3",
    checkStrideWidthNoUpperLimit};
const Constraint strideRangeNoPadding{"stride_range_no_padding",
                                      "Stride width must be greater than or equal to 1.\n"
                                      "        For stride width greater than 3, valid padding needs to be used.",
                                      checkStrideRangeNoPadding};
const Constraint dilatedHeightRange{"dilated_height_range", "Dilated kernel height must be in the range [1, 64]",
                                    checkDilatedHeightRange};
const Constraint dilatedProductRange{"dilated_product_range",
                                     "Product of dilated kernel width and height must be in the range [1, 4096]",
                                     checkDilatedProductRange};
const Constraint weightsType{"weights_type", "Weight tensor must be 8-bit", checkWeightsType};
const Constraint weightsConst{"weights_const", "Weight tensor must be constant", checkWeightsConst};
const Constraint weightsLimit{"weights_limit", "The sum of the weights cannot exceed 8323072", checkWeightsLimit};
const Constraint biasShape{"bias_shape", "Optional Bias tensor must be of shape: 1D", checkBiasShape};
const Constraint biasType{"bias_type", "Optional Bias tensor must be of type: int32, int64", checkBiasType};
const Constraint bias40bit{"bias_40bit", "Optional Bias tensor values must fit within 40-bits", checkBias40bit};
const Constraint tconvStride{"tconv_stride",
                             "Stride values for width and height must match one of the following criteria:\n"
                             "        Stride values WxH must be 1x1 or 2x2\n"
                             "        Stride WxH 2x1 supported if ifm height and kernel height = 1",
                             checkTconvStride};
const Constraint tconvSame{"tconv_same", "SAME padding: OFM dimensions must equal IFM dimensions multiplied by stride",
                           checkTconvSame};
const Constraint tconvValid{"tconv_valid",
                            "VALID padding: OFM dimensions must equal IFM dimensions multiplied by stride,\n"
                            "        minus difference between kernel size and stride",
                            checkTconvValid};
const Constraint depthwiseConvStride{
    "depthwise_conv_stride", "Stride values for both width and height must be between 1 and 3", checkStrideRange};
const Constraint depthMultiplier{"depth_multiplier",
                                 "For depth multipliers > 1, IFM channels must be 1 and OFM channels must be equal to "
                                 "the depth multiplier",
                                 checkDepthMultiplier};
const Constraint strideRange{"stride_range", "Stride values for both width and height must be in the range [1, 3]",
                             checkStrideRange};
const Constraint filterRange{
    "filter_range", "Kernel filter values for both width and height must be in the range [1, 8]", checkFilterRange};
const Constraint filterHeightRange{"filter_height_range", "Kernel filter height must be in the range [1, 256]",
                                   checkFilterHeightRange};
const Constraint filterProductRange{"filter_product_range",
                                    "Product of kernel filter width and height must be in the range [1, 65536]",
                                    checkFilterProductRange};
const Constraint filterHeightRangeValidPad{"filter_height_range_valid_pad",
                                           "VALID padding: Kernel filter height must be in the range [1, 256]",
                                           checkFilterHeightRangeValidPad};
const Constraint filterProductRangeValidPad{
    "filter_product_range_valid_pad",
    "VALID padding: Product of kernel filter width and height must be in the range [1, 65536]",
    checkFilterProductRangeValidPad};

} // namespace ethosu::support::kernel
