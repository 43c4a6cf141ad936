// SPDX-License-Identifier: Apache-2.0
// The chunker (which cuts chunks from 64-bit words of buffered slots) against a straightforward
// reference that walks every chunk slot by slot, on random and edge-case symbol sequences.

#include "chunker.hpp"
#include "grc_search.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using ethosu::weights::detail::Chunk;
using ethosu::weights::detail::Chunker;
using ethosu::weights::detail::SymbolKind;

struct ReferenceChunk {
  std::uint32_t unary = 0;
  std::uint32_t secondUnary = 0;
  int secondUnaryBits = 0;
  std::vector<int> remainders;
};

/// Slot by slot: slot k of quotient q holds q - k * step while that is not negative.
class ReferenceChunker {
public:
  ReferenceChunker(const std::vector<int>& symbols, int divisorBits, int step, int slots)
      : symbols_(symbols), divisorBits_(divisorBits), step_(step), slots_(slots) {}

  [[nodiscard]] bool done() const { return position_ >= symbols_.size(); }
  [[nodiscard]] std::size_t position() const { return position_; }

  ReferenceChunk next() {
    ReferenceChunk chunk;
    for (int slot = 0; slot < slots_; ++slot) {
      if (quotient_ < 0) {
        if (position_ >= symbols_.size()) {
          break;
        }
        quotient_ = symbols_[position_] >> divisorBits_;
      }
      if (quotient_ > 0) {
        chunk.unary |= 1U << static_cast<unsigned>(slot);
        if (step_ > 1) {
          chunk.secondUnary |= (quotient_ > 1 ? 1U : 0U) << static_cast<unsigned>(chunk.secondUnaryBits);
          ++chunk.secondUnaryBits;
        }
      }
      quotient_ -= step_;
      if (quotient_ < 0) {
        chunk.remainders.push_back(symbols_[position_] & ((1 << divisorBits_) - 1));
        ++position_;
      }
    }
    return chunk;
  }

private:
  const std::vector<int>& symbols_;
  int divisorBits_;
  int step_;
  int slots_;
  std::size_t position_ = 0;
  int quotient_ = -1;
};

template <typename Symbol>
void checkSameChunksOf(const std::vector<int>& symbols, int divisorBits, bool truncated, int slots, SymbolKind kind) {
  const int step = kind == SymbolKind::ZeroRuns ? 1 : (truncated ? 3 : 2);
  ReferenceChunker reference(symbols, divisorBits, step, slots);
  const std::vector<Symbol> typed(symbols.begin(), symbols.end());
  Chunker<Symbol> chunker(typed, divisorBits, truncated, slots, kind);
  Chunk chunk;
  int chunks = 0;
  while (!reference.done()) {
    BOOST_TEST_REQUIRE(!chunker.done());
    const ReferenceChunk expected = reference.next();
    chunker.next(chunk);
    BOOST_TEST_INFO("chunk " << chunks << " of " << symbols.size() << " symbols, divisor " << divisorBits << ", step "
                             << step << ", slots " << slots);
    BOOST_TEST_REQUIRE(chunk.unary == expected.unary);
    if (step > 1) {
      BOOST_TEST_REQUIRE(chunk.secondUnaryBits == expected.secondUnaryBits);
      BOOST_TEST_REQUIRE(chunk.secondUnary == expected.secondUnary);
    }
    BOOST_TEST_REQUIRE(chunk.remainderCount == static_cast<int>(expected.remainders.size()));
    for (int index = 0; index < chunk.remainderCount; ++index) {
      const int symbol = symbols[static_cast<std::size_t>(chunk.firstRemainder + index)];
      BOOST_TEST_REQUIRE((symbol & ((1 << divisorBits) - 1)) == expected.remainders[static_cast<std::size_t>(index)]);
    }
    BOOST_TEST_REQUIRE(chunker.position() == static_cast<std::int64_t>(reference.position()));
    ++chunks;
  }
  BOOST_TEST(chunker.done());
}

