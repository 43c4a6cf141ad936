// SPDX-License-Identifier: Apache-2.0
#pragma once

// Constants of the Ethos-U compressed weight stream format (Vela: ethosu/mlw_codec/mlw_common.h and
// mlw_encode.c). Shared by the encoder and the decoder so both read the same layout.

#include <array>
#include <cstdint>

namespace ethosu::weights::detail {

inline constexpr int kMinWeight = -255;
inline constexpr int kMaxWeight = 255;

/// ZDIV value of a slice that codes no zero runs.
inline constexpr std::uint32_t kZeroRunsDisabled = 6;
/// ZDIV value that ends a stream; followed by padding to a 16-byte boundary.
inline constexpr std::uint32_t kEndOfStream = 7;
/// WDIV value of a slice whose weight symbols are stored as plain fixed-width numbers.
inline constexpr std::uint32_t kUncompressedWeights = 7;

inline constexpr int kSliceLengthBits = 15;
inline constexpr int kMaxSliceLength = (1 << kSliceLengthBits) - 1;
inline constexpr int kMaxPaletteSize = 32;
inline constexpr int kStreamAlignmentBits = 128;

/// Golomb-Rice parameters the encoder may choose for weight symbols: divisor bits and whether the
/// quotient is truncated (at most 2); the last entry stands for uncompressed symbols.
struct GrcParameter {
  int divisorBits = 0;
  bool truncated = false;
  bool uncompressed = false;
};
inline constexpr std::array<GrcParameter, 13> kWeightGrcParameters{{
    {0, false, false}, {1, false, false}, {2, false, false}, {3, false, false}, {4, false, false},
    {5, false, false}, {0, true, false},  {1, true, false},  {2, true, false},  {3, true, false},
    {4, true, false},  {5, true, false},  {0, false, true},
}};
/// Zero runs use untruncated parameters with divisors 0..3 (ZDIV).
inline constexpr int kZeroRunGrcParameterCount = 4;

/// Bits of a weight chunk's first unary field, and the number of symbols a chunk carries.
inline constexpr int kWeightUnaryBits = 12;
inline constexpr int kWideUncompressedSymbolsPerChunk = 8;
/// Zero-run chunks carry 12 unary bits for small divisors and 8 for larger ones.
[[nodiscard]] constexpr int zeroRunUnaryBits(int divisorBits) { return divisorBits < 3 ? 12 : 8; }
/// Weight symbols per chunk: 8 when uncompressed symbols are wider than 5 bits, else 12.
[[nodiscard]] constexpr int weightSymbolsPerChunk(bool uncompressed, int divisorBits) {
  return uncompressed && divisorBits > 5 ? kWideUncompressedSymbolsPerChunk : kWeightUnaryBits;
}
/// A zero-run chunk may run at most this many symbols behind the weight chunks.
inline constexpr int kMaxChunkImbalance = 8;

/// Sign-magnitude code of a weight as palettes and direct symbols store it: magnitude << 1 | sign.
[[nodiscard]] constexpr int signMagnitudeOf(int weight) { return weight < 0 ? ((-weight) << 1) | 1 : weight << 1; }
[[nodiscard]] constexpr int weightOfSignMagnitude(int code) {
  const int magnitude = code >> 1;
  return (code & 1) != 0 ? -magnitude : magnitude;
}

} // namespace ethosu::weights::detail
