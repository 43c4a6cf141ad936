// SPDX-License-Identifier: Apache-2.0
#pragma once

// Cutting a slice's symbols into the chunks of the Ethos-U compressed weight stream (the behaviour of
// Vela's ethosu/mlw_codec/mlw_encode.c, encode_slice). Quotients are sent in unary slots: a weight slot
// holds up to 2 (3 when truncated) of the quotient, a zero-run slot 1. Slot k of a quotient q holds
// q - k * step while that is not negative (q / step + 1 slots); its unary bit says whether that is
// positive and, for weights, a positive slot adds a second unary bit saying whether it is above 1. A
// chunk is a fixed number of slots; a symbol's slots may continue in the next chunk, and its remainder
// goes with the chunk of its last slot. Past the last symbol, a chunk is padded with zero slots.
//
// Seen as bit strings, a chunk's unary field is the next `slots` bits of the concatenated slots of all
// symbols, its second unary field the next (ones in the unary field) bits of the concatenated second
// unary bits, and its remainders those of the symbols whose last slot it holds. The chunker keeps the
// slots of the next symbols in 64-bit words (unary bits, and a mark at each symbol's last slot) and
// cuts a chunk with masks and population counts instead of walking it slot by slot.

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

namespace ethosu::weights::detail {

/// One chunk of a weight or zero-run symbol stream.
struct Chunk {
  std::uint32_t unary = 0;       ///< weights: first unary field (WUNARY0); zero runs: ZUNARY
  std::uint32_t secondUnary = 0; ///< weights only: WUNARY1
  int secondUnaryBits = 0;
  std::int64_t firstRemainder = 0; ///< the symbols whose remainders the chunk carries start here
  int remainderCount = 0;          ///< at most the chunk's slots
};

/// Which of the two symbol streams of a slice a Chunker cuts.
enum class SymbolKind : std::uint8_t { Weights, ZeroRuns };

/// Cuts a sequence of non-negative `Symbol`s (weight symbols or zero-run lengths).
template <typename Symbol>
class Chunker {
public:
  /// `slots` (at most 32) per chunk.
  Chunker(std::span<const Symbol> symbols, int divisorBits, bool truncated, int slots, SymbolKind kind)
      : symbols_(symbols), divisorBits_(static_cast<unsigned>(divisorBits)),
        step_(kind == SymbolKind::ZeroRuns ? 1 : (truncated ? 3 : 2)), slots_(slots) {}

  /// Symbols whose remainders went into the chunks cut so far.
  [[nodiscard]] std::int64_t position() const { return position_; }
  [[nodiscard]] bool done() const { return position_ >= std::ssize(symbols_); }

  /// Cuts the next chunk into `chunk`.
  void next(Chunk& chunk) {
    switch (step_) {
    case 1:
      nextChunk<1>(chunk);
      break;
    case 2:
      nextChunk<2>(chunk);
      break;
    default:
      nextChunk<3>(chunk);
      break;
    }
  }

private:
  /// At most this many slots of one symbol go into the buffer at a time (a longer symbol, such as a
  /// long zero run, is buffered in pieces), so the buffer never holds more than slots_ + 31 < 64.
  static constexpr int kPiece = 32;

  template <unsigned Step>
  void nextChunk(Chunk& chunk) {
    fill<Step>();
    const std::uint64_t mask = lowBits(slots_);
    chunk.unary = static_cast<std::uint32_t>(unary_ & mask);
    chunk.firstRemainder = position_;
    chunk.remainderCount = bitCount(ends_ & mask);
    position_ += chunk.remainderCount;
    if constexpr (Step > 1) {
      const int ones = bitCount(chunk.unary);
      chunk.secondUnary = static_cast<std::uint32_t>(second_ & lowBits(ones));
      chunk.secondUnaryBits = ones;
      second_ >>= static_cast<unsigned>(ones);
      secondBuffered_ -= ones;
    } else {
      chunk.secondUnary = 0;
      chunk.secondUnaryBits = 0;
    }
    unary_ >>= static_cast<unsigned>(slots_);
    ends_ >>= static_cast<unsigned>(slots_);
    buffered_ = std::max(buffered_ - slots_, 0);
  }

  /// Buffers the slots of the next symbols until a chunk's worth is there or no symbol is left.
  template <unsigned Step>
  void fill() {
    const auto count = std::ssize(symbols_);
    while (buffered_ < slots_) {
      if (pendingSlots_ == 0) {
        if (loaded_ >= count) {
          return; // padding: zero slots without remainders
        }
        if (fillWhole<Step>()) {
          continue;
        }
        // The next symbol does not fit: it goes in pieces.
        const std::uint32_t quotient =
            static_cast<std::uint32_t>(symbols_[static_cast<std::size_t>(loaded_++)]) >> divisorBits_;
        pendingSlots_ = quotient / Step + 1;
        pendingOnes_ = (quotient + Step - 1) / Step;
        pendingAboveOne_ = quotient == 0 ? 0 : (quotient - 1 + Step - 1) / Step; // slots holding 2 or more
      }
      fillPiece<Step>();
    }
  }

