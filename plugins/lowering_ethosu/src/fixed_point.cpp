// SPDX-License-Identifier: Apache-2.0
#include "fixed_point.hpp"

#include <algorithm>
#include <bit>
#include <limits>

namespace ethosu::lowering::fixed_point {

namespace {
constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt16Min = std::numeric_limits<std::int16_t>::min();
constexpr std::int64_t kInt16Max = std::numeric_limits<std::int16_t>::max();

/// Wraps to int32 like a C++ int32 (or numpy int32) would.
std::int64_t wrapInt32(std::int64_t value) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
}

/// Product shifted right by `bits`, rounded half away from zero (the reference truncates after nudging).
std::int64_t roundingHighMul(std::int64_t a, std::int64_t b, int bits) {
  const std::int64_t product = a * b;
  const std::int64_t nudge = product >= 0 ? (std::int64_t{1} << (bits - 1)) : 1 - (std::int64_t{1} << (bits - 1));
  return (product + nudge) / (std::int64_t{1} << bits);
}
} // namespace

std::int64_t saturatingRoundingMul32(std::int64_t a, std::int64_t b) {
  if (a == kInt32Min && b == kInt32Min) {
    return kInt32Max;
  }
  return roundingHighMul(a, b, 31);
}

std::int64_t saturatingRoundingMul16(std::int64_t a, std::int64_t b) {
  if (a == kInt16Min && b == kInt16Min) {
    return kInt16Max;
  }
  return roundingHighMul(a, b, 15);
}

std::int64_t saturatingMul16(std::int64_t a, std::int64_t b) {
  if (a == kInt16Min && b == kInt16Min) {
    return kInt16Max;
  }
  return (a * b) / (std::int64_t{1} << 15);
}

std::int64_t shiftLeft16(std::int64_t a, int offset) {
  return std::clamp(a * (std::int64_t{1} << offset), kInt16Min, kInt16Max);
}

std::int64_t shiftLeft32(std::int64_t a, int offset) {
  return std::clamp(a * (std::int64_t{1} << offset), kInt32Min, kInt32Max);
}

std::int64_t downscaleMultiplierInt32ToInt16(std::int64_t multiplier) {
  constexpr std::int64_t kRoundingOffset = std::int64_t{1} << 15;
  if (multiplier >= kInt32Max - kRoundingOffset) {
    return kInt16Max;
  }
  return static_cast<std::int16_t>((multiplier + kRoundingOffset) >> 16);
}

std::int64_t roundingDivideByPot(std::int64_t x, int exponent) {
  const std::int64_t mask = (std::int64_t{1} << exponent) - 1;
  const std::int64_t remainder = x & mask;
  const std::int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

std::int64_t saturatingRoundingMultiplyByPot(std::int64_t x, int exponent) {
  if (exponent < 0) {
    return roundingDivideByPot(x, -exponent);
  }
  const std::int64_t threshold = (std::int64_t{1} << (31 - exponent)) - 1;
  if (x > threshold) {
    return kInt32Max;
  }
  if (x < -threshold) {
    return kInt32Min;
  }
  return shiftLeft32(x, exponent);
}

std::int64_t multiplyByQuantizedMultiplier(std::int64_t x, std::int64_t multiplier, int shift) {
  const int leftShift = 31 - shift;
  const std::int64_t product = saturatingRoundingMul32(x * (std::int64_t{1} << std::max(leftShift, 0)), multiplier);
  return roundingDivideByPot(product, std::max(-leftShift, 0));
}

std::int64_t multiplyByQuantizedMultiplierLeftShift(std::int64_t x, std::int64_t multiplier, int shift) {
  return multiplyByQuantizedMultiplier(x, multiplier, 31 - shift);
}

namespace {
/// exp(a) for a in [-1/4, 0), a and the result in Q0.31 (gemmlowp's Taylor expansion around -1/8).
std::int64_t expOnIntervalBetweenNegativeOneQuarterAnd0Excl(std::int64_t a) {
  constexpr std::int64_t kConstantTerm = 1895147668; // exp(-1/8)
  constexpr std::int64_t kOneThird = 715827883;
  const std::int64_t x = a + (std::int64_t{1} << 28);
  const std::int64_t x2 = saturatingRoundingMul32(x, x);
  const std::int64_t x3 = saturatingRoundingMul32(x2, x);
  const std::int64_t x4 = saturatingRoundingMul32(x2, x2);
  const std::int64_t x4Over4 = roundingDivideByPot(x4, 2);
  const std::int64_t polynomial = roundingDivideByPot(saturatingRoundingMul32(x4Over4 + x3, kOneThird) + x2, 1);
  return wrapInt32(kConstantTerm + saturatingRoundingMul32(kConstantTerm, x + polynomial));
}
} // namespace

std::int64_t expOnNegativeValues(std::int64_t a) {
  constexpr std::int64_t kOneQuarter = 16777216; // 1/4 in Q5.26
  constexpr std::int64_t kQuarterMask = kOneQuarter - 1;
  const std::int64_t moduloQuarterMinusQuarter = wrapInt32((a & kQuarterMask) - kOneQuarter);
  std::int64_t result = expOnIntervalBetweenNegativeOneQuarterAnd0Excl(
      saturatingRoundingMultiplyByPot(moduloQuarterMinusQuarter, 5)); // Q5.26 -> Q0.31
  const std::int64_t remainder = wrapInt32(moduloQuarterMinusQuarter - a);
  // exp(-2^e) in Q0.31 for e = -2 .. 4, applied for each bit of the remainder.
  constexpr std::int64_t kMultipliers[] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int exponent = -2; exponent <= 4; ++exponent) {
    if ((remainder & (std::int64_t{1} << (26 + exponent))) != 0) {
      result = saturatingRoundingMul32(result, kMultipliers[exponent + 2]);
    }
  }
  return a == 0 ? kInt32Max : result;
}

InverseSqrt inverseSqrtMultiplier(std::int64_t input) {
  if (input <= 1) {
    return {kInt32Max, 0}; // 0 is treated as 1
  }
  int shift = 11;
  while (input >= (std::int64_t{1} << 29)) {
    input /= 4;
    ++shift;
  }
  const int leadingZeros = std::countl_zero(static_cast<std::uint32_t>(input));
  const int leftShiftBitPairs = (leadingZeros - 1) / 2 - 1;
  shift -= leftShiftBitPairs;
  input <<= 2 * leftShiftBitPairs;
  // Newton-Raphson on x = 1 / sqrt(input) in Q3.28, starting from 1, five iterations.
  const std::int64_t halfInput = roundingDivideByPot(input >> 1, 1);
  constexpr std::int64_t kOneAndHalf = (std::int64_t{1} << 28) + (std::int64_t{1} << 27);
  std::int64_t x = std::int64_t{1} << 28;
  for (int iteration = 0; iteration < 5; ++iteration) {
    const std::int64_t cube =
        saturatingRoundingMultiplyByPot(saturatingRoundingMul32(saturatingRoundingMul32(x, x), x), 6);
    const std::int64_t difference =
        wrapInt32(saturatingRoundingMul32(kOneAndHalf, x) - saturatingRoundingMul32(halfInput, cube));
    x = saturatingRoundingMultiplyByPot(difference, 3);
  }
  constexpr std::int64_t kHalfSqrt2 = 1518500250; // sqrt(2) / 2 in Q0.31
  std::int64_t multiplier = saturatingRoundingMul32(x, kHalfSqrt2);
  if (shift < 0) {
    multiplier = wrapInt32(multiplier << -shift);
    shift = 0;
  }
  return {multiplier, -shift};
}

} // namespace ethosu::lowering::fixed_point
