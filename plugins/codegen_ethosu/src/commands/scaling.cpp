// SPDX-License-Identifier: Apache-2.0
#include "commands/scaling.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "npu/core/diagnostics.hpp"

namespace ethosu::codegen {

double roundAwayFromZero(double value) {
  return std::trunc(value + (value < 0 ? -0.5 : 0.5));
}

std::int64_t quantiseFloat32(double value, double scale, std::int64_t zeroPoint) {
  const float quotient = static_cast<float>(value) / static_cast<float>(scale);
  const float rounded = std::trunc(quotient + (quotient < 0 ? -0.5F : 0.5F));
  // A zero or tiny scale gives an infinite (or NaN) quotient, which no integer holds: saturate, as the
  // registers that take the result clamp it to their range anyway (found by fuzz_pipeline).
  constexpr float kLimit = 4.0e18F;
  if (std::isnan(rounded)) {
    return zeroPoint;
  }
  return zeroPoint + static_cast<std::int64_t>(std::clamp(rounded, -kLimit, kLimit));
}

// Vela: scaling.quantise_scale.
FixedPointScale quantiseScale(double scale) {
  if (!std::isfinite(scale)) {
    npu::throwCompileError("a rescale factor is not finite: the operation's quantisation scales cannot be encoded");
  }
  int exponent = 0;
  const double significand = std::frexp(scale, &exponent);
  const auto significandQ31 = static_cast<std::int64_t>(roundAwayFromZero(significand * 2147483648.0));
  const int shift = 31 - exponent;
  if (shift < 0 || shift >= 64) {
    return {0, 16};
  }
  return {significandQ31, shift};
}

// Vela: scaling.quantise_pooling_scale.
FixedPointScale quantisePoolingScale(std::int64_t kernelElements, int rescaleBits) {
  int k = 0;
  std::frexp(static_cast<double>(kernelElements - 1), &k);
  const int n = 31 - rescaleBits;
  if (n + k < 0 || n + k >= 64 || kernelElements <= 0) {
    npu::throwCompileError("a pooling scale over " + std::to_string(kernelElements) + " elements needs a shift of " +
                           std::to_string(n + k) + ", beyond the 6-bit register");
  }
  const std::uint64_t numerator = (std::uint64_t{1} << (n + k)) + (std::uint64_t{1} << k);
  return {static_cast<std::int64_t>(numerator / static_cast<std::uint64_t>(kernelElements)), n + k};
}

// Vela: scaling.simplified_elementwise_add_sub_scale.
SimplifiedAddSubScale simplifiedAddSubScale(double inputScale, double input2Scale, double outputScale, int inputShift) {
  const double maxInputScale = std::max(inputScale, input2Scale);
  const double shifted = static_cast<double>(std::int64_t{1} << inputShift);
  SimplifiedAddSubScale result;
  result.operandA = inputScale * shifted / (2 * maxInputScale);
  result.operandB = input2Scale * shifted / (2 * maxInputScale);
  result.output = quantiseScale((2 * maxInputScale) / (outputScale * shifted));
  return result;
}

// Vela: scaling.advanced_elementwise_add_sub_scale.
AdvancedAddSubScale advancedAddSubScale(double inputScale, double input2Scale, double outputScale, int bitDepth) {
  const double maxInputScale = std::max(inputScale, input2Scale);
  const double minInputScale = std::min(inputScale, input2Scale);
  const int inputShift = bitDepth == 8 ? 20 : 15;
  const SimplifiedAddSubScale simplified = simplifiedAddSubScale(minInputScale, maxInputScale, outputScale, inputShift);
  AdvancedAddSubScale result;
  result.operandToScale = inputScale < input2Scale ? 1 : 2;
  result.operand = quantiseScale(simplified.operandA);
  result.output = simplified.output;
  return result;
}

} // namespace ethosu::codegen
