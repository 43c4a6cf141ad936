// SPDX-License-Identifier: Apache-2.0
#include "palette.hpp"

#include "stream_format.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ethosu::weights::detail {
namespace {

constexpr int kWeightSlots = 512; // weights -256..255, slot = weight + 256

[[nodiscard]] constexpr std::size_t slotOf(int weight) {
  return static_cast<std::size_t>(weight + 256);
}

/// Vela's power-of-two test, which also accepts zero: a palette that grows to 2^k + 1 entries (plus
/// the excluded zero) needs one more index bit.
[[nodiscard]] bool needsAnotherIndexBit(int entriesBeforeGrowth) {
  return ((entriesBeforeGrowth - 1) & entriesBeforeGrowth) == 0;
}

/// Tracks, while scanning the weights, where the current section started and when each value was last
/// seen; decides where a new palette pays off (mlw_encode.c: search_palette_sections).
class SectionSearch {
public:
  SectionSearch(std::span<const std::int16_t> weights, SectionSearchMode mode)
      : weights_(weights), fast_(mode == SectionSearchMode::Fast) {
    lastSeen_.fill(-1);
  }

  std::vector<std::size_t> run() {
    sectionStarts_.assign(1, 0);
    // The state every weight updates is kept in locals, written back to the members only around a
    // window evaluation: kept in the members (which the section list's growth lets escape), each
    // weight waited for the previous one's stores.
    std::int64_t sectionStart = 0;
    std::int64_t zeroCount = 0;
    std::int64_t nonZeroCount = 0;
    int paletteSize = 0;
    bool havePalette = false;
    const auto count = std::ssize(weights_);
    const bool fast = fast_; // a local: the byte stores of markLatest could alias the member
    for (std::int64_t position = 0; position < count; ++position) {
      const int weight = weights_[static_cast<std::size_t>(position)];
      const bool excludeZero = zeroCount > (position - sectionStart) / 4;
      std::int64_t& lastSeen = lastSeen_[slotOf(weight)];

      // A value the current palette lacks grows it; growing a long-lived palette past a power of two
      // (or past 32 entries) starts a new section instead.
      if (havePalette && lastSeen < sectionStart) {
        ++paletteSize;
        const bool tooLong = position - sectionStart - zeroCount > 512;
        const bool tooLarge = paletteSize - static_cast<int>(excludeZero) > kMaxPaletteSize;
        if (needsAnotherIndexBit(paletteSize - 1 - static_cast<int>(excludeZero)) && (tooLong || tooLarge)) {
          startSection(position);
          sectionStart = position;
          havePalette = false;
          zeroCount = 0;
        }
      }

      if (fast) {
        markLatest(lastSeen, position);
      }
      lastSeen = position;
      if (weight == 0) {
        ++zeroCount;
      } else {
        recentNonZeros_[static_cast<std::size_t>(nonZeroCount % kRecentNonZeros)] = position;
        ++nonZeroCount;
      }

      const std::int64_t nonZeros = position - sectionStart - zeroCount;
      if (nonZeros <= 0 || nonZeros % kSmallestWindow != 0) {
        continue; // no window is due, and nothing changes that could make a later one due
      }
      sectionStart_ = sectionStart;
      zeroCount_ = zeroCount;
      nonZeroCount_ = nonZeroCount;
      paletteSize_ = paletteSize;
      havePalette_ = havePalette;
      evaluateWindows(position, weight, excludeZero);
      sectionStart = sectionStart_;
      zeroCount = zeroCount_;
      paletteSize = paletteSize_;
      havePalette = havePalette_;
    }
    return std::move(sectionStarts_);
  }

private:
  /// Enough of the latest non-zero positions for the largest window (512, doubled, plus two).
  static constexpr std::int64_t kRecentNonZeros = 2048;
  /// Every window is a multiple of the smallest.
  static constexpr std::int64_t kSmallestWindow = 32;

  [[gnu::noinline]] void startSection(std::int64_t position) {
    sectionStarts_.push_back(static_cast<std::size_t>(position));
  }

