// SPDX-License-Identifier: Apache-2.0
#include "grc_search.hpp"

#include "stream_format.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace ethosu::weights::detail {
namespace {

constexpr std::int16_t kParameterChangeBits = 40;
/// Cost of a symbol a parameter set cannot code (its quotient is too large).
constexpr std::int16_t kImpossibleBits = 10000;
/// The zero-run search caps relative costs here (see the header): above every change cost, and above
/// the cheapest cost a run can add to the cheapest parameter, so the cheapest stays exact.
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

/// The fewest bits a weight symbol takes under a compressing parameter.
constexpr std::array<std::int16_t, 512> kLeastCompressedBits = [] {
  std::array<std::int16_t, 512> table{};
  for (int symbol = 0; symbol < 512; ++symbol) {
    std::int16_t least = kImpossibleBits;
    for (int parameter = 0; parameter < kUncompressedParameter; ++parameter) {
      least = std::min(least, weightSymbolBits(symbol, kWeightGrcParameters[static_cast<std::size_t>(parameter)]));
    }
    table[static_cast<std::size_t>(symbol)] = least;
  }
  return table;
}();

// The search keeps the 16 lanes in two GCC/Clang vectors of 8: SIMD registers on every target (SSE2
// on x86-64, NEON on AArch64), plain lane loops where there are none.
using HalfLanes = std::int16_t __attribute__((vector_size(16)));

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
[[nodiscard]] inline LaneVector splat(std::int16_t value) {
  return {HalfLanes{} + value, HalfLanes{} + value};
}
[[nodiscard]] inline HalfLanes lanewiseMin(HalfLanes a, HalfLanes b) {
  return a < b ? a : b;
}
[[nodiscard]] inline LaneVector lanewiseMin(const LaneVector& a, const LaneVector& b) {
  return {lanewiseMin(a.low, b.low), lanewiseMin(a.high, b.high)};
}
[[nodiscard]] inline LaneVector operator+(const LaneVector& a, const LaneVector& b) {
  return {a.low + b.low, a.high + b.high};
}
[[nodiscard]] inline LaneVector operator-(const LaneVector& a, HalfLanes b) {
  return {a.low - b, a.high - b};
}
/// Every lane of the result holds the smallest of the 16 lanes (a butterfly of pairwise minimums).
[[nodiscard]] inline HalfLanes broadcastMinimum(const LaneVector& v) {
  HalfLanes m = lanewiseMin(v.low, v.high);
  m = lanewiseMin(m, __builtin_shufflevector(m, m, 4, 5, 6, 7, 0, 1, 2, 3));
  m = lanewiseMin(m, __builtin_shufflevector(m, m, 2, 3, 0, 1, 6, 7, 4, 5));
  return lanewiseMin(m, __builtin_shufflevector(m, m, 1, 0, 3, 2, 5, 4, 7, 6));
}
/// Bit p is set where lane p of a comparison result (all ones or all zeros per lane) is set.
[[nodiscard]] inline std::uint32_t laneMask(const LaneVector& comparison) {
#if defined(__SSE2__)
  const __m128i bytes =
      _mm_packs_epi16(std::bit_cast<__m128i>(comparison.low), std::bit_cast<__m128i>(comparison.high));
  return static_cast<std::uint32_t>(_mm_movemask_epi8(bytes));
#else
  std::uint32_t mask = 0;
  for (int lane = 0; lane < kLanes / 2; ++lane) {
    mask |= (comparison.low[lane] != 0 ? 1U : 0U) << lane;
    mask |= (comparison.high[lane] != 0 ? 1U : 0U) << (lane + kLanes / 2);
  }
  return mask;
#endif
}

/// What the walk back needs of the relative costs before a symbol: which parameters cost more than a
/// change (low 16 bits) and which are the cheapest (high 16 bits).
[[nodiscard]] inline std::uint32_t decisionOf(const LaneVector& relative, const LaneVector& changeBits) {
  const LaneVector zero = splat(0);
  return laneMask({relative.low > changeBits.low, relative.high > changeBits.high}) |
         laneMask({relative.low == zero.low, relative.high == zero.high}) << 16U;
}

/// The first of the cheapest parameters of a decision (the lowest index among equals).
[[nodiscard]] inline int firstCheapestOf(std::uint32_t decision) {
  return std::countr_zero(decision >> 16U);
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

/// The last of decisions[0..end) with a bit of `mask` set, or -1. Parameters change rarely (a change
/// costs a slice header), so this scans eight decisions at a time, where a walk symbol by symbol
/// waited at every symbol for the parameter of the one after it.
[[nodiscard]] std::int64_t lastDecisionWith(const std::uint32_t* decisions, std::int64_t end, std::uint32_t mask) {
  std::int64_t index = end;
#if defined(__SSE2__)
  const __m128i bits = _mm_set1_epi32(static_cast<int>(mask));
  for (; index >= 8; index -= 8) {
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(decisions + index - 8));
    const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(decisions + index - 4));
    const __m128i any = _mm_and_si128(_mm_or_si128(low, high), bits);
    if (_mm_movemask_epi8(_mm_cmpeq_epi32(any, _mm_setzero_si128())) != 0xffff) {
      break; // the last one is among these eight
    }
  }
#endif
  for (--index; index >= 0; --index) {
    if ((decisions[index] & mask) != 0) {
      return index;
    }
  }
  return -1;
}