/// The encoder cuts weight symbols of 16 bits and zero runs of 32; the reference walks ints.
void checkSameChunks(const std::vector<int>& symbols, int divisorBits, bool truncated, int slots, SymbolKind kind) {
  if (kind == SymbolKind::Weights) {
    checkSameChunksOf<ethosu::weights::detail::WeightSymbol>(symbols, divisorBits, truncated, slots, kind);
  } else {
    checkSameChunksOf<int>(symbols, divisorBits, truncated, slots, kind);
  }
}

/// Every kind, divisor and chunk size the encoder uses.
void checkAllParameters(const std::vector<int>& symbols, int largestSymbol) {
  for (int divisor = 0; divisor <= 5; ++divisor) {
    for (const bool truncated : {false, true}) {
      if (!truncated || (largestSymbol >> divisor) <= 2) { // truncation only where quotients fit
        checkSameChunks(symbols, divisor, truncated, 12, SymbolKind::Weights);
      }
    }
  }
  for (int divisor = 6; divisor <= 9; ++divisor) { // uncompressed symbols: 12 per chunk up to 5 bits, then 8
    checkSameChunks(symbols, divisor, false, 8, SymbolKind::Weights);
  }
  for (int divisor = 0; divisor <= 3; ++divisor) {
    checkSameChunks(symbols, divisor, false, divisor < 3 ? 12 : 8, SymbolKind::ZeroRuns);
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(chunker)

BOOST_AUTO_TEST_CASE(random_symbols_give_the_chunks_of_a_slot_by_slot_walk) {
  std::mt19937 random(15);
  for (int round = 0; round < 200; ++round) {
    const auto count = static_cast<std::size_t>(random() % 300);
    const int largest = std::array<int, 5>{1, 7, 40, 511, 2000}[round % 5];
    std::vector<int> symbols(count);
    for (int& symbol : symbols) {
      // Mostly small, some large: quotients from 0 to past a whole chunk.
      symbol = static_cast<int>(random() % 4 == 0 ? random() % static_cast<unsigned>(largest + 1)
                                                  : random() % static_cast<unsigned>(std::min(largest, 8) + 1));
    }
    checkAllParameters(symbols, largest);
  }
}

BOOST_AUTO_TEST_CASE(edge_cases_give_the_chunks_of_a_slot_by_slot_walk) {
  checkAllParameters({}, 0);
  checkAllParameters({0}, 0);
  checkAllParameters({511}, 511);
  checkAllParameters(std::vector<int>(12, 0), 0); // exactly one chunk
  checkAllParameters(std::vector<int>(13, 0), 0);
  checkAllParameters(std::vector<int>(24, 3), 3);
  checkAllParameters({23, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 22}, 23); // quotients that end on a chunk boundary
  checkAllParameters({32767, 1, 0, 32767}, 32767);                // zero runs longer than a buffered piece
  std::vector<int> ramp;
  for (int symbol = 0; symbol < 512; ++symbol) {
    ramp.push_back(symbol);
  }
  checkAllParameters(ramp, 511);
}

BOOST_AUTO_TEST_CASE(chunks_wider_than_the_encoders_give_the_chunks_of_a_slot_by_slot_walk) {
  // The encoder cuts 8 or 12 slots; the chunker takes up to 32 (fields past 12 bits are counted, not
  // looked up).
  std::mt19937 random(32);
  for (int round = 0; round < 50; ++round) {
    std::vector<int> symbols(static_cast<std::size_t>(random() % 400));
    for (int& symbol : symbols) {
      symbol = static_cast<int>(random() % 4 == 0 ? random() % 200 : random() % 6);
    }
    for (const int slots : {13, 16, 31, 32}) {
      checkSameChunks(symbols, static_cast<int>(random() % 4), false, slots, SymbolKind::Weights);
      checkSameChunks(symbols, static_cast<int>(random() % 4), false, slots, SymbolKind::ZeroRuns);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
