// SPDX-License-Identifier: Apache-2.0
// The palette section search against its plain mode, which evaluates every due window at every weight
// and counts each window's distinct values on its own: the fast mode skips repeated evaluations in runs
// of zeros and shares one scan between windows, and must still cut the same sections. (That the plain
// decisions are Vela's is checked by the encoded sizes of the reference tests.)

#include "palette.hpp"
#include "stream_format.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <vector>

namespace {

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
        const std::vector<std::size_t> expected =
            ethosu::weights::detail::findPaletteSections(weights, ethosu::weights::detail::SectionSearchMode::Plain);
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

BOOST_AUTO_TEST_CASE(a_zero_run_that_tips_the_zero_exclusion_is_evaluated_again) {
  // 513 non-zero weights of 32 values with a few zeros among them: with zero, 33 distinct values are one
  // too many for a palette. In the run of zeros after them the 512-window is due at every weight; part-way
  // through, zero becomes the excluded value and the window pays off: the new palette then splits the
  // section at the first new value after the run.
  std::vector<std::int16_t> weights;
  for (int index = 0; index < 513; ++index) {
    weights.push_back(static_cast<std::int16_t>(1 + index % 32));
    if (index % 50 == 25) {
      weights.push_back(0);
    }
  }
  weights.insert(weights.end(), 300, 0);
  for (int index = 0; index < 600; ++index) {
    weights.push_back(static_cast<std::int16_t>(100 + index % 100));
  }
  using ethosu::weights::detail::SectionSearchMode;
  const std::vector<std::size_t> plain =
      ethosu::weights::detail::findPaletteSections(weights, SectionSearchMode::Plain);
  BOOST_TEST(plain.size() > 1U);
  BOOST_TEST(ethosu::weights::detail::findPaletteSections(weights) == plain, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(palette_windows_across_very_long_runs_of_zeros_equal_the_plain_search) {
  // Windows that span more than the 16,384 positions the fast search counts by bits are scanned.
  std::mt19937 random(5);
  for (const std::size_t zeroRun : {std::size_t{16383}, std::size_t{16384}, std::size_t{40000}}) {
    std::vector<std::int16_t> weights;
    for (int block = 0; block < 4; ++block) {
      for (int index = 0; index < 700; ++index) {
        weights.push_back(static_cast<std::int16_t>(static_cast<int>(random() % (block == 1 ? 9 : 120)) - 60));
      }
      weights.insert(weights.end(), zeroRun, 0);
    }
    using ethosu::weights::detail::SectionSearchMode;
    const auto plain = ethosu::weights::detail::findPaletteSections(weights, SectionSearchMode::Plain);
    BOOST_TEST_CONTEXT("zero runs of " << zeroRun) {
      BOOST_TEST(ethosu::weights::detail::findPaletteSections(weights) == plain, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_sections_symbols_are_its_palettes_symbol_of_each_weight) {
  // symbolsOf against palette.symbolOf weight by weight: sections with and without palette entries,
  // with a direct offset, of only zeros and in zero-run mode; lengths around the eight-weight step;
  // the extremes of the range.
  using ethosu::weights::detail::choosePalette;
  using ethosu::weights::detail::SectionPalette;
  std::mt19937 random(11);
  const auto uniform = [&](int low, int high) {
    return static_cast<std::int16_t>(low + static_cast<int>(random() % static_cast<unsigned>(high - low + 1)));
  };
  std::vector<std::vector<std::int16_t>> sources;
  sources.emplace_back(); // wide: direct coding
  for (int index = 0; index < 3000; ++index) {
    sources.back().push_back(uniform(-255, 255));
  }
  sources.emplace_back(); // narrow: a palette
  for (int index = 0; index < 3000; ++index) {
    sources.back().push_back(uniform(-6, 6));
  }
  sources.emplace_back(); // magnitudes 40 and up: direct codes with an offset
  for (int index = 0; index < 3000; ++index) {
    const std::int16_t magnitude = uniform(40, 255);
    sources.back().push_back(static_cast<std::int16_t>(index % 2 == 0 ? magnitude : -magnitude));
  }
  sources.emplace_back(3000, std::int16_t{0}); // only zeros
  sources.emplace_back();                      // mostly zeros: zero runs
  for (int index = 0; index < 3000; ++index) {
    sources.back().push_back(index % 10 == 0 ? uniform(-200, 200) : std::int16_t{0});
  }
  bool sawDirect = false;
  bool sawPalette = false;
  bool sawOffset = false;
  for (const std::vector<std::int16_t>& source : sources) {
    const SectionPalette palette = choosePalette(source);
    sawDirect = sawDirect || palette.entries.empty();
    sawPalette = sawPalette || !palette.entries.empty();
    sawOffset = sawOffset || palette.directOffset > 0;
    // The palette's weights, then any weight of the range (symbolOf covers -256..255) with the extremes.
    std::vector<std::int16_t> weights = source;
    for (const std::int16_t extreme : {-256, -255, -1, 0, 1, 255}) {
      weights.push_back(extreme);
    }
    for (int index = 0; index < 2000; ++index) {
      weights.push_back(uniform(-256, 255));
    }
    std::shuffle(weights.begin(), weights.end(), random);
    for (const std::size_t length : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{9},
                                     std::size_t{15}, std::size_t{16}, std::size_t{17}, weights.size()}) {
      const std::span<const std::int16_t> part(weights.data(), length);
      std::vector<std::uint16_t> symbols(length + 1, 0xabcdU); // one past the end must stay untouched
      ethosu::weights::detail::symbolsOf(part, palette, symbols.data());
      std::vector<std::uint16_t> expected(length + 1, 0xabcdU);
      for (std::size_t index = 0; index < length; ++index) {
        expected[index] = static_cast<std::uint16_t>(palette.symbolOf(part[index]));
      }
      BOOST_TEST_CONTEXT("palette of " << palette.size() << " entries, offset " << palette.directOffset << ", length "
                                       << length) {
        BOOST_TEST(symbols == expected, boost::test_tools::per_element());
      }
    }
  }
  BOOST_TEST(sawDirect);
  BOOST_TEST(sawPalette);
  BOOST_TEST(sawOffset);
}

BOOST_AUTO_TEST_CASE(palette_index_bits_are_the_fewest_bits_that_index_the_palette_up_to_eight) {
  // Against a plain loop: the smallest bits with size <= 2^bits, capped at 8; sizes of 1 or less take 0.
  const auto reference = [](std::int64_t size) {
    int bits = 0;
    while (bits < 8 && size > (std::int64_t{1} << bits)) {
      ++bits;
    }
    return bits;
  };
  std::vector<std::int64_t> sizes = {-1000, -1,  0,   1,   2,   3,   4,    5,
                                     127,   128, 129, 255, 256, 257, 1000, std::int64_t{1} << 40};
  for (std::int64_t size = -5; size <= 600; ++size) {
    sizes.push_back(size);
  }
  for (const std::int64_t size : sizes) {
    BOOST_TEST_CONTEXT("size " << size) {
      BOOST_TEST(ethosu::weights::detail::paletteIndexBits(size) == reference(size));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_palette_holds_the_most_frequent_codes_larger_code_first_among_equals) {
  // Against a full ordering of (count, code): the entries are the first ones of it, in its order (the
  // selection takes the top keys, then sorts only those). Sections short and long, narrow and wide.
  std::mt19937 random(17);
  int checked = 0;
  for (int round = 0; round < 300; ++round) {
    const std::size_t length = 1 + random() % (round % 3 == 0 ? 40U : 3000U);
    const int spread = 1 + static_cast<int>(random() % 60U);
    std::vector<std::int16_t> section;
    for (std::size_t index = 0; index < length; ++index) {
      section.push_back(
          static_cast<std::int16_t>(static_cast<int>(random() % static_cast<unsigned>(2 * spread + 1)) - spread));
    }
    const ethosu::weights::detail::SectionPalette palette = ethosu::weights::detail::choosePalette(section);
    if (palette.entries.size() < 2 || (palette.entries.size() == 2 && palette.entries[1] == 0)) {
      continue; // no palette, or a one-entry one padded with 0
    }
    std::map<int, std::int64_t> counts; // code -> count
    for (const std::int16_t weight : section) {
      if (weight != 0 || !palette.zeroRuns) {
        ++counts[ethosu::weights::detail::signMagnitudeOf(weight)];
      }
    }
    std::vector<std::pair<std::int64_t, int>> ordered;
    for (const auto& entry : counts) {
      ordered.emplace_back(entry.second, entry.first);
    }
    std::sort(ordered.begin(), ordered.end(), std::greater<>());
    BOOST_TEST_REQUIRE(ordered.size() >= palette.entries.size());
    for (std::size_t index = 0; index < palette.entries.size(); ++index) {
      BOOST_TEST(palette.entries[index] == ordered[index].second);
    }
    ++checked;
  }
  BOOST_TEST(checked > 50);
}
