// SPDX-License-Identifier: Apache-2.0
#pragma once

// Fixed-point scales of the OFM and of elementwise operands, as the hardware takes them (Vela 3.10's
// scaling.py; the formulas are TFLite's reference kernels').

#include <cstdint>

namespace ethosu::codegen {

struct FixedPointScale {
  std::int64_t scale = 0;
  int shift = 0;
};

/// A real scale as a 31-bit significand and a right shift; (0, 16) when the shift is out of range.
[[nodiscard]] FixedPointScale quantiseScale(double scale);
/// The scale of an average over `kernelElements`, with `rescaleBits` of headroom for a further rescale.
[[nodiscard]] FixedPointScale quantisePoolingScale(std::int64_t kernelElements, int rescaleBits);

/// Add/sub with equal input scales: the (unquantised) operand rescales and the OFM scale.
struct SimplifiedAddSubScale {
  double operandA = 0.0;
  double operandB = 0.0;
  FixedPointScale output;
};
[[nodiscard]] SimplifiedAddSubScale simplifiedAddSubScale(double inputScale, double input2Scale, double outputScale,
                                                          int inputShift = 16);

/// Add/sub with different input scales: the smaller-scaled operand is rescaled.
struct AdvancedAddSubScale {
  FixedPointScale operand;
  FixedPointScale output;
  int operandToScale = 1; ///< 1: operand A, 2: operand B
};
[[nodiscard]] AdvancedAddSubScale advancedAddSubScale(double inputScale, double input2Scale, double outputScale,
                                                      int bitDepth);

/// A double rounded to the nearest integer, halves away from zero (numeric_util.round_away_zero).
[[nodiscard]] double roundAwayFromZero(double value);
/// A real value quantised in single precision, as Vela's numeric_util.quantise_float32 does:
/// zeroPoint + round_away_zero(float(value) / float(scale)), the rounding done in float too.
[[nodiscard]] std::int64_t quantiseFloat32(double value, double scale, std::int64_t zeroPoint);

} // namespace ethosu::codegen
