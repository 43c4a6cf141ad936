// SPDX-License-Identifier: Apache-2.0
// The generator is the MT19937 reference algorithm (Matsumoto and Nishimura), which CPython's
// _randommodule.c implements; seeding and drawing follow CPython so that the stream is identical.
#include "allocator_common/python_random.hpp"

#include "npu/core/diagnostics.hpp"

#include <bit>

namespace allocation {
namespace {

constexpr std::size_t kShiftWords = 397;
constexpr std::uint32_t kMatrix = 0x9908b0dfU;
constexpr std::uint32_t kUpperBit = 0x80000000U;
constexpr std::uint32_t kLowerBits = 0x7fffffffU;

} // namespace

PythonRandom::PythonRandom(std::uint32_t seed) {
  // random.seed(n) feeds the 32-bit words of |n| to init_by_array; a small seed is one word.
  seedFromWord(19650218U);
  const std::uint32_t key = seed;
  std::size_t i = 1;
  for (std::size_t k = kStateWords; k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525U)) + key;
    if (++i >= kStateWords) {
      state_[0] = state_[kStateWords - 1];
      i = 1;
    }
  }
  for (std::size_t k = kStateWords - 1; k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941U)) - static_cast<std::uint32_t>(i);
    if (++i >= kStateWords) {
      state_[0] = state_[kStateWords - 1];
      i = 1;
    }
  }
  state_[0] = kUpperBit; // a non-zero initial state
  next_ = kStateWords;
}

void PythonRandom::seedFromWord(std::uint32_t seed) {
  state_[0] = seed;
  for (std::size_t i = 1; i < kStateWords; ++i) {
    state_[i] = 1812433253U * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
  }
  next_ = kStateWords;
}

void PythonRandom::twist() {
  for (std::size_t i = 0; i < kStateWords; ++i) {
    const std::uint32_t mixed = (state_[i] & kUpperBit) | (state_[(i + 1) % kStateWords] & kLowerBits);
    state_[i] = state_[(i + kShiftWords) % kStateWords] ^ (mixed >> 1) ^ ((mixed & 1U) != 0 ? kMatrix : 0U);
  }
  next_ = 0;
}

std::uint32_t PythonRandom::nextWord() {
  if (next_ >= kStateWords) {
    twist();
  }
  std::uint32_t word = state_[next_++];
  word ^= word >> 11;
  word ^= (word << 7) & 0x9d2c5680U;
  word ^= (word << 15) & 0xefc60000U;
  word ^= word >> 18;
  return word;
}

std::uint64_t PythonRandom::bits(int count) {
  npu::require(count >= 0 && count <= 64, "PythonRandom::bits: 0 to 64 bits");
  if (count == 0) {
    return 0;
  }
  if (count <= 32) {
    return nextWord() >> (32 - count);
  }
  // CPython fills the number from its least significant 32-bit word up; the last word is truncated.
  const std::uint64_t low = nextWord();
  const std::uint64_t high = nextWord() >> (64 - count);
  return low | (high << 32);
}

std::uint64_t PythonRandom::below(std::uint64_t bound) {
  npu::require(bound > 0, "PythonRandom::below: a positive bound");
  const int width = std::bit_width(bound);
  std::uint64_t value = bits(width);
  while (value >= bound) {
    value = bits(width);
  }
  return value;
}

std::int64_t PythonRandom::integerBetween(std::int64_t low, std::int64_t high) {
  npu::require(low <= high, "PythonRandom::integerBetween: a non-empty range");
  const std::uint64_t span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1U;
  if (span == 0) { // the whole 64-bit range
    return static_cast<std::int64_t>(bits(64));
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + below(span));
}

} // namespace allocation