/// traceBack for the weight search: the parameter before symbol j differs from p exactly where bit p
/// of decision j is set (a dearer parameter switches to the cheapest, whose bit is clear), and then
/// is the decision's first cheapest.
void traceBackWeights(const std::uint32_t* decisions, std::size_t count, int finalParameter,
                      std::vector<GrcSegment>& segments) {
  segments.clear();
  int parameter = finalParameter;
  auto end = static_cast<std::int64_t>(count);
  std::int64_t searchEnd = end;
  while (true) {
    const std::int64_t change = lastDecisionWith(decisions, searchEnd, 1U << static_cast<unsigned>(parameter));
    segments.push_back({parameter, end});
    if (change < 0) {
      break;
    }
    parameter = firstCheapestOf(decisions[change]);
    end = change;
    searchEnd = change;
  }
  std::reverse(segments.begin(), segments.end());
}

/// The forward pass of the weight search with SSE2 (or the lanes of the target without it): fills
/// `decisions` (one per symbol) and returns the decision after the last symbol.
std::uint32_t forwardWeightSearch(std::span<const WeightSymbol> symbols, int uncompressedBits,
                                  std::uint32_t* decisions) {
  const std::size_t count = symbols.size();
  WeightLanes sectionLanes{};
  sectionLanes[kUncompressedParameter] = static_cast<std::int16_t>(uncompressedBits);
  const LaneVector sectionBits = load(sectionLanes);
  const LaneVector changeBits = splat(kParameterChangeBits);

  // relative[p]: bits of the cheapest coding so far that ends with parameter p, minus the cheapest of
  // all. The next symbol only sees min(relative, 40) (a dearer parameter switches to the cheapest one);
  // the walk back only which costs exceed 40 and which are 0 (the decision). The cheapest new cost
  // needs no cap: the 5-bit-divisor parameter codes every symbol in at most 21 bits, so it stays below
  // 40 + 21.
  //
  // `costs` are the costs after a symbol relative to the cheapest before it, `cheapest` their minimum.
  // The minimum of the next costs, min(costs - cheapest, 40) + bits, is min(minimum(costs + bits) -
  // cheapest, 40 + minimum(bits)): minimum(costs + bits) does not wait for `cheapest`, so the
  // loop-carried chain is a subtraction and a minimum per symbol, and the horizontal minimum of one
  // symbol overlaps the next symbol's work.
  const auto bitsOf = [&](std::size_t index) {
    return load(kWeightSymbolBits[static_cast<std::size_t>(symbols[index])]) + sectionBits;
  };
  const auto leastBitsOf = [&](std::size_t index) {
    const int least = std::min<int>(kLeastCompressedBits[static_cast<std::size_t>(symbols[index])], uncompressedBits);
    return HalfLanes{} + static_cast<std::int16_t>(kParameterChangeBits + least);
  };
  std::uint32_t decision = decisionOf(splat(0), changeBits);
  if (count > 0) {
    LaneVector costs = bitsOf(0);
    HalfLanes cheapest = broadcastMinimum(costs);
    decisions[0] = decision;
    for (std::size_t index = 1; index < count; ++index) {
      const LaneVector bits = bitsOf(index);
      const LaneVector relative = costs - cheapest;
      decisions[index] = decisionOf(relative, changeBits);
      const HalfLanes ahead = broadcastMinimum(costs + bits);
      costs = lanewiseMin(relative, changeBits) + bits;
      cheapest = lanewiseMin(ahead - cheapest, leastBitsOf(index));
    }
    decision = decisionOf(costs - cheapest, changeBits);
  }
  return decision;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NPU_WEIGHT_SEARCH_AVX2 1

#define NPU_AVX2 __attribute__((target("avx2")))

/// decisionOf for 16 lanes in one register: the comparison masks packed to bytes, the 64-bit quarters
/// then put in the order [greater 0-7, greater 8-15, equal 0-7, equal 8-15].
NPU_AVX2 inline std::uint32_t decisionOfAvx2(__m256i relative, __m256i changeBits) {
  const __m256i packed = _mm256_packs_epi16(_mm256_cmpgt_epi16(relative, changeBits),
                                            _mm256_cmpeq_epi16(relative, _mm256_setzero_si256()));
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_permute4x64_epi64(packed, 0xd8)));
}

/// Every lane of the result holds the smallest of the 16 lanes of `low` and `high`, all in 0..32767
/// (unsigned minimums are then the signed ones): SSE4.1's PHMINPOSUW and a broadcast, shorter than
/// a butterfly of shuffles on the loop-carried chain.
NPU_AVX2 inline __m128i broadcastMinimumAvx2(__m128i low, __m128i high) {
  return _mm_broadcastw_epi16(_mm_minpos_epu16(_mm_min_epu16(low, high)));
}

