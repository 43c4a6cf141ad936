#include "grc_search.hpp"

#include "stream_format.hpp"

#include <algorithm>
#include <limits>

namespace ethosu::weights::detail {
namespace {

constexpr std::int16_t kParameterChangeBits = 40;
/// Cost of a symbol a parameter set cannot code (its quotient is too large).
constexpr std::int16_t kImpossibleBits = 10000;
/// Relative costs are capped here (see the header): above every change cost, and above the cheapest
/// cost a symbol can add to the cheapest parameter (40 + 21 bits), so the cheapest stays exact.
constexpr std::int16_t kRelativeCostCap = 127;

constexpr int kWeightParameterCount = static_cast<int>(kWeightGrcParameters.size());
constexpr int kUncompressedParameter = kWeightParameterCount - 1;
constexpr int kLanes = 16; // weight parameters, padded with parameters that are never cheapest
constexpr int kLaneBits = 4;
using WeightLanes = std::array<std::int16_t, kLanes>;
static_assert(kWeightParameterCount <= kLanes);

/// Coded bits of one weight symbol; the uncompressed parameter is priced per section instead.
constexpr std::int16_t weightSymbolBits(int symbol, const GrcParameter& grc) {
  if (grc.uncompressed) {
    return 0;
  }
  const int quotient = symbol >> grc.divisorBits;
  if (quotient > 31 || (grc.truncated && quotient > 2)) {
    return kImpossibleBits;
  }
  return static_cast<std::int16_t>((grc.truncated ? std::min(quotient + 1, 2) : quotient + 1) + grc.divisorBits);
}

/// Bits of every weight symbol (0..511) under every parameter, one row of lanes per symbol.
constexpr std::array<WeightLanes, 512> kWeightSymbolBits = [] {
  std::array<WeightLanes, 512> table{};
  for (int symbol = 0; symbol < 512; ++symbol) {
    for (int lane = 0; lane < kLanes; ++lane) {
      table[static_cast<std::size_t>(symbol)][static_cast<std::size_t>(lane)] =
          lane < kWeightParameterCount ? weightSymbolBits(symbol, kWeightGrcParameters[static_cast<std::size_t>(lane)])
                                       : kImpossibleBits;
    }
  }
  return table;
}();

constexpr WeightLanes kLaneIndex{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/// The first parameter whose relative cost is 0 (the cheapest, lowest index among equals).
template <typename Costs>
[[nodiscard]] int firstCheapest(const Costs& relative, int parameterCount) {
  for (int parameter = 0; parameter < parameterCount; ++parameter) {
    if (relative[static_cast<std::size_t>(parameter)] == 0) {
      return parameter;
    }
  }
  return 0;
}

/// Walks back from `finalParameter`; every change (and the start) closes a segment. `previousOf(index,
/// parameter)` is the parameter used before symbol `index` when that symbol is coded with `parameter`.
template <typename PreviousOf>
void traceBack(std::size_t count, int finalParameter, PreviousOf previousOf, std::vector<GrcSegment>& segments) {
  segments.clear();
  int parameter = finalParameter;
  auto end = static_cast<std::int64_t>(count);
  for (auto index = static_cast<std::int64_t>(count); index >= 0; --index) {
    const int previous = index == 0 ? parameter : previousOf(static_cast<std::size_t>(index - 1), parameter);
    if (previous != parameter || index == 0) {
      segments.push_back({parameter, end});
      parameter = previous;
      end = index - 1;
    }
  }
  std::reverse(segments.begin(), segments.end());
}

} // namespace

void searchWeightParameters(std::span<const int> symbols, int uncompressedBits, GrcSearchScratch& scratch,
                            std::vector<GrcSegment>& segments) {
  const std::size_t count = symbols.size();
  if (scratch.weightCosts.size() < count) {
    scratch.weightCosts.resize(count);
  }
  WeightLanes sectionBits{};
  sectionBits[kUncompressedParameter] = static_cast<std::int16_t>(uncompressedBits);

  // relative[p]: bits of the cheapest coding so far that ends with parameter p, minus the cheapest of
  // all, capped. Written as plain lane loops so that the compiler keeps them in vector registers.
  WeightLanes relative{};
  for (std::size_t index = 0; index < count; ++index) {
    const WeightLanes& bits = kWeightSymbolBits[static_cast<std::size_t>(symbols[index])];
    std::array<std::int8_t, kLanes>& before = scratch.weightCosts[index];
    WeightLanes rankKey{};
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      before[lane] = static_cast<std::int8_t>(relative[lane]);
      // Switching from the cheapest parameter costs a change; it is taken only when strictly cheaper.
      relative[lane] =
          static_cast<std::int16_t>(std::min(relative[lane], kParameterChangeBits) + bits[lane] + sectionBits[lane]);
      rankKey[lane] =
          static_cast<std::int16_t>((std::min(relative[lane], kRelativeCostCap) << kLaneBits) | kLaneIndex[lane]);
    }
    // The smallest key holds the cheapest cost and, among equal costs, the lowest parameter.
    for (std::size_t lane = 0; lane < kLanes / 2; ++lane) {
      rankKey[lane] = std::min(rankKey[lane], rankKey[lane + kLanes / 2]);
    }
    for (std::size_t lane = 0; lane < kLanes / 4; ++lane) {
      rankKey[lane] = std::min(rankKey[lane], rankKey[lane + kLanes / 4]);
    }
    const auto cheapest = static_cast<std::int16_t>(
        std::min(std::min(rankKey[0], rankKey[1]), std::min(rankKey[2], rankKey[3])) >> kLaneBits);
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      relative[lane] = std::min(static_cast<std::int16_t>(relative[lane] - cheapest), kRelativeCostCap);
    }
  }