  /// The windows due at `position` (holding `weight`), with the state up to it in the members.
  [[gnu::noinline]] void evaluateWindows(std::int64_t position, int weight, bool excludeZero) {
    // In a run of zeros the windows stay due at every weight. Once they found no new palette, the next
    // zero changes nothing they look at (same non-zeros, same distinct values, zero already counted),
    // unless it tips the zero exclusion or grew the palette: the same evaluation would follow.
    const QuietEvaluation now{position, nonZeroCount_, sectionStart_, paletteSize_, havePalette_, excludeZero};
    if (fast_ && weight == 0 && position > 0 && weights_[static_cast<std::size_t>(position - 1)] == 0 &&
        now.repeats(lastQuiet_)) {
      lastQuiet_.position = position;
      return;
    }
    distinctSuffix_.clear(); // the windows due here share one end: their counts share one scan
    createdPalette_ = false;
    for (const int window : {32, 64, 128, 256, 512}) {
      considerNewPalette(position, window * (havePalette_ ? 2 : 1), excludeZero);
    }
    lastQuiet_ = createdPalette_ ? QuietEvaluation{} : now;
  }

  /// The state a window evaluation that created no palette saw, to recognise an identical one.
  struct QuietEvaluation {
    std::int64_t position = -2;
    std::int64_t nonZeroCount = 0;
    std::int64_t sectionStart = 0;
    int paletteSize = 0;
    bool havePalette = false;
    bool excludeZero = false;

    /// Whether this evaluation, one weight after `before`, sees what `before` saw.
    [[nodiscard]] bool repeats(const QuietEvaluation& before) const {
      return before.position == position - 1 && before.nonZeroCount == nonZeroCount &&
             before.sectionStart == sectionStart && before.paletteSize == paletteSize &&
             before.havePalette == havePalette && before.excludeZero == excludeZero;
    }
  };

  /// Every `window` non-zero weights, estimates whether a palette covering the last `window` of them
  /// saves bits compared with the current coding.
  void considerNewPalette(std::int64_t position, std::int64_t window, bool excludeZero) {
    const std::int64_t nonZeros = position - sectionStart_ - zeroCount_;
    if (nonZeros <= 0 || (nonZeros & (window - 1)) != 0) { // windows are powers of two: no division
      return;
    }
    const std::int64_t candidateStart = startOfLastNonZeros(window + 1);
    const std::int64_t candidateSize = distinctValuesFrom(candidateStart, position);
    const std::int64_t excluded = excludeZero ? 1 : 0;
    const std::int64_t newBits = paletteIndexBits(candidateSize - excluded);

    bool createPalette = false;
    if (havePalette_) {
      const std::int64_t oldBits = paletteIndexBits(paletteSize_ - excluded);
      const std::int64_t savings = window * (oldBits * 15 - newBits * 15) / 16 - candidateSize * 8 - 20;
      createPalette = savings > 0;
    } else if (candidateSize - excluded <= kMaxPaletteSize) {
      // 90 bits per 16 weights approximates direct coding without a palette.
      const std::int64_t savings = window * (90 - newBits * 15) / 16 - candidateSize * 8 - 20;
      createPalette = savings > 0;
    }
    if (!createPalette) {
      return;
    }
    paletteSize_ = static_cast<int>(candidateSize);
    havePalette_ = true;
    createdPalette_ = true;
    sectionStart_ = candidateStart;
    if (static_cast<std::int64_t>(sectionStarts_.back()) != sectionStart_) {
      sectionStarts_.push_back(static_cast<std::size_t>(sectionStart_));
    }
    const auto begin = weights_.begin() + sectionStart_;
    zeroCount_ = std::count(begin, weights_.begin() + position + 1, std::int16_t{0});
  }

  /// Where a walk back from the current position (not before the section start) stops after passing
  /// `count` non-zero weights: at the next non-zero weight, the (count + 1)-th latest one.
  [[nodiscard]] std::int64_t startOfLastNonZeros(std::int64_t count) const {
    if (nonZeroCount_ > count) {
      const std::int64_t stop =
          recentNonZeros_[static_cast<std::size_t>((nonZeroCount_ - count - 1) % kRecentNonZeros)];
      if (stop > sectionStart_) {
        return stop;
      }
    }
    return sectionStart_;
  }

