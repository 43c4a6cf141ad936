// SPDX-License-Identifier: Apache-2.0
#include "lut_tables.hpp"

#include "ethosu_lowering/rewrite_support.hpp"
#include "fixed_point.hpp"

#include <algorithm>
#include <cmath>

namespace ethosu::lowering {

using namespace npu;
namespace fp = fixed_point;

TensorId addLutTable(Subgraph& subgraph, const std::string& name, const LutTable& table) {
  const auto size = static_cast<int>(table.values.size());
  const TensorId lut =
      addConstant(subgraph, name, Shape{1, 1, 1, size}, table.type, table.values, {}, TensorPurpose::Lut);
  // Identical tables are one table in memory (Vela create_lut_tensor: the equivalence id follows the values).
  for (Tensor& other : subgraph.tensors) {
    if (&other != &subgraph.tensor(lut) && other.purpose == TensorPurpose::Lut && other.isConstant() &&
        other.type == table.type && *other.data == *subgraph.tensor(lut).data) {
      if (other.equivalenceId < 0) {
        other.equivalenceId = freshEquivalenceId(subgraph);
      }
      subgraph.tensor(lut).equivalenceId = other.equivalenceId;
      break;
    }
  }
  return lut;
}

namespace {

/// The quantised inputs of an 8-bit table, in table order.
std::pair<int, int> inputRange(DataType type) {
  return type == DataType::UInt8 ? std::pair{0, 255} : std::pair{-128, 127};
}

/// Packs 513 int16 samples as 512 entries of (slope << 16) + base; negative bases borrow from the
/// slope exactly as Vela's integer sum does.
LutTable packInterpolation(const std::vector<double>& samples) {
  LutTable table{{}, DataType::UInt32};
  for (std::size_t i = 0; i + 1 < samples.size(); ++i) {
    const auto base = static_cast<std::int64_t>(samples[i]);
    const auto slope = static_cast<std::int64_t>(samples[i + 1]) - base;
    table.values.push_back(slope * 65536 + base);
  }
  return table;
}

/// TensorFlow Lite gen_lut: 513 samples of fn over [inputMin, inputMax] scaled by outputScale, each
/// biased by half the interpolation error at the midpoint of its interval.
LutTable interpolationTable(const std::function<double(double)>& fn, double inputMin, double inputMax,
                            double outputScale) {
  constexpr int kSteps = 512;
  const double step = (inputMax - inputMin) / kSteps;
  const auto clampToInt16 = [](double value) { return std::clamp(value, -32768.0, 32767.0); };
  std::vector<double> samples;
  for (int i = 0; i < kSteps; ++i) {
    const double value = fn(inputMin + i * step);
    const double midpoint = fn(inputMin + i * step + step / 2);
    const double next = fn(inputMin + (i + 1) * step);
    const double sample = std::round(value * outputScale);
    const double interpolated = std::round((next * outputScale + std::round(value * outputScale)) / 2);
    const double bias = std::round((interpolated - std::round(midpoint * outputScale)) / 2);
    samples.push_back(clampToInt16(sample - bias));
  }
  samples.push_back(clampToInt16(std::round(fn(inputMax) * outputScale)));
  return packInterpolation(samples);
}

} // namespace

LutTable lut8(const std::function<double(double)>& fn, const Quantisation& ifm, const Quantisation& ofm,
              DataType type) {
  const auto [first, last] = inputRange(type);
  LutTable table{{}, type};
  for (int x = first; x <= last; ++x) {
    const double real = ifm.scaleAt(0) * static_cast<double>(x - ifm.zeroPointAt(0));
    const auto rounded = static_cast<std::int64_t>(std::round(fn(real) / ofm.scaleAt(0))) + ofm.zeroPointAt(0);
    table.values.push_back(std::clamp<std::int64_t>(rounded, first, last));
  }
  return table;
}

LutTable lut16(const std::function<double(double)>& fn, const Quantisation& ifm, const Quantisation& ofm) {
  const double inputMin = ifm.scaleAt(0) * static_cast<double>(-32768 - ifm.zeroPointAt(0));
  const double inputMax = ifm.scaleAt(0) * static_cast<double>(32767 - ifm.zeroPointAt(0));
  const double outputMin = ofm.scaleAt(0) * static_cast<double>(-32768 - ofm.zeroPointAt(0));
  const double outputMax = ofm.scaleAt(0) * static_cast<double>(32767 - ofm.zeroPointAt(0));
  return interpolationTable(fn, inputMin, inputMax, 65536.0 / (outputMax - outputMin));
}

LutTable hardSwishTable(const Quantisation& ifm, const Quantisation& ofm, DataType type) {
  // Vela convert_hardswish_to_lut, following TensorFlow Lite Micro's hard_swish kernel.
  const double ifmScaleHighResolution = ifm.scaleAt(0) / 128.0;
  const double reluMultiplier = 3.0 / 32768.0;
  const QuantisedScale output = quantiseScale(ifmScaleHighResolution / ofm.scaleAt(0));
  const QuantisedScale relu = quantiseScale(ifmScaleHighResolution / reluMultiplier);
  const std::int64_t output16 = fp::downscaleMultiplierInt32ToInt16(output.multiplier);
  const std::int64_t relu16 = fp::downscaleMultiplierInt32ToInt16(relu.multiplier);
  const auto [first, last] = inputRange(type);
  LutTable table{{}, type};
  for (int x = first; x <= last; ++x) {
    const std::int64_t inputHighResolution = (x - ifm.zeroPointAt(0)) * 128;
    const std::int64_t preshift = fp::saturatingRoundingMul16(inputHighResolution, output16);
    std::int64_t reluValue = static_cast<std::int16_t>(inputHighResolution);
    if (relu.shift < 31) {
      reluValue = fp::shiftLeft16(reluValue, 30 - relu.shift);
    }
    reluValue = fp::saturatingRoundingMul16(reluValue, relu16);
    if (relu.shift < 31) {
      reluValue = fp::shiftLeft16(reluValue, 1);
    }
    if (relu.shift > 31) {
      reluValue = fp::roundingDivideByPot(reluValue, relu.shift - 31);
    }
    // From [-1, 1] to [0, 1] in 16-bit fixed point.
    reluValue = (reluValue + (1 << 15)) >> 1;
    const std::int64_t product = fp::saturatingMul16(reluValue, preshift);
    const int shift = std::max(-(31 - output.shift), 0);
    const std::int64_t result = fp::roundingDivideByPot(product, shift) + ofm.zeroPointAt(0);
    table.values.push_back(std::clamp<std::int64_t>(result, first, last));
  }
  return table;
}

LutTable leakyReluTable(const Quantisation& ifm, const Quantisation& ofm, DataType type, double alpha,
                        const std::optional<AlphaScaling>& alphaScaling) {
  // Vela convert_lrelu_to_lut: the identity and the alpha side each with their own Mul scaling.
  const QuantisedScale identity = quantiseScale(ifm.scaleAt(0) / ofm.scaleAt(0));
  const QuantisedScale negative = quantiseScale(ifm.scaleAt(0) * alpha / ofm.scaleAt(0));
  const AlphaScaling scaling = alphaScaling.value_or(AlphaScaling{1, negative.multiplier, negative.shift});
  const auto [first, last] = inputRange(type);
  const std::int64_t zeroIn = ifm.zeroPointAt(0);
  LutTable table{{}, type};
  for (int x = first; x <= last; ++x) {
    const std::int64_t result =
        x < zeroIn ? fp::multiplyByQuantizedMultiplier(scaling.scalar * (x - zeroIn), scaling.multiplier, scaling.shift)
                   : fp::multiplyByQuantizedMultiplier(x - zeroIn, identity.multiplier, identity.shift);
    table.values.push_back(std::clamp<std::int64_t>(ofm.zeroPointAt(0) + result, first, last));
  }
  return table;
}

LutTable rsqrtTable(const Quantisation& ifm, const Quantisation& ofm) {
  // The reference computes 1 / sqrt(v) for v = x - zero point in Q12.20 (TensorFlow Lite Micro's rsqrt
  // kernel), then rescales by 1 / (sqrt(ifm scale) * ofm scale) with its shift offset by 20.
  const QuantisedScale scale = quantiseScale(1.0 / (std::sqrt(ifm.scaleAt(0)) * ofm.scaleAt(0)));
  constexpr int kQ20Shift = 20;
  LutTable table{{127}, DataType::Int8}; // inputs near zero give the largest output
  for (int x = -127; x <= 127; ++x) {
    const std::int64_t value = std::max<std::int64_t>(0, x - ifm.zeroPointAt(0));
    std::int64_t inverseRoot = 0;
    if (value > 0) {
      const fp::InverseSqrt root = fp::inverseSqrtMultiplier(value);
      inverseRoot = fp::multiplyByQuantizedMultiplierLeftShift(1, root.multiplier, root.shift + kQ20Shift);
    }
    const std::int64_t result =
        fp::multiplyByQuantizedMultiplier(inverseRoot, scale.multiplier, scale.shift + kQ20Shift) + ofm.zeroPointAt(0);
    table.values.push_back(std::clamp<std::int64_t>(result, -128, 127));
  }
  return table;
}

LutTable softmaxExpTable(double beta, double inputScale) {
  // Vela SoftMax.generate_exp_table: exp(beta * scale * (x - 255)) for x in 0..255, via Q5.26 input.
  constexpr int kIntegerBits = 5;
  const double realBeta = std::min(beta * inputScale * static_cast<double>(1 << (31 - kIntegerBits)), 2147483647.0);
  const QuantisedScale scale = quantiseScale(realBeta);
  const int shift = 31 - scale.shift;
  const double differenceMin =
      -std::floor(31.0 * static_cast<double>(1 << (31 - kIntegerBits)) / std::ldexp(1.0, shift));
  LutTable table{{}, DataType::UInt32};
  for (int x = 0; x < 256; ++x) {
    const int difference = x - 255;
    if (difference < differenceMin) {
      table.values.push_back(0);
      continue;
    }
    const std::int64_t rescaled = fp::saturatingRoundingMul32(
        std::int64_t{difference} * (std::int64_t{1} << std::max(shift, 0)), scale.multiplier);
    table.values.push_back(fp::expOnNegativeValues(rescaled));
  }
  return table;
}

LutTable softmaxInt16ExpTable() {
  return interpolationTable([](double x) { return std::exp(x); }, -10.0, 0.0, 32768.0);
}

LutTable softmaxInt16ReciprocalTable() {
  return interpolationTable([](double x) { return 1.0 / (1.0 + x); }, 0.0, 1.0, 32768.0);
}

} // namespace ethosu::lowering
