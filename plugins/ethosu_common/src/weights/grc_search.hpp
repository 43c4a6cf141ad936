#pragma once

// Choice of Golomb-Rice (GRC) parameters along a symbol sequence: a shortest-path search over the
// parameter sets where each symbol costs its coded length and each change of parameters costs a slice
// header (Vela: ethosu/mlw_codec/mlw_encode.c, search_grc_params).

#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::weights::detail {

/// Symbols up to `end` (exclusive, from the end of the previous segment) use one parameter set.
struct GrcSegment {
  int parameter = 0; ///< index into kWeightGrcParameters, or the zero-run divisor
  std::int64_t end = 0;
};

enum class SymbolKind : std::uint8_t { Weights, ZeroRuns };

/// Best parameter segments for `symbols`. `uncompressedBits` prices the uncompressed weight parameter;
/// changing parameters right after one of `freeChangePositions` costs nothing (the weight stream
/// already starts a new slice there).
[[nodiscard]] std::vector<GrcSegment> searchGrcParameters(std::span<const int> symbols, SymbolKind kind,
                                                          int uncompressedBits,
                                                          std::span<const std::int64_t> freeChangePositions);

} // namespace ethosu::weights::detail
