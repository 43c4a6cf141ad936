// SPDX-License-Identifier: Apache-2.0
// The weight codec's GRC parameter search against a plain shortest-path search with full costs: the
// vectorised search keeps only capped relative costs, so this pins that it still takes every decision
// (and breaks every tie) the way the reference does.

#include "grc_search.hpp"
#include "stream_format.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

namespace ethosu::weights::detail {
std::ostream& operator<<(std::ostream& out, const GrcSegment& segment) {
  return out << "{parameter " << segment.parameter << " to " << segment.end << "}";
}
} // namespace ethosu::weights::detail

namespace {

using ethosu::weights::detail::GrcSearchScratch;
using ethosu::weights::detail::GrcSegment;
using ethosu::weights::detail::kWeightGrcParameters;
using ethosu::weights::detail::WeightSearchPath;

constexpr std::int64_t kChangeBits = 40;

std::int64_t symbolBits(int symbol, int parameter, int uncompressedBits) {
  const auto& grc = kWeightGrcParameters[static_cast<std::size_t>(parameter)];
  if (grc.uncompressed) {
    return uncompressedBits;
  }
  const int quotient = symbol >> grc.divisorBits;
  if (quotient > 31 || (grc.truncated && quotient > 2)) {
    return 10000;
  }
  return (grc.truncated ? std::min(quotient + 1, 2) : quotient + 1) + grc.divisorBits;
}

/// The search as the reference states it: absolute costs; a parameter switches to the cheapest one
/// (lowest index among equals) only when that is strictly cheaper, and the walk back starts from the
/// cheapest final parameter.
std::vector<GrcSegment> plainSearch(const std::vector<int>& symbols, int uncompressedBits) {
  const int parameters = static_cast<int>(kWeightGrcParameters.size());
  std::vector<std::int64_t> cost(static_cast<std::size_t>(parameters), 0);
  std::vector<std::vector<int>> previous(symbols.size(), std::vector<int>(static_cast<std::size_t>(parameters)));
  const auto cheapest = [&] { return static_cast<int>(std::min_element(cost.begin(), cost.end()) - cost.begin()); };
  for (std::size_t index = 0; index < symbols.size(); ++index) {
    const int best = cheapest();
    const std::int64_t switchCost = cost[static_cast<std::size_t>(best)] + kChangeBits;
    for (int p = 0; p < parameters; ++p) {
      auto& c = cost[static_cast<std::size_t>(p)];
      previous[index][static_cast<std::size_t>(p)] = switchCost < c ? best : p;
      c = std::min(c, switchCost) + symbolBits(symbols[index], p, uncompressedBits);
    }
  }
  std::vector<GrcSegment> segments;
  int parameter = cheapest();
  auto end = static_cast<std::int64_t>(symbols.size());
  for (auto index = static_cast<std::int64_t>(symbols.size()); index >= 0; --index) {
    const int before =
        index == 0 ? parameter : previous[static_cast<std::size_t>(index - 1)][static_cast<std::size_t>(parameter)];
    if (before != parameter || index == 0) {
      segments.push_back({parameter, end});
      parameter = before;
      end = index - 1;
    }
  }
  std::reverse(segments.begin(), segments.end());
  return segments;
}

/// The baseline search, and the AVX2 one where the processor has it.
std::vector<WeightSearchPath> searchPaths() {
  std::vector<WeightSearchPath> paths{WeightSearchPath::Baseline};
  if (ethosu::weights::detail::weightSearchHasAvx2()) {
    paths.push_back(WeightSearchPath::Avx2);
  }
  return paths;
}

/// The symbols as the encoder holds them (0..511 in 16 bits).
std::vector<ethosu::weights::detail::WeightSymbol> narrow(const std::vector<int>& symbols) {
  return {symbols.begin(), symbols.end()};
}

int signMagnitude(int weight) {
  return weight < 0 ? ((-weight) << 1) | 1 : weight << 1;
}

} // namespace

BOOST_AUTO_TEST_CASE(weight_parameter_search_takes_the_plain_searchs_decisions) {
  std::mt19937 random(7);
  GrcSearchScratch scratch;
  std::vector<GrcSegment> segments;
  int compared = 0;
  int withChanges = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // Stretches of different spreads (so that the search changes parameters), occasional outliers,
    // and uniform symbols up to 511 (palette indices and direct codes).
    std::vector<int> symbols(1 + random() % 3000);
    std::size_t stretchEnd = 0;
    std::normal_distribution<double> normal;
    for (std::size_t index = 0; index < symbols.size(); ++index) {
      if (index == stretchEnd) {
        normal = std::normal_distribution<double>(0.0, std::array{0.3, 2.0, 10.0, 60.0}[random() % 4]);
        stretchEnd += 20 + random() % 400;
      }
      int weight = static_cast<int>(normal(random));
      if (trial % 3 == 1 && random() % 7 == 0) {
        weight *= 9;
      }
      weight = std::clamp(weight, -255, 255);
      symbols[index] =
          trial % 3 == 2 ? static_cast<int>(random() % static_cast<unsigned>(trial % 512 + 1)) : signMagnitude(weight);
    }
    const int uncompressedBits = std::array{0, 3, 5, 8, 9, 100}[static_cast<std::size_t>(trial % 6)];
    const std::vector<GrcSegment> expected = plainSearch(symbols, uncompressedBits);
    for (const WeightSearchPath path : searchPaths()) {
      ethosu::weights::detail::searchWeightParameters(narrow(symbols), uncompressedBits, scratch, segments, path);
      BOOST_TEST_CONTEXT("trial " << trial << ", " << symbols.size() << " symbols, path " << static_cast<int>(path)) {
        BOOST_TEST(segments == expected, boost::test_tools::per_element());
      }
    }
    ++compared;
    withChanges += expected.size() > 1 ? 1 : 0;
  }
  // The inputs must exercise parameter changes, or the comparison shows little.
  BOOST_TEST(withChanges > compared / 3);
}

BOOST_AUTO_TEST_CASE(every_weight_search_path_takes_the_plain_searchs_decisions_at_the_edges) {
  GrcSearchScratch scratch;
  std::vector<GrcSegment> segments;
  std::vector<int> ramp; // every symbol, up and down: the dearest costs the lanes hold
  for (int symbol = 0; symbol < 512; ++symbol) {
    ramp.push_back(symbol);
  }
  ramp.insert(ramp.end(), ramp.rbegin(), ramp.rend());
  const std::vector<std::vector<int>> inputs{
      {}, {0}, {511}, std::vector<int>(1000, 511), std::vector<int>(1000, 0), ramp, {0, 511, 0, 511, 0, 511}};
  for (const std::vector<int>& symbols : inputs) {
    for (const int uncompressedBits : {0, 1, 9, 100}) {
      const std::vector<GrcSegment> expected = plainSearch(symbols, uncompressedBits);
      for (const WeightSearchPath path : searchPaths()) {
        ethosu::weights::detail::searchWeightParameters(narrow(symbols), uncompressedBits, scratch, segments, path);
        BOOST_TEST_CONTEXT(symbols.size() << " symbols, uncompressed bits " << uncompressedBits << ", path "
                                          << static_cast<int>(path)) {
          BOOST_TEST(segments == expected, boost::test_tools::per_element());
        }
      }
    }
  }
}
