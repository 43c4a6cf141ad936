// SPDX-License-Identifier: Apache-2.0
#pragma once

// Choice of Golomb-Rice (GRC) parameters along a symbol sequence: a shortest-path search over the
// parameter sets where each symbol costs its coded length and each change of parameters costs a slice
// header (Vela: ethosu/mlw_codec/mlw_encode.c, search_grc_params). Same decisions and tie-breaking as
// the reference: a parameter switches to the cheapest one (lowest index among equals) only when that is
// strictly cheaper, and the walk back starts from the cheapest final parameter.
//
// The searches keep each parameter's cost relative to the cheapest one, capped: only whether a cost
// exceeds the change cost (40 or 0) and its minimum with it decide anything, so the cap changes no
// decision. The weight search carries min(cost, 40) for 16 parameters of 16 bits in two SIMD registers
// and records per symbol only the decisions the walk back needs (on x86-64 processors with AVX2, a
// variant takes the horizontal minimum with PHMINPOSUW); the zero-run search caps at 127.

#include "large_buffer.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::weights::detail {

/// A weight symbol (0..511: a palette index or a direct code), 16 bits wide so that a stream's symbols
/// take half the memory (their buffers reach megabytes, and fresh memory costs its page faults).
using WeightSymbol = std::uint16_t;

/// Symbols up to `end` (exclusive, from the end of the previous segment) use one parameter set.
struct GrcSegment {
  int parameter = 0; ///< index into kWeightGrcParameters, or the zero-run divisor
  std::int64_t end = 0;
  friend bool operator==(const GrcSegment&, const GrcSegment&) = default;
};

/// Memory the searches reuse from one call to the next: what the walk back needs of each symbol.
struct GrcSearchScratch {
  LargeVector<std::uint32_t> weightDecisions;
  std::vector<std::array<std::int8_t, 4>> zeroRunCosts;
};

/// Which instructions the weight search's forward pass uses; every path takes the same decisions.
enum class WeightSearchPath : std::uint8_t {
  Best,     ///< AVX2 where the processor has it, else the baseline
  Baseline, ///< SSE2 on x86-64, NEON or plain lanes elsewhere
  Avx2,     ///< AVX2 (x86-64 processors that have it; tests)
};

/// Whether the processor (and the build) can run WeightSearchPath::Avx2.
[[nodiscard]] bool weightSearchHasAvx2();

/// Best parameter segments for weight symbols (0..511). `uncompressedBits` (at most 100) prices the
/// uncompressed parameter (kWeightGrcParameters' last entry) per symbol.
void searchWeightParameters(std::span<const WeightSymbol> symbols, int uncompressedBits, GrcSearchScratch& scratch,
                            std::vector<GrcSegment>& segments, WeightSearchPath path = WeightSearchPath::Best);

/// Best divisors (0..3) for zero-run lengths. Changing divisors right after the end of one of
/// `weightSegments` costs nothing: the weight stream already starts a new slice there.
void searchZeroRunParameters(std::span<const int> runs, std::span<const GrcSegment> weightSegments,
                             GrcSearchScratch& scratch, std::vector<GrcSegment>& segments);

} // namespace ethosu::weights::detail
