// SPDX-License-Identifier: Apache-2.0
#pragma once

// The weight codec's entry points for callers that encode many streams in a row (the weight stream
// layout encodes one per depth slice and core): they pass a workspace whose buffers keep their capacity
// from one stream to the next, instead of allocating them for every stream and section.

#include "grc_search.hpp"
#include "large_buffer.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::weights::detail {

/// Buffers one thread reuses; holds no result between calls.
struct CodecWorkspace {
  LargeVector<WeightSymbol> symbols;
  LargeVector<int> zeroRuns;
  std::vector<GrcSegment> weightSegments;
  std::vector<GrcSegment> zeroRunSegments;
  GrcSearchScratch search;
};

/// The encoder's decisions for one stream: where each palette section starts and the parameter
/// segments of its weights and zero runs. With the weights, they give back the stream without a search
/// (the palettes follow from the sections' weights).
struct StreamPlan {
  struct Section {
    std::size_t start = 0;
    std::vector<GrcSegment> weightSegments;
    std::vector<GrcSegment> zeroRunSegments;
  };
  std::vector<Section> sections;
  std::int64_t bytes = 0; ///< the size of the encoded stream

  /// Memory the plan takes, roughly.
  [[nodiscard]] std::size_t memoryBytes() const;
};

/// weightStreamSize(weights) with the decisions that lead to it.
[[nodiscard]] StreamPlan planWeightStream(std::span<const std::int16_t> weights, CodecWorkspace& workspace);

/// appendWeightStream(weights) from the plan planWeightStream made for the same weights.
void appendPlannedWeightStream(std::span<const std::int16_t> weights, const StreamPlan& plan, CodecWorkspace& workspace,
                               std::vector<std::uint8_t>& stream);

/// encodeWeightStream(weights), appended to `stream`.
void appendWeightStream(std::span<const std::int16_t> weights, CodecWorkspace& workspace,
                        std::vector<std::uint8_t>& stream);

/// The size in bytes of encodeWeightStream(weights), from the same decisions but without writing a bit.
[[nodiscard]] std::int64_t weightStreamSize(std::span<const std::int16_t> weights, CodecWorkspace& workspace);

} // namespace ethosu::weights::detail