/// forwardWeightSearch with AVX2. The costs chain stays in two 8-lane registers (a 16-lane register
/// would put a lane crossing on it); the horizontal minimum is PHMINPOSUW (costs stay below 2^15: at
/// most 40 + 2 x 10000 + 100); the decision is taken on the two halves joined. Same arithmetic, so
/// the same decisions.
NPU_AVX2 std::uint32_t forwardWeightSearchAvx2(std::span<const WeightSymbol> symbols, int uncompressedBits,
                                               std::uint32_t* decisions) {
  const std::size_t count = symbols.size();
  WeightLanes sectionLanes{};
  sectionLanes[kUncompressedParameter] = static_cast<std::int16_t>(uncompressedBits);
  const __m128i sectionLow = _mm_loadu_si128(reinterpret_cast<const __m128i*>(sectionLanes.data()));
  const __m128i sectionHigh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(sectionLanes.data() + kLanes / 2));
  const __m128i change = _mm_set1_epi16(kParameterChangeBits);
  const __m256i changeBits = _mm256_set1_epi16(kParameterChangeBits);
  const auto* table = reinterpret_cast<const __m128i*>(kWeightSymbolBits.data());
  std::uint32_t decision = decisionOfAvx2(_mm256_setzero_si256(), changeBits);
  if (count > 0) {
    const auto first = static_cast<std::size_t>(symbols[0]) * 2;
    __m128i costsLow = _mm_add_epi16(_mm_loadu_si128(table + first), sectionLow);
    __m128i costsHigh = _mm_add_epi16(_mm_loadu_si128(table + first + 1), sectionHigh);
    __m128i cheapest = broadcastMinimumAvx2(costsLow, costsHigh);
    decisions[0] = decision;
    const int changeAndUncompressed = kParameterChangeBits + uncompressedBits;
    for (std::size_t index = 1; index < count; ++index) {
      const auto symbol = static_cast<std::size_t>(symbols[index]);
      const __m128i bitsLow = _mm_add_epi16(_mm_loadu_si128(table + symbol * 2), sectionLow);
      const __m128i bitsHigh = _mm_add_epi16(_mm_loadu_si128(table + symbol * 2 + 1), sectionHigh);
      const __m128i relativeLow = _mm_sub_epi16(costsLow, cheapest);
      const __m128i relativeHigh = _mm_sub_epi16(costsHigh, cheapest);
      decisions[index] = decisionOfAvx2(_mm256_set_m128i(relativeHigh, relativeLow), changeBits);
      const __m128i ahead = broadcastMinimumAvx2(_mm_add_epi16(costsLow, bitsLow), _mm_add_epi16(costsHigh, bitsHigh));
      costsLow = _mm_add_epi16(_mm_min_epi16(relativeLow, change), bitsLow);
      costsHigh = _mm_add_epi16(_mm_min_epi16(relativeHigh, change), bitsHigh);
      const int least = std::min(kParameterChangeBits + kLeastCompressedBits[symbol], changeAndUncompressed);
      cheapest = _mm_min_epi16(_mm_sub_epi16(ahead, cheapest), _mm_set1_epi16(static_cast<std::int16_t>(least)));
    }
    decision = decisionOfAvx2(_mm256_set_m128i(_mm_sub_epi16(costsHigh, cheapest), _mm_sub_epi16(costsLow, cheapest)),
                              changeBits);
  }
  return decision;
}
#undef NPU_AVX2
#endif

} // namespace

bool weightSearchHasAvx2() {
#if defined(NPU_WEIGHT_SEARCH_AVX2)
  static const bool supported = __builtin_cpu_supports("avx2") != 0;
  return supported;
#else
  return false;
#endif
}

void searchWeightParameters(std::span<const WeightSymbol> symbols, int uncompressedBits, GrcSearchScratch& scratch,
                            std::vector<GrcSegment>& segments, WeightSearchPath path) {
  const std::size_t count = symbols.size();
  if (scratch.weightDecisions.size() < count) {
    LargeVector<std::uint32_t>().swap(scratch.weightDecisions); // the old decisions are not needed
    scratch.weightDecisions.resize(count);
  }
  std::uint32_t decision = 0;
#if defined(NPU_WEIGHT_SEARCH_AVX2)
  if (path == WeightSearchPath::Avx2 || (path == WeightSearchPath::Best && weightSearchHasAvx2())) {
    npu::require(weightSearchHasAvx2(), "the AVX2 weight search needs a processor with AVX2");
    decision = forwardWeightSearchAvx2(symbols, uncompressedBits, scratch.weightDecisions.data());
  } else {
    decision = forwardWeightSearch(symbols, uncompressedBits, scratch.weightDecisions.data());
  }
#else
  npu::require(path != WeightSearchPath::Avx2, "the AVX2 weight search needs an x86-64 build");
  decision = forwardWeightSearch(symbols, uncompressedBits, scratch.weightDecisions.data());
#endif

  traceBackWeights(scratch.weightDecisions.data(), count, firstCheapestOf(decision), segments);
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