  /// Buffers whole symbols (of at most kPiece slots) until a chunk's worth is there, no symbol is left
  /// or the next one is longer; false for a longer one. The state is in locals meanwhile: the symbols
  /// are ints, which could alias the members, so these would be stored and reloaded at every symbol.
  template <unsigned Step>
  bool fillWhole() {
    const Symbol* symbols = symbols_.data();
    const auto count = std::ssize(symbols_);
    const unsigned divisorBits = divisorBits_;
    const int slotsPerChunk = slots_;
    std::int64_t loaded = loaded_;
    std::uint64_t unary = unary_;
    std::uint64_t ends = ends_;
    std::uint64_t second = second_;
    int buffered = buffered_;
    int secondBuffered = secondBuffered_;
    bool fits = true;
    while (buffered < slotsPerChunk && loaded < count) {
      const std::uint32_t quotient = static_cast<std::uint32_t>(symbols[loaded]) >> divisorBits;
      const std::uint32_t slots = quotient / Step + 1;
      if (slots > kPiece) {
        fits = false;
        break;
      }
      ++loaded;
      const std::uint32_t ones = (quotient + Step - 1) / Step;
      unary |= lowBits(static_cast<int>(ones)) << static_cast<unsigned>(buffered);
      if constexpr (Step > 1) {
        const std::uint32_t aboveOne = (quotient + Step - 2) / Step; // slots holding 2 or more
        second |= lowBits(static_cast<int>(aboveOne)) << static_cast<unsigned>(secondBuffered);
        secondBuffered += static_cast<int>(ones);
      }
      buffered += static_cast<int>(slots);
      ends |= std::uint64_t{1} << static_cast<unsigned>(buffered - 1);
    }
    loaded_ = loaded;
    unary_ = unary;
    ends_ = ends;
    second_ = second;
    buffered_ = buffered;
    secondBuffered_ = secondBuffered;
    return fits;
  }

  /// Buffers up to kPiece slots of the symbol in pieces.
  template <unsigned Step>
  void fillPiece() {
    const std::uint32_t taken = std::min<std::uint32_t>(pendingSlots_, kPiece);
    const std::uint32_t ones = std::min(pendingOnes_, taken);
    unary_ |= lowBits(static_cast<int>(ones)) << static_cast<unsigned>(buffered_);
    if constexpr (Step > 1) {
      const std::uint32_t aboveOne = std::min(pendingAboveOne_, ones);
      second_ |= lowBits(static_cast<int>(aboveOne)) << static_cast<unsigned>(secondBuffered_);
      secondBuffered_ += static_cast<int>(ones);
      pendingAboveOne_ -= aboveOne;
    }
    pendingOnes_ -= ones;
    pendingSlots_ -= taken;
    buffered_ += static_cast<int>(taken);
    if (pendingSlots_ == 0) {
      ends_ |= std::uint64_t{1} << static_cast<unsigned>(buffered_ - 1);
    }
  }

  /// Set bits of a chunk's field (at most 32 bits): std::popcount is a library call on x86-64
  /// processors without the POPCNT extension (the build's baseline), so fields of up to 12 bits (every
  /// chunk the encoder cuts) are looked up, wider ones counted with shifts and adds.
  [[nodiscard]] static int bitCount(std::uint64_t field) {
    if (field < kSmallFields.size()) {
      return kSmallFields[static_cast<std::size_t>(field)];
    }
    auto value = static_cast<std::uint32_t>(field);
    value -= (value >> 1U) & 0x55555555U;
    value = (value & 0x33333333U) + ((value >> 2U) & 0x33333333U);
    value = (value + (value >> 4U)) & 0x0f0f0f0fU;
    return static_cast<int>((value * 0x01010101U) >> 24U);
  }
  static constexpr std::array<std::uint8_t, 4096> kSmallFields = [] {
    std::array<std::uint8_t, 4096> counts{};
    for (std::size_t value = 1; value < counts.size(); ++value) {
      counts[value] = static_cast<std::uint8_t>(counts[value >> 1U] + (value & 1U));
    }
    return counts;
  }();

  [[nodiscard]] static std::uint64_t lowBits(int count) {
    return (std::uint64_t{1} << static_cast<unsigned>(count)) - 1U;
  }

  std::span<const Symbol> symbols_;
  unsigned divisorBits_;
  int step_; ///< quotient per slot: 1 for zero runs, 2 for weights, 3 for truncated weights
  int slots_;
  std::int64_t position_ = 0; ///< symbols whose last slot went into a chunk
  std::int64_t loaded_ = 0;   ///< symbols whose slots are (at least in part) buffered
  std::uint64_t unary_ = 0;   ///< unary bits of the buffered slots, the next slot lowest
  std::uint64_t ends_ = 0;    ///< marks of the buffered slots that are their symbol's last
  std::uint64_t second_ = 0;  ///< second unary bits of the buffered positive slots
  int buffered_ = 0;
  int secondBuffered_ = 0;         ///< the ones among the buffered unary bits (fewer than 64)
  std::uint32_t pendingSlots_ = 0; ///< slots of the last loaded symbol not yet buffered
  std::uint32_t pendingOnes_ = 0;
  std::uint32_t pendingAboveOne_ = 0;
};

} // namespace ethosu::weights::detail
