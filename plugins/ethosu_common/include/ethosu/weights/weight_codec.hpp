// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Ethos-U compressed weight stream: a lossless code for signed 9-bit weights (-255..255) built from
// palettes, zero runs and Golomb-Rice codes, in slices of at most 32767 weights, ended by an end marker
// and padded to 16 bytes. The encoder makes the same decisions as Vela 3.10's mlw_codec (mlw_encode.c),
// so streams are byte-identical to Vela's and their sizes exact.
//
// Pure functions: no state, safe to call from many threads at once.

#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::weights {

/// Encodes `weights` (each in -255..255; npu::Error otherwise). An empty input gives an empty stream.
[[nodiscard]] std::vector<std::uint8_t> encodeWeightStream(std::span<const std::int16_t> weights);

/// encodeWeightStream(weights).size(), computed from the same decisions without writing the stream.
[[nodiscard]] std::int64_t encodedWeightStreamSize(std::span<const std::int16_t> weights);

/// Decodes a stream written by encodeWeightStream (or by Vela); npu::Error when it is malformed.
[[nodiscard]] std::vector<std::int16_t> decodeWeightStream(std::span<const std::uint8_t> stream);

} // namespace ethosu::weights
