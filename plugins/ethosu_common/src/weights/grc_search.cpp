#include "grc_search.hpp"

#include "stream_format.hpp"

#include <algorithm>
#include <array>

namespace ethosu::weights::detail {
namespace {

constexpr std::int64_t kParameterChangeBits = 40;
/// Cost of a symbol a parameter set cannot code (its quotient is too large).
constexpr std::int64_t kImpossibleBits = 10000;
constexpr int kMaxParameterCount = static_cast<int>(kWeightGrcParameters.size());

[[nodiscard]] std::int64_t codedBits(int symbol, int parameter, SymbolKind kind, int uncompressedBits) {
  if (kind == SymbolKind::ZeroRuns) {
    return (symbol >> parameter) + 1 + parameter;
  }
  const GrcParameter& grc = kWeightGrcParameters[static_cast<std::size_t>(parameter)];
  if (grc.uncompressed) {
    return uncompressedBits;
  }
  const int quotient = symbol >> grc.divisorBits;
  if (quotient > 31 || (grc.truncated && quotient > 2)) {
    return kImpossibleBits;
  }
  return (grc.truncated ? std::min(quotient + 1, 2) : quotient + 1) + grc.divisorBits;
}

} // namespace

std::vector<GrcSegment> searchGrcParameters(std::span<const int> symbols, SymbolKind kind, int uncompressedBits,
                                            std::span<const std::int64_t> freeChangePositions) {
  const int parameterCount = kind == SymbolKind::ZeroRuns ? kZeroRunGrcParameterCount : kMaxParameterCount;
  const auto columns = static_cast<std::size_t>(parameterCount);
  const std::size_t count = symbols.size();

  // cost[p]: fewest bits to code the symbols so far ending with parameter p; cameFrom[i][p]: the
  // parameter used before symbol i when symbol i is coded with p (== p when unchanged).
  std::array<std::int64_t, kMaxParameterCount> cost{};
  std::array<std::int64_t, kMaxParameterCount> nextCost{};
  std::vector<std::uint8_t> cameFrom((count + 1) * columns);
  for (int parameter = 0; parameter < parameterCount; ++parameter) {
    cameFrom[static_cast<std::size_t>(parameter)] = static_cast<std::uint8_t>(parameter);
  }

  std::size_t nextFreeChange = 0;
  for (std::size_t index = 0; index < count; ++index) {
    const auto cheapest = static_cast<int>(std::min_element(cost.begin(), cost.begin() + parameterCount) - cost.begin());
    std::int64_t changeBits = kParameterChangeBits;
    if (nextFreeChange < freeChangePositions.size() &&
        freeChangePositions[nextFreeChange] == static_cast<std::int64_t>(index + 1)) {
      changeBits = 0;
      ++nextFreeChange;
    }
    for (int parameter = 0; parameter < parameterCount; ++parameter) {
      const std::int64_t bits = codedBits(symbols[index], parameter, kind, uncompressedBits);
      const auto p = static_cast<std::size_t>(parameter);
      std::uint8_t previous = static_cast<std::uint8_t>(parameter);
      if (cost[static_cast<std::size_t>(cheapest)] + changeBits < cost[p]) {
        previous = static_cast<std::uint8_t>(cheapest);
        nextCost[p] = cost[static_cast<std::size_t>(cheapest)] + changeBits + bits;
      } else {
        nextCost[p] = cost[p] + bits;
      }
      cameFrom[(index + 1) * columns + p] = previous;
    }
    cost = nextCost;
  }

  // Walk back from the cheapest final parameter; every change (and the start) closes a segment.
  int parameter = static_cast<int>(std::min_element(cost.begin(), cost.begin() + parameterCount) - cost.begin());
  std::vector<GrcSegment> segments;
  auto end = static_cast<std::int64_t>(count);
  for (std::int64_t index = static_cast<std::int64_t>(count); index >= 0; --index) {
    const int previous = cameFrom[static_cast<std::size_t>(index) * columns + static_cast<std::size_t>(parameter)];
    if (previous != parameter || index == 0) {
      segments.push_back({parameter, end});
      parameter = previous;
      end = index - 1;
    }
  }
  std::reverse(segments.begin(), segments.end());
  return segments;
}

} // namespace ethosu::weights::detail
