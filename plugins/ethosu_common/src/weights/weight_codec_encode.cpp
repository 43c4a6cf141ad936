// SPDX-License-Identifier: Apache-2.0
// Encoder of the Ethos-U compressed weight stream (behaviour of Vela's ethosu/mlw_codec/mlw_encode.c:
// mlw_encode, encode_section, encode_slice). Each palette section is planned first (palette, symbols,
// parameter segments); its slices are then either written or only counted, from the same plan.

#include "ethosu/weights/weight_codec.hpp"

#include "bit_stream.hpp"
#include "chunker.hpp"
#include "codec_workspace.hpp"
#include "grc_search.hpp"
#include "palette.hpp"
#include "stream_format.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/core/shape.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <type_traits>

namespace ethosu::weights {
namespace {

using namespace detail;

struct SliceInput {
  std::span<const WeightSymbol> weightSymbols;
  std::span<const int> zeroRuns; ///< one more than weightSymbols when the slice starts a palette
  const SectionPalette* palette = nullptr;
  bool newPalette = false;
  int uncompressedBits = 0;
  int weightParameter = 0;
  int zeroRunDivisorBits = 0;
};

void writeSliceHeader(BitCursor& writer, const SliceInput& slice, const GrcParameter& weightGrc) {
  const SectionPalette& palette = *slice.palette;
  const auto divisor = static_cast<std::uint32_t>(weightGrc.divisorBits);
  writer.put(3, palette.zeroRuns ? static_cast<std::uint32_t>(slice.zeroRunDivisorBits) : kZeroRunsDisabled);
  writer.put(kSliceLengthBits, static_cast<std::uint32_t>(slice.weightSymbols.size() - 1));
  writer.put(3, weightGrc.uncompressed ? kUncompressedWeights : divisor);
  writer.put(1, weightGrc.truncated ? 1U : 0U);
  writer.put(1, slice.newPalette ? 1U : 0U);
  if (slice.newPalette) {
    writer.put(5, static_cast<std::uint32_t>(palette.directOffset));
    writer.put(5, static_cast<std::uint32_t>(std::max(0, palette.size() - 1)));
    writer.put(3, static_cast<std::uint32_t>(palette.entryBits - 2));
    for (const int entry : palette.entries) {
      writer.put(palette.entryBits, static_cast<std::uint32_t>(entry));
    }
  }
}

/// The remainders of the chunk's symbols: their low `divisorBits` bits (put keeps only those).
template <typename Symbol>
void writeRemainders(BitCursor& writer, const Chunk& chunk, std::span<const Symbol> symbols, int divisorBits) {
  const std::span<const Symbol> completed =
      symbols.subspan(static_cast<std::size_t>(chunk.firstRemainder), static_cast<std::size_t>(chunk.remainderCount));
  for (const Symbol symbol : completed) {
    writer.put(divisorBits, static_cast<std::uint32_t>(symbol));
  }
}

void writeSlice(BitWriter& output, const SliceInput& slice) {
  BitCursor writer(output);
  const SectionPalette& palette = *slice.palette;
  const GrcParameter& weightGrc = kWeightGrcParameters[static_cast<std::size_t>(slice.weightParameter)];
  writeSliceHeader(writer, slice, weightGrc);

  const int weightDivisor = weightGrc.uncompressed ? slice.uncompressedBits : weightGrc.divisorBits;
  const int zeroRunSlots = zeroRunUnaryBits(slice.zeroRunDivisorBits);
  Chunker weights(slice.weightSymbols, weightDivisor, weightGrc.truncated,
                  weightSymbolsPerChunk(weightGrc.uncompressed, weightDivisor), SymbolKind::Weights);
  Chunker zeroRuns(slice.zeroRuns, slice.zeroRunDivisorBits, false, zeroRunSlots, SymbolKind::ZeroRuns);

  // Weight and zero-run chunks alternate, the zero runs kept at most 8 symbols behind; each chunk's
  // remainders follow the next chunk's unary fields. Two chunks of each kind take turns: the current
  // one and the previous one, whose remainders are still to write.
  std::array<Chunk, 2> weightChunks;
  std::array<Chunk, 2> zeroRunChunks;
  std::array<bool, 2> haveWeights{};
  std::array<bool, 2> haveZeroRuns{};
  std::size_t current = 0;
  do {
    const std::size_t previous = current ^ 1U;
    const std::int64_t balance = palette.zeroRuns ? weights.position() - zeroRuns.position() : 0;
    haveWeights[current] = balance < kMaxChunkImbalance && !weights.done();
    if (haveWeights[current]) {
      weights.next(weightChunks[current]);
    }
    haveZeroRuns[current] = balance >= 0 && palette.zeroRuns && !zeroRuns.done();
    if (haveZeroRuns[current]) {
      zeroRuns.next(zeroRunChunks[current]);
    }
    if (haveWeights[current] && !weightGrc.uncompressed) {
      writer.put(kWeightUnaryBits, weightChunks[current].unary);
    }
    if (haveZeroRuns[current]) {
      writer.put(zeroRunSlots, zeroRunChunks[current].unary);
    }
    if (haveWeights[current] && !weightGrc.uncompressed) {
      writer.put(weightChunks[current].secondUnaryBits, weightChunks[current].secondUnary);
    }
    if (haveWeights[previous]) {
      writeRemainders(writer, weightChunks[previous], slice.weightSymbols, weightDivisor);
    }
    if (haveZeroRuns[previous]) {
      writeRemainders(writer, zeroRunChunks[previous], slice.zeroRuns, slice.zeroRunDivisorBits);
    }
    current = previous;
  } while (haveWeights[current ^ 1U] || haveZeroRuns[current ^ 1U]);
}

/// Weight symbols of a section and, in zero-run mode, the run of zeros before each symbol and after the
/// last one. A section of only zeros codes its first zero as a symbol so that the slice is not empty.
void splitSymbols(std::span<const std::int16_t> section, const SectionPalette& palette,
                  LargeVector<WeightSymbol>& symbols, LargeVector<int>& zeroRuns) {
  symbols.clear();
  zeroRuns.clear();
  std::size_t position = 0;
  if (!palette.zeroRuns) {
    symbols.resize(section.size());
    static_assert(std::is_same_v<WeightSymbol, std::uint16_t>);
    symbolsOf(section, palette, symbols.data());
    return;
  }
  while (true) {
    int run = 0;
    if (!palette.onlyZeros || position > 0) {
      while (position < section.size() && section[position] == 0) {
        ++run;
        ++position;
      }
    }
    zeroRuns.push_back(run);
    if (position == section.size()) {
      break;
    }
    symbols.push_back(static_cast<WeightSymbol>(palette.symbolOf(section[position])));
    ++position;
  }
}

constexpr int kUncompressedParameter = static_cast<int>(kWeightGrcParameters.size()) - 1;
/// Palette indices or direct codes of at most 9 bits (SectionPalette::uncompressedSymbolBits).
constexpr int kMaxUncompressedBits = 9;

/// The decisions for one palette section; symbols and segments are in the workspace.
struct SectionPlan {
  SectionPalette palette;
  int uncompressedBits = 0;
};

void planSection(std::span<const std::int16_t> section, CodecWorkspace& workspace, SectionPlan& plan) {
  plan.palette = choosePalette(section);
  plan.uncompressedBits = plan.palette.uncompressedSymbolBits();
  splitSymbols(section, plan.palette, workspace.symbols, workspace.zeroRuns);
  searchWeightParameters(workspace.symbols, plan.uncompressedBits, workspace.search, workspace.weightSegments);
  workspace.zeroRunSegments.clear();
  if (plan.palette.zeroRuns) {
    searchZeroRunParameters(workspace.zeroRuns, workspace.weightSegments, workspace.search, workspace.zeroRunSegments);
  }
}

/// Calls `visit(SliceInput)` for each slice of a planned section, in stream order. A slice ends where
/// either parameter choice changes, or after 32767 weights.
template <typename Visit>
void forEachSlice(const SectionPlan& plan, const CodecWorkspace& workspace, Visit&& visit) {
  const LargeVector<WeightSymbol>& symbols = workspace.symbols;
  const std::vector<GrcSegment>& weightSegments = workspace.weightSegments;
  const std::vector<GrcSegment>& zeroRunSegments = workspace.zeroRunSegments;
  const auto symbolCount = static_cast<std::int64_t>(symbols.size());
  std::size_t weightSegment = 0;
  std::size_t zeroRunSegment = 0;
  std::int64_t position = 0;
  bool newPalette = true;
  while (position < symbolCount || newPalette) {
    std::int64_t end = position + kMaxSliceLength;
    if (weightSegment < weightSegments.size()) {
      end = std::min(end, weightSegments[weightSegment].end);
    }
    if (zeroRunSegment < zeroRunSegments.size()) {
      end = std::min(end, zeroRunSegments[zeroRunSegment].end);
    }
    end = std::min(end, symbolCount);

    SliceInput slice;
    slice.weightSymbols = std::span<const WeightSymbol>(symbols).subspan(static_cast<std::size_t>(position),
                                                                         static_cast<std::size_t>(end - position));
    if (plan.palette.zeroRuns) {
      // The first slice also codes the zeros in front of its first weight.
      const auto first = static_cast<std::size_t>(position + (newPalette ? 0 : 1));
      slice.zeroRuns =
          std::span<const int>(workspace.zeroRuns).subspan(first, slice.weightSymbols.size() + (newPalette ? 1 : 0));
      slice.zeroRunDivisorBits = zeroRunSegments[zeroRunSegment].parameter;
    }
    slice.palette = &plan.palette;
    slice.newPalette = newPalette;
    slice.uncompressedBits = plan.uncompressedBits;
    slice.weightParameter = weightSegments[weightSegment].parameter;
    npu::require(slice.weightParameter != kUncompressedParameter || plan.uncompressedBits <= kMaxUncompressedBits,
                 "the parameter search picks uncompressed weights only where the section allows them");
    visit(slice);
    newPalette = false;

    if (weightSegment < weightSegments.size() && weightSegments[weightSegment].end == end) {
      ++weightSegment;
    }
    if (zeroRunSegment < zeroRunSegments.size() && zeroRunSegments[zeroRunSegment].end == end) {
      ++zeroRunSegment;
    }
    position = end;
  }
}

/// Unary slots and second unary bits of symbols whose quotients fill `QuotientPerSlot` per slot
/// (chunker.hpp): a quotient q takes q / step + 1 slots, of which ceil(q / step) are non-zero.
/// Unsigned 32-bit sums (symbols are 0..511, a slice at most 32767 of them), so that the loop vectorises.
template <unsigned QuotientPerSlot>
void countWeightSlots(std::span<const WeightSymbol> symbols, int divisorBits, std::int64_t& slots,
                      std::int64_t& secondUnaryBits) {
  const auto shift = static_cast<unsigned>(divisorBits);
  std::uint32_t slotSum = 0;
  std::uint32_t secondUnarySum = 0;
  for (const WeightSymbol symbol : symbols) {
    const std::uint32_t quotient = static_cast<std::uint32_t>(symbol) >> shift;
    slotSum += quotient / QuotientPerSlot;
    secondUnarySum += (quotient + QuotientPerSlot - 1) / QuotientPerSlot;
  }
  slots += static_cast<std::int64_t>(slotSum) + std::ssize(symbols);
  secondUnaryBits += secondUnarySum;
}

/// The bits writeSlice writes for `slice`: every chunk's unary fields and every symbol's remainder.
std::int64_t sliceBits(const SliceInput& slice) {
  const SectionPalette& palette = *slice.palette;
  const GrcParameter& weightGrc = kWeightGrcParameters[static_cast<std::size_t>(slice.weightParameter)];
  std::int64_t bits = 3 + kSliceLengthBits + 3 + 1 + 1;
  if (slice.newPalette) {
    bits += 5 + 5 + 3 + std::int64_t{palette.size()} * palette.entryBits;
  }

  const auto weightCount = static_cast<std::int64_t>(slice.weightSymbols.size());
  const int weightDivisor = weightGrc.uncompressed ? slice.uncompressedBits : weightGrc.divisorBits;
  if (weightCount > 0) {
    if (!weightGrc.uncompressed) { // uncompressed symbols have no unary fields
      std::int64_t slots = 0;
      std::int64_t secondUnaryBits = 0;
      if (weightGrc.truncated) {
        countWeightSlots<3>(slice.weightSymbols, weightDivisor, slots, secondUnaryBits);
      } else {
        countWeightSlots<2>(slice.weightSymbols, weightDivisor, slots, secondUnaryBits);
      }
      const int slotsPerChunk = weightSymbolsPerChunk(weightGrc.uncompressed, weightDivisor);
      bits += npu::divRoundUp(slots, std::int64_t{slotsPerChunk}) * kWeightUnaryBits + secondUnaryBits;
    }
    bits += weightCount * weightDivisor;
  }

  const auto runCount = static_cast<std::int64_t>(slice.zeroRuns.size());
  if (palette.zeroRuns && runCount > 0) {
    std::uint64_t quotients = 0; // unsigned, so that the loop vectorises
    const auto shift = static_cast<unsigned>(slice.zeroRunDivisorBits);
    for (const int run : slice.zeroRuns) {
      quotients += static_cast<std::uint32_t>(run) >> shift;
    }
    const std::int64_t slots = runCount + static_cast<std::int64_t>(quotients);
    const int slotsPerChunk = zeroRunUnaryBits(slice.zeroRunDivisorBits);
    bits += npu::divRoundUp(slots, std::int64_t{slotsPerChunk}) * slotsPerChunk + runCount * slice.zeroRunDivisorBits;
  }
  return bits;
}

/// Whether every weight is in the encodable range: a running minimum and maximum of eight lanes (GCC 12
/// vectorises neither a search that stops early nor, at -O2, a plain minimum loop).
bool inRange(std::span<const std::int16_t> weights) {
  using Lanes = std::int16_t __attribute__((vector_size(16)));
  constexpr std::size_t kLanes = 8;
  Lanes smallest{};
  Lanes largest{};
  std::size_t index = 0;
  for (; index + kLanes <= weights.size(); index += kLanes) {
    Lanes lanes;
    std::memcpy(&lanes, weights.data() + index, sizeof(lanes));
    smallest = lanes < smallest ? lanes : smallest;
    largest = lanes > largest ? lanes : largest;
  }
  bool inside = true;
  for (std::size_t lane = 0; lane < kLanes; ++lane) {
    inside = inside && smallest[lane] >= kMinWeight && largest[lane] <= kMaxWeight;
  }
  for (; index < weights.size(); ++index) {
    inside = inside && weights[index] >= kMinWeight && weights[index] <= kMaxWeight;
  }
  return inside;
}

void checkRange(std::span<const std::int16_t> weights) {
  if (inRange(weights)) {
    return;
  }
  const auto outside = std::find_if(weights.begin(), weights.end(),
                                    [](std::int16_t weight) { return weight < kMinWeight || weight > kMaxWeight; });
  if (outside != weights.end()) {
    npu::throwCompileError("weight " + std::to_string(*outside) + " at position " +
                               std::to_string(outside - weights.begin()) + " is outside the encodable range -255..255",
                           {}, "Ethos-U weights must be 8-bit values after zero-point correction");
  }
}

/// Calls `visit(SliceInput)` for every slice of the stream of `weights`, section by section; records
/// the decisions in `record` when given.
template <typename Visit>
void forEachPlannedSlice(std::span<const std::int16_t> weights, CodecWorkspace& workspace, Visit&& visit,
                         StreamPlan* record = nullptr) {
  const std::vector<std::size_t> starts = findPaletteSections(weights);
  SectionPlan plan;
  for (std::size_t index = 0; index < starts.size(); ++index) {
    const std::size_t end = index + 1 < starts.size() ? starts[index + 1] : weights.size();
    planSection(weights.subspan(starts[index], end - starts[index]), workspace, plan);
    if (record != nullptr) {
      record->sections.push_back({starts[index], workspace.weightSegments, workspace.zeroRunSegments});
    }
    forEachSlice(plan, workspace, visit);
  }
}

/// forEachPlannedSlice with the decisions of `recorded` instead of a search.
template <typename Visit>
void forEachReplayedSlice(std::span<const std::int16_t> weights, const StreamPlan& recorded, CodecWorkspace& workspace,
                          Visit&& visit) {
  SectionPlan plan;
  for (std::size_t index = 0; index < recorded.sections.size(); ++index) {
    const StreamPlan::Section& section = recorded.sections[index];
    const std::size_t end = index + 1 < recorded.sections.size() ? recorded.sections[index + 1].start : weights.size();
    const std::span<const std::int16_t> values = weights.subspan(section.start, end - section.start);
    plan.palette = choosePalette(values);
    plan.uncompressedBits = plan.palette.uncompressedSymbolBits();
    splitSymbols(values, plan.palette, workspace.symbols, workspace.zeroRuns);
    workspace.weightSegments = section.weightSegments;
    workspace.zeroRunSegments = section.zeroRunSegments;
    forEachSlice(plan, workspace, visit);
  }
}

/// Writes every slice `slices(visit)` visits, then the end of the stream.
template <typename Slices>
void writeStream(std::vector<std::uint8_t>& stream, Slices&& slices) {
  BitWriter writer(stream);
  slices([&](const SliceInput& slice) { writeSlice(writer, slice); });
  // End marker, then ones up to the next byte and 0xff bytes up to the next 16 bytes.
  writer.put(3, kEndOfStream);
  writer.put(static_cast<int>((8 - (writer.bitPosition() & 7U)) & 7U), 0xffU);
  while ((writer.bitPosition() % kStreamAlignmentBits) != 0) {
    writer.put(8, 0xffU);
  }
}

/// The bytes of the stream whose slices `slices(visit)` visits.
template <typename Slices>
std::int64_t streamBytes(Slices&& slices) {
  std::int64_t bits = 0;
  slices([&](const SliceInput& slice) { bits += sliceBits(slice); });
  const std::int64_t endMarkerBits = 3;
  return npu::roundUp(bits + endMarkerBits, std::int64_t{kStreamAlignmentBits}) / 8;
}

} // namespace

namespace detail {

void appendWeightStream(std::span<const std::int16_t> weights, CodecWorkspace& workspace,
                        std::vector<std::uint8_t>& stream) {
  checkRange(weights);
  if (weights.empty()) {
    return;
  }
  writeStream(stream, [&](auto&& visit) { forEachPlannedSlice(weights, workspace, visit); });
}

std::int64_t weightStreamSize(std::span<const std::int16_t> weights, CodecWorkspace& workspace) {
  checkRange(weights);
  if (weights.empty()) {
    return 0;
  }
  return streamBytes([&](auto&& visit) { forEachPlannedSlice(weights, workspace, visit); });
}

StreamPlan planWeightStream(std::span<const std::int16_t> weights, CodecWorkspace& workspace) {
  checkRange(weights);
  StreamPlan plan;
  if (!weights.empty()) {
    plan.bytes = streamBytes([&](auto&& visit) { forEachPlannedSlice(weights, workspace, visit, &plan); });
  }
  return plan;
}

void appendPlannedWeightStream(std::span<const std::int16_t> weights, const StreamPlan& plan, CodecWorkspace& workspace,
                               std::vector<std::uint8_t>& stream) {
  if (weights.empty()) {
    return;
  }
  writeStream(stream, [&](auto&& visit) { forEachReplayedSlice(weights, plan, workspace, visit); });
}

std::size_t StreamPlan::memoryBytes() const {
  std::size_t memory = sizeof(StreamPlan);
  for (const Section& section : sections) {
    memory += sizeof(Section) + (section.weightSegments.size() + section.zeroRunSegments.size()) * sizeof(GrcSegment);
  }
  return memory;
}

} // namespace detail

std::vector<std::uint8_t> encodeWeightStream(std::span<const std::int16_t> weights) {
  CodecWorkspace workspace;
  std::vector<std::uint8_t> stream;
  appendWeightStream(weights, workspace, stream);
  return stream;
}

std::int64_t encodedWeightStreamSize(std::span<const std::int16_t> weights) {
  CodecWorkspace workspace;
  return weightStreamSize(weights, workspace);
}

} // namespace ethosu::weights
