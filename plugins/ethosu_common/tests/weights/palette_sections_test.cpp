// The palette section search against a plain version of it that evaluates every due window at every
// weight and counts each window's distinct values on its own: the search skips repeated evaluations in
// runs of zeros and shares one scan between windows, and must still cut the same sections.

#include "palette.hpp"
#include "stream_format.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace {

using ethosu::weights::detail::kMaxPaletteSize;

[[nodiscard]] constexpr std::size_t slotOf(int weight) { return static_cast<std::size_t>(weight + 256); }

[[nodiscard]] int paletteIndexBits(std::int64_t size) {
  int bits = 0;
  while (bits < 8 && size > (std::int64_t{1} << bits)) {
    ++bits;
  }
  return bits;
}

[[nodiscard]] bool needsAnotherIndexBit(int entriesBeforeGrowth) {
  return ((entriesBeforeGrowth - 1) & entriesBeforeGrowth) == 0;
}

/// Tracks, while scanning the weights, where the current section started and when each value was last
/// seen; decides where a new palette pays off (mlw_encode.c: search_palette_sections).
class PlainSectionSearch {
public:
  explicit PlainSectionSearch(std::span<const std::int16_t> weights) : weights_(weights) { lastSeen_.fill(-1); }

  std::vector<std::size_t> run() {
    sectionStarts_.assign(1, 0);
    for (std::int64_t position = 0; position < std::ssize(weights_); ++position) {
      visit(position);
    }
    return std::move(sectionStarts_);
  }

private:
  /// Enough of the latest non-zero positions for the largest window (512, doubled, plus two).
  static constexpr std::int64_t kRecentNonZeros = 2048;
  /// Every window is a multiple of the smallest.
  static constexpr std::int64_t kSmallestWindow = 32;

  void visit(std::int64_t position) {
    const int weight = weights_[static_cast<std::size_t>(position)];
    const bool excludeZero = zeroCount_ > (position - sectionStart_) / 4;

    // A value the current palette lacks grows it; growing a long-lived palette past a power of two
    // (or past 32 entries) starts a new section instead.
    if (havePalette_ && lastSeen_[slotOf(weight)] < sectionStart_) {
      ++paletteSize_;
      const bool tooLong = position - sectionStart_ - zeroCount_ > 512;
      const bool tooLarge = paletteSize_ - static_cast<int>(excludeZero) > kMaxPaletteSize;
      if (needsAnotherIndexBit(paletteSize_ - 1 - static_cast<int>(excludeZero)) && (tooLong || tooLarge)) {
        sectionStarts_.push_back(static_cast<std::size_t>(position));
        sectionStart_ = position;
        havePalette_ = false;
        zeroCount_ = 0;
      }
    }

    lastSeen_[slotOf(weight)] = position;
    if (weight == 0) {
      ++zeroCount_;
    } else {
      recentNonZeros_[static_cast<std::size_t>(nonZeroCount_ % kRecentNonZeros)] = position;
      ++nonZeroCount_;
    }

    const std::int64_t nonZeros = position - sectionStart_ - zeroCount_;
    if (nonZeros <= 0 || nonZeros % kSmallestWindow != 0) {
      return; // no window is due, and nothing changes that could make a later one due
    }
    for (const int window : {32, 64, 128, 256, 512}) {
      considerNewPalette(position, window * (havePalette_ ? 2 : 1), excludeZero);
    }
  }

  /// Every `window` non-zero weights, estimates whether a palette covering the last `window` of them
  /// saves bits compared with the current coding.
  void considerNewPalette(std::int64_t position, std::int64_t window, bool excludeZero) {
    const std::int64_t nonZeros = position - sectionStart_ - zeroCount_;
    if (nonZeros <= 0 || nonZeros % window != 0) {
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
  [[nodiscard]] std::int64_t distinctValuesFrom(std::int64_t first, std::int64_t last) const {
    std::int64_t distinct = 0;
    for (std::int64_t position = first; position <= last; ++position) {
      distinct += lastSeen_[slotOf(weights_[static_cast<std::size_t>(position)])] == position ? 1 : 0;
    }
    return distinct;
  }

  std::span<const std::int16_t> weights_;
  std::array<std::int64_t, 512> lastSeen_{};
  std::array<std::int64_t, kRecentNonZeros> recentNonZeros_; // only entries written are read: no fill
  std::int64_t nonZeroCount_ = 0;
  std::vector<std::size_t> sectionStarts_;
  std::int64_t sectionStart_ = 0;
  std::int64_t zeroCount_ = 0;
  int paletteSize_ = 0;
  bool havePalette_ = false;
};

std::vector<std::int16_t> sparseWeights(std::mt19937& random, std::size_t count, double zeroShare, int spread,
                                        std::size_t zeroRun) {
  std::normal_distribution<double> normal(0.0, spread);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::int16_t> weights;
  while (weights.size() < count) {
    if (zeroRun > 0 && uniform(random) < 0.01) {
      weights.insert(weights.end(), zeroRun, 0); // padding-like runs of zeros
      continue;
    }
    const int value = uniform(random) < zeroShare ? 0 : std::clamp(static_cast<int>(normal(random)), -255, 255);
    weights.push_back(static_cast<std::int16_t>(value));
  }
  weights.resize(count);
  return weights;
}

} // namespace

BOOST_AUTO_TEST_CASE(palette_sections_equal_the_plain_search_on_dense_sparse_and_zero_padded_weights) {
  std::mt19937 random(11);
  int withSeveralSections = 0;
  int trials = 0;
  for (const double zeroShare : {0.0, 0.3, 0.8, 0.97}) {
    for (const int spread : {1, 3, 12, 60}) {
      for (const std::size_t zeroRun : {std::size_t{0}, std::size_t{40}, std::size_t{700}}) {
        const auto weights = sparseWeights(random, 2000 + random() % 20000, zeroShare, spread, zeroRun);
        const std::vector<std::size_t> expected = PlainSectionSearch(weights).run();
        BOOST_TEST_CONTEXT("zeros " << zeroShare << ", spread " << spread << ", zero runs " << zeroRun) {
          BOOST_TEST(ethosu::weights::detail::findPaletteSections(weights) == expected,
                     boost::test_tools::per_element());
        }
        withSeveralSections += expected.size() > 1 ? 1 : 0;
        ++trials;
      }
    }
  }
  BOOST_TEST(withSeveralSections > trials / 4); // the inputs must make the search cut sections
}
