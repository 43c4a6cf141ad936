// SPDX-License-Identifier: Apache-2.0
// Decoder of the Ethos-U compressed weight stream (the format read by Vela's
// ethosu/mlw_codec/mlw_decode.c). Malformed streams raise npu::Error instead of aborting.

#include "ethosu/weights/weight_codec.hpp"

#include "bit_stream.hpp"
#include "stream_format.hpp"

#include "npu/core/diagnostics.hpp"

#include <bit>
#include <string>

namespace ethosu::weights {
namespace {

using namespace detail;

[[noreturn]] void malformed(const std::string& what) {
  npu::throwModelError("malformed compressed weight stream: " + what, {},
                       "the stream was not written by an Ethos-U weight encoder or is damaged");
}

/// Palette state; it survives from slice to slice until a slice defines a new one.
struct PaletteState {
  std::vector<int> entries;
  int entryBits = 2;
  int directOffset = 0;
};

struct SliceHeader {
  bool zeroRuns = false;
  int zeroRunDivisorBits = 0;
  int length = 0;
  int weightDivisorBits = 0;
  bool truncated = false;
  bool uncompressed = false;
  bool newPalette = false;
};

void readPalette(BitReader& reader, PaletteState& palette) {
  palette.directOffset = static_cast<int>(reader.get(5));
  int size = static_cast<int>(reader.get(5));
  if (size > 0) {
    ++size; // PALSIZE holds size - 1; zero means no palette
  }
  palette.entryBits = static_cast<int>(reader.get(3)) + 2;
  palette.entries.clear();
  for (int index = 0; index < size; ++index) {
    palette.entries.push_back(static_cast<int>(reader.get(palette.entryBits)));
  }
}

SliceHeader readSliceHeader(BitReader& reader, std::uint32_t zeroRunField, PaletteState& palette) {
  SliceHeader header;
  if (zeroRunField >= static_cast<std::uint32_t>(kZeroRunGrcParameterCount) && zeroRunField != kZeroRunsDisabled) {
    malformed("zero-run divisor " + std::to_string(zeroRunField) + " is not one of 0..3 or 6");
  }
  header.zeroRuns = zeroRunField != kZeroRunsDisabled;
  header.zeroRunDivisorBits = header.zeroRuns ? static_cast<int>(zeroRunField) : 0;
  header.length = static_cast<int>(reader.get(kSliceLengthBits)) + 1;
  const std::uint32_t weightField = reader.get(3);
  header.truncated = reader.get(1) != 0;
  header.newPalette = reader.get(1) != 0;
  if (header.newPalette) {
    readPalette(reader, palette);
  }
  header.uncompressed = weightField == kUncompressedWeights;
  if (header.uncompressed) {
    // Uncompressed symbols are palette indices when there is a palette, else PALBITS wide.
    int bits = 0;
    while ((1 << bits) < static_cast<int>(palette.entries.size())) {
      ++bits;
    }
    header.weightDivisorBits = palette.entries.empty() ? palette.entryBits : bits;
  } else if (weightField > 5) {
    malformed("weight divisor " + std::to_string(weightField) + " is not one of 0..5 or 7");
  } else {
    header.weightDivisorBits = static_cast<int>(weightField);
  }
  return header;
}

/// Unary decoding of one chunk: completed quotients, and the part of an unfinished one in `carry`.
std::vector<int> weightQuotients(std::uint32_t firstUnary, std::uint32_t secondUnary, int slots, bool truncated,
                                 int& carry) {
  std::vector<int> quotients;
  int count = carry;
  for (int slot = 0; slot < slots; ++slot) {
    int code = 0;
    if ((firstUnary >> static_cast<unsigned>(slot) & 1U) != 0) {
      code = 1 + static_cast<int>(secondUnary & 1U);
      secondUnary >>= 1U;
    }
    count += code;
    if (code < 2 || truncated) {
      quotients.push_back(count);
      count = 0;
    }
  }
  carry = count;
  return quotients;
}

std::vector<int> zeroRunQuotients(std::uint32_t unary, int slots, int& carry) {
  std::vector<int> quotients;
  int count = carry;
  for (int slot = 0; slot < slots; ++slot) {
    if ((unary >> static_cast<unsigned>(slot) & 1U) != 0) {
      ++count;
    } else {
      quotients.push_back(count);
      count = 0;
    }
  }
  carry = count;
  return quotients;
}

/// Collects symbols: quotients come in one chunk, their remainders in the next.
struct SymbolCollector {
  std::vector<int> values;
  std::int64_t announced = 0; ///< quotients seen so far, padding included (drives the interleaving)
  std::vector<int> pendingQuotients;
  int carry = 0;