  /// Distinct values among the weights first..last: those whose latest occurrence is in the range.
  /// All windows of one position end at `last`; the counts of the ranges scanned so far are kept in
  /// distinctSuffix_ (index: last - first), so a larger window only scans what the smaller ones did not.
  [[nodiscard]] std::int64_t distinctValuesFrom(std::int64_t first, std::int64_t last) {
    if (fast_ && last - first < kLatestRing) {
      // The windows of one position nest (a larger one starts no later): count only what the range
      // counted last at this position does not cover.
      if (counted_.last == last && first <= counted_.first) {
        counted_.count += first < counted_.first ? countLatest(first, counted_.first - 1) : 0;
      } else {
        counted_.count = countLatest(first, last);
      }
      counted_.first = first;
      counted_.last = last;
      return counted_.count;
    }
    if (!fast_) {
      distinctSuffix_.clear(); // the plain search counts every window on its own
    }
    const auto length = static_cast<std::size_t>(last - first);
    while (distinctSuffix_.size() <= length) {
      const std::int64_t position = last - static_cast<std::int64_t>(distinctSuffix_.size());
      const std::int64_t counted = distinctSuffix_.empty() ? 0 : distinctSuffix_.back();
      const bool latest = lastSeen_[slotOf(weights_[static_cast<std::size_t>(position)])] == position;
      distinctSuffix_.push_back(counted + (latest ? 1 : 0));
    }
    return distinctSuffix_[length];
  }

  /// The fast search keeps, for the latest kLatestRing positions, one byte per position: 1 where the
  /// weight there has occurred again since (it is no longer its value's latest occurrence). A window's
  /// distinct values are then its length minus its marks; longer windows (long runs of zeros) are
  /// scanned. Each weight makes two plain stores (bits in words made it wait for earlier stores).
  static constexpr std::int64_t kLatestRing = std::int64_t{1} << 14;

  void markLatest(std::int64_t previous, std::int64_t position) {
    superseded_[static_cast<std::size_t>(position % kLatestRing)] = 0; // the slot's earlier position left
    if (previous >= 0 && position - previous < kLatestRing) {
      superseded_[static_cast<std::size_t>(previous % kLatestRing)] = 1;
    }
  }

  /// Latest occurrences among positions first..last (at most kLatestRing of them, the last the current
  /// position).
  [[nodiscard]] std::int64_t countLatest(std::int64_t first, std::int64_t last) const {
    const auto marksIn = [&](std::int64_t begin, std::int64_t end) {
      std::int64_t marks = 0;
      std::int64_t slot = begin;
#if defined(__SSE2__)
      // Sixteen marks at a time: PSADBW against zero sums each half's eight bytes into a 64-bit lane.
      __m128i sums = _mm_setzero_si128();
      for (; slot + 16 <= end; slot += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(superseded_.data() + slot));
        sums = _mm_add_epi64(sums, _mm_sad_epu8(bytes, _mm_setzero_si128()));
      }
      marks += _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
#endif
      // Eight marks (bytes of 0 or 1) at a time: their sum is the top byte of the word times 0x0101...
      for (; slot + 8 <= end; slot += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, superseded_.data() + slot, sizeof(word));
        marks += static_cast<std::int64_t>((word * 0x0101010101010101ULL) >> 56U);
      }
      for (; slot < end; ++slot) {
        marks += superseded_[static_cast<std::size_t>(slot)];
      }
      return marks;
    };
    const std::int64_t begin = first % kLatestRing;
    const std::int64_t end = last % kLatestRing + 1;
    const std::int64_t marks = begin < end ? marksIn(begin, end) : marksIn(begin, kLatestRing) + marksIn(0, end);
    return last - first + 1 - marks;
  }

  std::span<const std::int16_t> weights_;
  bool fast_;
  std::array<std::uint8_t, kLatestRing> superseded_{};
  std::array<std::int64_t, kWeightSlots> lastSeen_{};
  std::array<std::int64_t, kRecentNonZeros> recentNonZeros_; // only entries written are read: no fill
  std::int64_t nonZeroCount_ = 0;
  std::vector<std::size_t> sectionStarts_;
  std::vector<std::int64_t> distinctSuffix_;
  std::int64_t sectionStart_ = 0;
  std::int64_t zeroCount_ = 0;
  int paletteSize_ = 0;
  bool havePalette_ = false;
  bool createdPalette_ = false;
  QuietEvaluation lastQuiet_;
  /// The latest range countLatest counted (first..last) and its count.
  struct CountedRange {
    std::int64_t first = 0;
    std::int64_t last = -1;
    std::int64_t count = 0;
  } counted_;
};

