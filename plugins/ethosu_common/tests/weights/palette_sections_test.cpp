// SPDX-License-Identifier: Apache-2.0
// The palette section search against its plain mode, which evaluates every due window at every weight
// and counts each window's distinct values on its own: the fast mode skips repeated evaluations in runs
// of zeros and shares one scan between windows, and must still cut the same sections. (That the plain
// decisions are Vela's is checked by the encoded sizes of the reference tests.)

#include "palette.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
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