  explicit SymbolCollector(std::size_t count) { values.reserve(count); }
  void readRemainders(BitReader& reader, const std::vector<int>& quotients, int divisorBits, std::size_t count) {
    for (std::size_t index = 0; index < quotients.size() && values.size() < count; ++index) {
      const auto remainder = static_cast<int>(reader.get(divisorBits));
      values.push_back((quotients[index] << divisorBits) + remainder);
    }
  }
};

void readSliceBody(BitReader& reader, const SliceHeader& header, std::vector<int>& weightSymbols,
                   std::vector<int>& zeroRuns) {
  const auto weightCount = static_cast<std::size_t>(header.length);
  const std::size_t zeroRunCount = weightCount + (header.newPalette ? 1U : 0U);
  const int weightSlots = weightSymbolsPerChunk(header.uncompressed, header.weightDivisorBits);
  const int zeroRunSlots = zeroRunUnaryBits(header.zeroRunDivisorBits);
  SymbolCollector weights(weightCount);
  SymbolCollector runs(zeroRunCount);
  std::optional<std::vector<int>> previousWeights;
  std::optional<std::vector<int>> previousRuns;
  do {
    const std::int64_t balance = header.zeroRuns ? weights.announced - runs.announced : 0;
    const bool weightsEnabled = balance < kMaxChunkImbalance && weights.announced < static_cast<std::int64_t>(weightCount);
    const bool runsEnabled =
        balance >= 0 && header.zeroRuns && runs.announced < static_cast<std::int64_t>(zeroRunCount);
    std::uint32_t firstUnary = 0;
    if (weightsEnabled && !header.uncompressed) {
      firstUnary = reader.get(kWeightUnaryBits);
    }
    std::optional<std::vector<int>> runQuotients;
    if (runsEnabled) {
      runQuotients = zeroRunQuotients(reader.get(zeroRunSlots), zeroRunSlots, runs.carry);
      runs.announced += static_cast<std::int64_t>(runQuotients->size());
    }
    std::optional<std::vector<int>> weightQuotientsOfChunk;
    if (weightsEnabled) {
      const std::uint32_t usedSlots = firstUnary & ((1U << static_cast<unsigned>(weightSlots)) - 1U);
      const std::uint32_t secondUnary = reader.get(std::popcount(usedSlots));
      weightQuotientsOfChunk = weightQuotients(firstUnary, secondUnary, weightSlots, header.truncated, weights.carry);
      weights.announced += static_cast<std::int64_t>(weightQuotientsOfChunk->size());
    }
    if (previousWeights) {
      weights.readRemainders(reader, *previousWeights, header.weightDivisorBits, weightCount);
    }
    if (previousRuns) {
      runs.readRemainders(reader, *previousRuns, header.zeroRunDivisorBits, zeroRunCount);
    }
    previousWeights = std::move(weightQuotientsOfChunk);
    previousRuns = std::move(runQuotients);
  } while (previousWeights || previousRuns);

  if (weights.values.size() != weightCount || (header.zeroRuns && runs.values.size() != zeroRunCount)) {
    malformed("a slice ended before all of its symbols were read");
  }
  weightSymbols = std::move(weights.values);
  zeroRuns = std::move(runs.values);
}

void emitSlice(const SliceHeader& header, const PaletteState& palette, const std::vector<int>& weightSymbols,
               const std::vector<int>& zeroRuns, std::vector<std::int16_t>& out) {
  const auto paletteSize = static_cast<int>(palette.entries.size());
  const std::size_t firstRun = header.newPalette ? 1 : 0;
  if (header.zeroRuns && header.newPalette) {
    out.insert(out.end(), static_cast<std::size_t>(zeroRuns[0]), std::int16_t{0});
  }
  for (std::size_t index = 0; index < weightSymbols.size(); ++index) {
    const int symbol = weightSymbols[index];
    const int code = symbol < paletteSize ? palette.entries[static_cast<std::size_t>(symbol)]
                                          : symbol - paletteSize + palette.directOffset;
    if (code < 0 || code > 511) {
      malformed("weight symbol " + std::to_string(symbol) + " decodes outside the 9-bit range");
    }
    out.push_back(static_cast<std::int16_t>(weightOfSignMagnitude(code)));
    if (header.zeroRuns) {
      out.insert(out.end(), static_cast<std::size_t>(zeroRuns[index + firstRun]), std::int16_t{0});
    }
  }
}

} // namespace

std::vector<std::int16_t> decodeWeightStream(std::span<const std::uint8_t> stream) {
  std::vector<std::int16_t> out;
  BitReader reader(stream);
  PaletteState palette;
  bool sectionStart = true;
  std::optional<bool> zeroRunsOfSection;
  while (!reader.atEnd()) {
    std::uint32_t zeroRunField = reader.get(3);
    // End markers (and the 0xff padding after them, which reads as more end markers) close a stream;
    // another stream may follow on the next byte.
    while (zeroRunField == kEndOfStream) {
      reader.alignToByte();
      sectionStart = true;
      if (reader.atEnd()) {
        return out;
      }
      zeroRunField = reader.get(3);
    }
    const SliceHeader header = readSliceHeader(reader, zeroRunField, palette);
    if (sectionStart && !header.newPalette) {
      malformed("the first slice of a stream does not define a palette");
    }
    if (!header.newPalette && zeroRunsOfSection != header.zeroRuns) {
      malformed("a slice changes the zero-run mode without defining a new palette");
    }
    sectionStart = false;
    zeroRunsOfSection = header.zeroRuns;
    std::vector<int> weightSymbols;
    std::vector<int> zeroRuns;
    readSliceBody(reader, header, weightSymbols, zeroRuns);
    emitSlice(header, palette, weightSymbols, zeroRuns, out);
  }
  if (!sectionStart) {
    malformed("the stream has no end marker");
  }
  return out;
}

} // namespace ethosu::weights