/// Zero runs pay off when zero is the most common weight and more than four times as common as the
/// runner-up (mlw_encode.c: find_palette, ZERO_RUN_THRES).
[[nodiscard]] bool useZeroRuns(const std::array<std::int64_t, kWeightSlots>& frequency) {
  std::int64_t mostFrequent = 0;
  std::int64_t runnerUp = 0;
  int mostFrequentWeight = 0;
  for (int slot = 0; slot < kWeightSlots; ++slot) {
    const std::int64_t count = frequency[static_cast<std::size_t>(slot)];
    if (count > mostFrequent) {
      runnerUp = mostFrequent;
      mostFrequent = count;
      mostFrequentWeight = slot - 256;
    } else if (count > runnerUp) {
      runnerUp = count;
    }
  }
  return mostFrequentWeight == 0 && mostFrequent > 4 * runnerUp;
}

void fillSymbolTable(SectionPalette& palette) {
  // Direct symbols follow the palette indices. Zero takes the code of "negative zero" (1): a quirk of
  // the reference encoder that the decoder undoes the same way.
  for (int weight = -256; weight < 256; ++weight) {
    const int code = weight == 0 ? 1 : signMagnitudeOf(weight);
    palette.symbolOfWeight[slotOf(weight)] = code + palette.size() - palette.directOffset;
  }
  for (int index = 0; index < palette.size(); ++index) {
    palette.symbolOfWeight[slotOf(weightOfSignMagnitude(palette.entries[static_cast<std::size_t>(index)]))] = index;
  }
}

} // namespace

int SectionPalette::uncompressedSymbolBits() const {
  if (onlyPalette) {
    int bits = 0;
    while ((1 << bits) < size()) {
      ++bits;
    }
    return bits;
  }
  if (entries.empty()) {
    return entryBits;
  }
  // Uncompressed symbols are impossible here; the parameter search prices them at 100 bits each.
  return 100;
}

int paletteIndexBits(std::int64_t size) {
  // The smallest bits with size <= 2^bits, at most 8: the bit width of size - 1 (a loop of up to
  // eight steps before, in every window evaluation).
  return size <= 1 ? 0 : std::min(8, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(size - 1))));
}

void symbolsOf(std::span<const std::int16_t> weights, const SectionPalette& palette, std::uint16_t* symbols) {
  const std::size_t count = weights.size();
  std::size_t index = 0;
  if (palette.entries.empty()) {
    // fillSymbolTable without entries: symbol = code - directOffset, where the code of w is 2|w| + 1
    // for w < 0, 2w for w > 0 and 1 for 0, that is 2|w| + (w <= 0). Modulo 2^16 like the table's.
    using Lanes = std::int16_t __attribute__((vector_size(16)));
    constexpr std::size_t kLanes = sizeof(Lanes) / sizeof(std::int16_t);
    const Lanes offset = Lanes{} + static_cast<std::int16_t>(palette.directOffset);
    for (; index + kLanes <= count; index += kLanes) {
      Lanes lanes;
      std::memcpy(&lanes, weights.data() + index, sizeof(lanes));
      const Lanes magnitude = lanes < 0 ? -lanes : lanes;
      const Lanes notPositive = lanes <= 0; // -1 where true
      const Lanes symbol = magnitude + magnitude - notPositive - offset;
      std::memcpy(symbols + index, &symbol, sizeof(symbol));
    }
  }
  for (; index < count; ++index) {
    symbols[index] = static_cast<std::uint16_t>(palette.symbolOf(weights[index]));
  }
}

std::vector<std::size_t> findPaletteSections(std::span<const std::int16_t> weights, SectionSearchMode mode) {
  return SectionSearch(weights, mode).run();
}

