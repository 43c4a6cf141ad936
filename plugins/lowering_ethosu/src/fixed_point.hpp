// SPDX-License-Identifier: Apache-2.0
#pragma once
// Integer fixed-point arithmetic of the TensorFlow Lite reference kernels (gemmlowp), as Vela uses it to
// compute lookup tables bit-exactly (Vela fp_math.py). Values are int64 in the interface so callers
// need no casts; every function keeps the range the reference's int16/int32 type has.

#include <cstdint>

namespace ethosu::lowering::fixed_point {

/// (a * b + 2^30) >> 31 with rounding half away from zero, saturating INT32_MIN * INT32_MIN.
[[nodiscard]] std::int64_t saturatingRoundingMul32(std::int64_t a, std::int64_t b);
/// (a * b + 2^14) >> 15 with rounding half away from zero, saturating INT16_MIN * INT16_MIN.
[[nodiscard]] std::int64_t saturatingRoundingMul16(std::int64_t a, std::int64_t b);
/// (a * b) >> 15 rounded towards zero, saturating INT16_MIN * INT16_MIN.
[[nodiscard]] std::int64_t saturatingMul16(std::int64_t a, std::int64_t b);
/// a << offset saturated to int16.
[[nodiscard]] std::int64_t shiftLeft16(std::int64_t a, int offset);
/// a << offset saturated to int32.
[[nodiscard]] std::int64_t shiftLeft32(std::int64_t a, int offset);
/// The top 16 bits of a Q31 multiplier, rounded.
[[nodiscard]] std::int64_t downscaleMultiplierInt32ToInt16(std::int64_t multiplier);
/// x / 2^exponent rounded half away from zero.
[[nodiscard]] std::int64_t roundingDivideByPot(std::int64_t x, int exponent);
/// x * 2^exponent saturated to int32.
[[nodiscard]] std::int64_t saturatingRoundingMultiplyByPot(std::int64_t x, int exponent);
/// x * multiplier / 2^shift for a (multiplier, shift) pair from quantiseScale.
[[nodiscard]] std::int64_t multiplyByQuantizedMultiplier(std::int64_t x, std::int64_t multiplier, int shift);
/// exp(a) for a <= 0 in Q5.26, the result in Q0.31.
[[nodiscard]] std::int64_t expOnNegativeValues(std::int64_t a);
/// 1 / sqrt(input) as a Q31 multiplier and a left shift (TensorFlow Lite GetInvSqrtQuantizedMultiplierExp
/// with reverse_shift = -1).
struct InverseSqrt {
  std::int64_t multiplier = 0;
  int shift = 0;
};
[[nodiscard]] InverseSqrt inverseSqrtMultiplier(std::int64_t input);
/// x * multiplier * 2^shift with a left shift as TensorFlow Lite's MultiplyByQuantizedMultiplier takes it
/// (positive = left).
[[nodiscard]] std::int64_t multiplyByQuantizedMultiplierLeftShift(std::int64_t x, std::int64_t multiplier, int shift);

} // namespace ethosu::lowering::fixed_point