  const auto previousOf = [&](std::size_t index, int parameter) {
    const std::array<std::int8_t, kLanes>& before = scratch.weightCosts[index];
    return before[static_cast<std::size_t>(parameter)] > kParameterChangeBits
               ? firstCheapest(before, kWeightParameterCount)
               : parameter;
  };
  traceBack(count, firstCheapest(relative, kWeightParameterCount), previousOf, segments);
}

void searchZeroRunParameters(std::span<const int> runs, std::span<const GrcSegment> weightSegments,
                             GrcSearchScratch& scratch, std::vector<GrcSegment>& segments) {
  constexpr int kParameters = kZeroRunGrcParameterCount;
  const std::size_t count = runs.size();
  if (scratch.zeroRunCosts.size() < count) {
    scratch.zeroRunCosts.resize(count);
  }
  std::array<std::int64_t, kParameters> relative{};
  std::size_t nextFreeChange = 0;
  for (std::size_t index = 0; index < count; ++index) {
    std::int64_t changeBits = kParameterChangeBits;
    if (nextFreeChange < weightSegments.size() &&
        weightSegments[nextFreeChange].end == static_cast<std::int64_t>(index + 1)) {
      changeBits = 0;
      ++nextFreeChange;
    }
    // The change cost varies, so record the decision itself: -1 where a parameter switches to the
    // cheapest one here, else its (non-negative) relative cost.
    std::array<std::int8_t, kParameters>& before = scratch.zeroRunCosts[index];
    std::int64_t cheapest = std::numeric_limits<std::int64_t>::max();
    for (std::size_t parameter = 0; parameter < kParameters; ++parameter) {
      before[parameter] =
          relative[parameter] > changeBits ? std::int8_t{-1} : static_cast<std::int8_t>(relative[parameter]);
      const std::int64_t bits = (std::int64_t{runs[index]} >> parameter) + 1 + static_cast<std::int64_t>(parameter);
      relative[parameter] = std::min(relative[parameter], changeBits) + bits;
      cheapest = std::min(cheapest, relative[parameter]);
    }
    for (std::size_t parameter = 0; parameter < kParameters; ++parameter) {
      relative[parameter] = std::min<std::int64_t>(relative[parameter] - cheapest, kRelativeCostCap);
    }
  }

  const auto previousOf = [&](std::size_t index, int parameter) {
    const std::array<std::int8_t, kParameters>& before = scratch.zeroRunCosts[index];
    return before[static_cast<std::size_t>(parameter)] < 0 ? firstCheapest(before, kParameters) : parameter;
  };
  traceBack(count, firstCheapest(relative, kParameters), previousOf, segments);
}

} // namespace ethosu::weights::detail
