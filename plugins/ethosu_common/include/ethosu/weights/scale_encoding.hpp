// SPDX-License-Identifier: Apache-2.0
#pragma once

// Per-channel scale and bias of convolution-like operations as the Ethos-U reads them: a 32-bit
// multiplier and 6-bit shift per OFM channel, packed with a 40-bit bias into 10 bytes
// (Vela 3.10: ethosu/vela/scaling.py quantise_scale, weight_compressor.py encode_bias).

#include <cstdint>
#include <vector>

namespace ethosu::weights {

/// real scale ~= multiplier / 2^shift.
struct QuantisedScale {
  std::int64_t multiplier = 0;
  int shift = 0;
  friend bool operator==(const QuantisedScale&, const QuantisedScale&) = default;
};

/// 31-bit significand (rounded away from zero) and shift; (0, 16) when the shift falls outside 0..63.
[[nodiscard]] QuantisedScale quantiseScale(double scale);
/// The 16-bit multiplier the reference uses for 16-bit IFMs with 64-bit biases.
[[nodiscard]] QuantisedScale reducedQuantiseScale(double scale);

inline constexpr int kBiasAndScaleBytes = 10;

/// Appends [bias: 40 bits][multiplier: 32 bits][shift: 6 bits, 2 zero bits], little-endian.
/// npu::Error when a value does not fit its field.
void appendBiasAndScale(std::vector<std::uint8_t>& stream, std::int64_t bias, const QuantisedScale& scale);

} // namespace ethosu::weights
