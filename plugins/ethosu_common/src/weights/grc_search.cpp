#include "grc_search.hpp"

#include "stream_format.hpp"

#include <algorithm>
#include <cstring>
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

// The search keeps the 16 lanes in two GCC/Clang vectors of 8: SIMD registers on every target (SSE2
// on x86-64, NEON on AArch64), plain lane loops where there are none.
using HalfLanes = std::int16_t __attribute__((vector_size(16)));
using NarrowHalf = std::int8_t __attribute__((vector_size(8)));

struct LaneVector {
  HalfLanes low;
  HalfLanes high;
};

[[nodiscard]] inline LaneVector load(const WeightLanes& lanes) {
  LaneVector vector;
  std::memcpy(&vector.low, lanes.data(), sizeof(vector.low));
  std::memcpy(&vector.high, lanes.data() + kLanes / 2, sizeof(vector.high));
  return vector;
}
[[nodiscard]] inline LaneVector splat(std::int16_t value) { return {HalfLanes{} + value, HalfLanes{} + value}; }
[[nodiscard]] inline HalfLanes lanewiseMin(HalfLanes a, HalfLanes b) { return a < b ? a : b; }
[[nodiscard]] inline LaneVector lanewiseMin(const LaneVector& a, const LaneVector& b) {
  return {lanewiseMin(a.low, b.low), lanewiseMin(a.high, b.high)};
}
[[nodiscard]] inline LaneVector operator+(const LaneVector& a, const LaneVector& b) {
  return {a.low + b.low, a.high + b.high};
}
[[nodiscard]] inline LaneVector operator-(const LaneVector& a, HalfLanes b) { return {a.low - b, a.high - b}; }
/// Every lane of the result holds the smallest of the 16 lanes (a butterfly of pairwise minimums).
[[nodiscard]] inline HalfLanes broadcastMinimum(const LaneVector& v) {
  HalfLanes m = lanewiseMin(v.low, v.high);
  m = lanewiseMin(m, __builtin_shufflevector(m, m, 4, 5, 6, 7, 0, 1, 2, 3));
  m = lanewiseMin(m, __builtin_shufflevector(m, m, 2, 3, 0, 1, 6, 7, 4, 5));
  return lanewiseMin(m, __builtin_shufflevector(m, m, 1, 0, 3, 2, 5, 4, 7, 6));
}
/// Stores the lanes as bytes; the recorded costs are capped at 41, so they fit.
inline void storeNarrow(const LaneVector& v, std::array<std::int8_t, kLanes>& out) {
  const NarrowHalf low = __builtin_convertvector(v.low, NarrowHalf);
  const NarrowHalf high = __builtin_convertvector(v.high, NarrowHalf);
  std::memcpy(out.data(), &low, sizeof(low));
  std::memcpy(out.data() + kLanes / 2, &high, sizeof(high));
}

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
  WeightLanes sectionLanes{};
  sectionLanes[kUncompressedParameter] = static_cast<std::int16_t>(uncompressedBits);
  const LaneVector sectionBits = load(sectionLanes);
  const LaneVector changeBits = splat(kParameterChangeBits);
  const LaneVector aboveChange = splat(kParameterChangeBits + 1);

  // relative[p]: bits of the cheapest coding so far that ends with parameter p, minus the cheapest of
  // all. The next symbol only sees min(relative, 40) (`reachable`: a dearer parameter switches to the
  // cheapest one), and the walk back only whether a cost exceeds 40 (`recorded`, capped at 41). The
  // cheapest new cost needs no cap: the 5-bit-divisor parameter codes every symbol in at most 21 bits,
  // so it stays below 40 + 21. The loop-carried chain is a handful of vector operations.
  LaneVector reachable = splat(0);
  LaneVector recorded = splat(0);
  for (std::size_t index = 0; index < count; ++index) {
    const LaneVector bits = load(kWeightSymbolBits[static_cast<std::size_t>(symbols[index])]);
    storeNarrow(recorded, scratch.weightCosts[index]);
    const LaneVector costs = reachable + (bits + sectionBits);
    const LaneVector relative = costs - broadcastMinimum(costs);
    reachable = lanewiseMin(relative, changeBits);
    recorded = lanewiseMin(relative, aboveChange);
  }

  const auto previousOf = [&](std::size_t index, int parameter) {
    const std::array<std::int8_t, kLanes>& before = scratch.weightCosts[index];
    return before[static_cast<std::size_t>(parameter)] > kParameterChangeBits
               ? firstCheapest(before, kWeightParameterCount)
               : parameter;
  };
  WeightLanes final{};
  for (std::size_t lane = 0; lane < kLanes / 2; ++lane) {
    final[lane] = reachable.low[lane];
    final[lane + kLanes / 2] = reachable.high[lane];
  }
  traceBack(count, firstCheapest(final, kWeightParameterCount), previousOf, segments);
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