SectionPalette choosePalette(std::span<const std::int16_t> section) {
  // Two histograms of 32-bit counts, alternate weights in each: a run of equal weights (zeros, often)
  // then makes two chains of increments of one counter each instead of one twice as long, each
  // waiting for the previous one's store. Sections are at most a stream (under 2^31 weights).
  std::array<std::array<std::uint32_t, kWeightSlots>, 2> partial{};
  const std::size_t pairs = section.size() / 2;
  for (std::size_t pair = 0; pair < pairs; ++pair) {
    ++partial[0][slotOf(section[2 * pair])];
    ++partial[1][slotOf(section[2 * pair + 1])];
  }
  if (section.size() % 2 != 0) {
    ++partial[0][slotOf(section.back())];
  }
  std::array<std::int64_t, kWeightSlots> frequency{};
  for (std::size_t slot = 0; slot < frequency.size(); ++slot) {
    frequency[slot] = std::int64_t{partial[0][slot]} + partial[1][slot];
  }
  SectionPalette palette;
  palette.zeroRuns = useZeroRuns(frequency);

  // Candidate entries keyed by (count, code) so that sorting puts the most frequent first and breaks
  // ties by the larger code (mlw_encode.c: create_palette). The reference sorts all 512 codes; the
  // ones that do not occur sort last and are never taken, so only the others are kept.
  std::array<std::uint64_t, kWeightSlots> candidates{};
  std::size_t candidateCount = 0;
  std::int64_t codedWeights = 0;
  int largestCode = 0;
  int smallestCode = kWeightSlots;
  for (int weight = -255; weight < 256; ++weight) {
    const std::int64_t count = frequency[slotOf(weight)];
    if (count == 0 || (weight == 0 && palette.zeroRuns)) {
      continue;
    }
    const int code = signMagnitudeOf(weight);
    candidates[candidateCount++] = (static_cast<std::uint64_t>(count) << 16U) | static_cast<std::uint64_t>(code);
    codedWeights += count;
    largestCode = std::max(largestCode, code);
    smallestCode = std::min(smallestCode, code);
  }
  const auto countOf = [](std::uint64_t candidate) { return static_cast<std::int64_t>(candidate >> 16U); };

  palette.onlyZeros = candidateCount == 0;
  // Direct codes skip the unused codes around zero (at most 31 of them).
  palette.directOffset = palette.onlyZeros ? 0 : std::min(smallestCode, 31);
  palette.onlyPalette = candidateCount > 0 && candidateCount <= static_cast<std::size_t>(kMaxPaletteSize);

  // Direct symbols must stay below 512 after the palette indices are put in front of them.
  int maxPaletteSize = palette.onlyPalette ? kMaxPaletteSize : std::min(kMaxPaletteSize, 511 - largestCode);
  if (maxPaletteSize == 1) {
    maxPaletteSize = 0;
  }
  const std::size_t paletteCandidates = std::min(candidateCount, static_cast<std::size_t>(maxPaletteSize));
  // The keys are distinct (one per code), so the largest paletteCandidates of them and their order are
  // unique: selecting them first and sorting only those gives what a partial sort gives, without its
  // heap of up to 32 keys that most candidates of a short section passed through.
  const auto first = candidates.begin();
  const auto chosen = first + static_cast<std::ptrdiff_t>(paletteCandidates);
  std::nth_element(first, chosen, first + static_cast<std::ptrdiff_t>(candidateCount), std::greater<>());
  std::sort(first, chosen, std::greater<>());
  std::vector<int> entries;
  entries.reserve(paletteCandidates + 1);
  std::int64_t paletteWeights = 0;
  int largestEntry = 0;
  for (std::size_t index = 0; index < paletteCandidates; ++index) {
    const auto code = static_cast<int>(candidates[index] & 0xffffU);
    entries.push_back(code);
    largestEntry = std::max(largestEntry, code);
    paletteWeights += countOf(candidates[index]);
  }
  if (entries.size() == 1) {
    entries.push_back(0); // the hardware has no one-entry palettes
  }

  // Use the palette only when it covers more than half of the coded weights.
  int widestCode = largestCode;
  if (paletteWeights > codedWeights / 2) {
    palette.entries = std::move(entries);
    widestCode = largestEntry;
  }
  palette.entryBits = 2;
  while ((1 << palette.entryBits) <= widestCode) {
    ++palette.entryBits;
  }
  fillSymbolTable(palette);
  return palette;
}

} // namespace ethosu::weights::detail
