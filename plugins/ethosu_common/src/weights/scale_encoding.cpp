// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/scale_encoding.hpp"

#include "npu/core/diagnostics.hpp"

#include <cmath>
#include <string>

namespace ethosu::weights {

QuantisedScale quantiseScale(double scale) {
  int exponent = 0;
  const double significand = std::frexp(scale, &exponent);
  // Round half away from zero, as the reference's round_away_zero (numeric_util.py).
  const double scaled = significand * static_cast<double>(std::int64_t{1} << 31);
  const double rounded = std::trunc(scaled + (scaled < 0 ? -0.5 : 0.5));
  const int shift = 31 - exponent;
  if (shift < 0 || shift >= 64) {
    return {0, 16};
  }
  return {static_cast<std::int64_t>(rounded), shift};
}

QuantisedScale reducedQuantiseScale(double scale) {
  const QuantisedScale full = quantiseScale(scale);
  const std::int64_t multiplier =
      full.multiplier < (std::int64_t{32767} << 16) ? (full.multiplier + (std::int64_t{1} << 15)) >> 16 : 32767;
  return {multiplier, full.shift - 16};
}

void appendBiasAndScale(std::vector<std::uint8_t>& stream, std::int64_t bias, const QuantisedScale& scale) {
  constexpr std::int64_t kBiasLimit = std::int64_t{1} << 39;
  if (bias < -kBiasLimit || bias >= kBiasLimit) {
    npu::throwCompileError("bias " + std::to_string(bias) + " does not fit the 40-bit bias field", {},
                           "the Ethos-U accumulates with 40-bit biases at most");
  }
  if (scale.multiplier < 0 || scale.multiplier >= (std::int64_t{1} << 32) || scale.shift < 0 || scale.shift >= 64) {
    npu::throwCompileError("scale " + std::to_string(scale.multiplier) + " >> " + std::to_string(scale.shift) +
                               " does not fit the 32-bit multiplier and 6-bit shift fields",
                           {}, "the ratio of IFM, weight and OFM scales is outside what the hardware can apply");
  }
  const auto biasBits = static_cast<std::uint64_t>(bias);
  for (unsigned byte = 0; byte < 5; ++byte) {
    stream.push_back(static_cast<std::uint8_t>((biasBits >> (8U * byte)) & 0xffU));
  }
  const auto multiplier = static_cast<std::uint64_t>(scale.multiplier);
  for (unsigned byte = 0; byte < 4; ++byte) {
    stream.push_back(static_cast<std::uint8_t>((multiplier >> (8U * byte)) & 0xffU));
  }
  stream.push_back(static_cast<std::uint8_t>(scale.shift & 0x3f));
}

} // namespace ethosu::weights
