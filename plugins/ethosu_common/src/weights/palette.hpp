// SPDX-License-Identifier: Apache-2.0
#pragma once

// Palette decisions of the Ethos-U weight encoder: where the stream is cut into sections that each get
// their own palette, and which palette (or direct coding) and zero-run mode each section uses. The
// heuristics reproduce Vela's mlw_encode.c (search_palette_sections, find_palette, create_palette) so
// that the encoded stream is byte-identical.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::weights::detail {

struct SectionPalette {
  /// Sign-magnitude codes of the palette entries, most frequent first; empty for direct coding.
  std::vector<int> entries;
  /// PALBITS: width of a palette entry, or of the largest direct code when there is no palette.
  int entryBits = 2;
  /// Added to a direct symbol (after removing the palette range) to get back the sign-magnitude code.
  int directOffset = 0;
  /// Zeros are coded as run lengths between the other weights ("alternating" mode).
  bool zeroRuns = false;
  /// Every weight of the section is in the palette.
  bool onlyPalette = false;
  /// The section holds nothing but zeros.
  bool onlyZeros = false;
  /// Symbol of each weight -256..255 (index weight + 256).
  std::array<int, 512> symbolOfWeight{};

  [[nodiscard]] int symbolOf(int weight) const { return symbolOfWeight[static_cast<std::size_t>(weight + 256)]; }
  [[nodiscard]] int size() const { return static_cast<int>(entries.size()); }
  /// Bits per symbol when a slice stores symbols uncompressed; nullopt-like 100 when it must not.
  [[nodiscard]] int uncompressedSymbolBits() const;
};

/// How the section search gets to its decisions; both give the same sections.
enum class SectionSearchMode : std::uint8_t {
  Fast,  ///< windows due at one weight share one scan; repeats in runs of zeros are skipped
  Plain, ///< every due window at every weight, each counted on its own (the reference's way; tests)
};

/// Start positions of the palette sections of `weights` (the first is always 0).
[[nodiscard]] std::vector<std::size_t> findPaletteSections(std::span<const std::int16_t> weights,
                                                           SectionSearchMode mode = SectionSearchMode::Fast);

/// The palette and zero-run mode for one section.
[[nodiscard]] SectionPalette choosePalette(std::span<const std::int16_t> section);

/// Bits needed to index a palette of `size` entries: 0 for one entry or none, at most 8.
[[nodiscard]] int paletteIndexBits(std::int64_t size);

/// `symbols[i] = palette.symbolOf(weights[i])` for every weight (-256..255; `symbols` holds as many).
/// A section without palette entries (direct coding, most of a dense network's weights) takes its
/// symbols from the sign-magnitude code, eight weights at a time, instead of one table lookup each.
void symbolsOf(std::span<const std::int16_t> weights, const SectionPalette& palette, std::uint16_t* symbols);

} // namespace ethosu::weights::detail
