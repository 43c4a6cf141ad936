// SPDX-License-Identifier: Apache-2.0
#pragma once

// Bit-level reading and writing for the Ethos-U compressed weight stream. The stream is filled from the
// least significant bit of each byte upwards and every field is stored least significant bit first
// (Vela: ethosu/mlw_codec/mlw_encode.c, bitbuf_put).

#include "npu/core/diagnostics.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace ethosu::weights::detail {

/// Appends to a byte vector. Fields gather in a register, full 32-bit words in a small buffer that goes
/// to the vector when full (and when the writer goes out of scope): byte stores could alias the
/// writer's own state, which would then live in memory rather than registers.
class BitWriter {
public:
  explicit BitWriter(std::vector<std::uint8_t>& bytes) : bytes_(bytes), startByte_(bytes.size()) {}
  BitWriter(const BitWriter&) = delete;
  BitWriter& operator=(const BitWriter&) = delete;
  /// Writes out what is pending, an incomplete last byte with its unwritten bits zero.
  ~BitWriter() {
    flushWords();
    for (; pendingBits_ > 0; pendingBits_ = pendingBits_ > 8U ? pendingBits_ - 8U : 0U) {
      bytes_.push_back(static_cast<std::uint8_t>(pending_ & 0xffU));
      pending_ >>= 8U;
    }
  }

  /// Appends the `bitCount` (0..32) low bits of `value`, least significant first.
  void put(int bitCount, std::uint32_t value) {
    const std::uint64_t mask = (std::uint64_t{1} << static_cast<unsigned>(bitCount)) - 1U;
    pending_ |= (value & mask) << pendingBits_;
    pendingBits_ += static_cast<unsigned>(bitCount);
    if (pendingBits_ >= 32U) {
      words_[wordCount_++] = static_cast<std::uint32_t>(pending_);
      pending_ >>= 32U;
      pendingBits_ -= 32U;
      if (wordCount_ == words_.size()) {
        flushWords();
      }
    }
  }
  /// Bits written through this writer.
  [[nodiscard]] std::size_t bitPosition() const {
    return (bytes_.size() - startByte_) * 8U + wordCount_ * 32U + pendingBits_;
  }

private:
  friend class BitCursor;

  void putWord(std::uint32_t word) {
    words_[wordCount_++] = word;
    if (wordCount_ == words_.size()) {
      flushWords();
    }
  }

  void flushWords() {
    const std::size_t start = bytes_.size();
    bytes_.resize(start + wordCount_ * 4U);
    if constexpr (std::endian::native == std::endian::little) { // the words' bytes are in stream order
      std::memcpy(bytes_.data() + start, words_.data(), wordCount_ * 4U);
      wordCount_ = 0;
      return;
    }
    for (std::size_t word = 0; word < wordCount_; ++word) {
      for (std::size_t byte = 0; byte < 4U; ++byte) {
        bytes_[start + word * 4U + byte] = static_cast<std::uint8_t>((words_[word] >> (8U * byte)) & 0xffU);
      }
    }
    wordCount_ = 0;
  }

  std::vector<std::uint8_t>& bytes_;
  std::size_t startByte_;
  std::uint64_t pending_ = 0; ///< bits not yet in a word (fewer than 32 before each put)
  unsigned pendingBits_ = 0;
  std::array<std::uint32_t, 64> words_{};
  std::size_t wordCount_ = 0;
};

/// Writes through a BitWriter with the pending bits in the cursor, a local of the writing function:
/// there they stay in registers, where the writer's own (reached through a reference) went to memory
/// at every field and each field waited for the previous one's store. The writer is brought up to date
/// when the cursor goes out of scope; nothing else may write through it meanwhile.
class BitCursor {
public:
  explicit BitCursor(BitWriter& writer)
      : writer_(writer), pending_(writer.pending_), pendingBits_(writer.pendingBits_) {}
  BitCursor(const BitCursor&) = delete;
  BitCursor& operator=(const BitCursor&) = delete;
  ~BitCursor() {
    writer_.pending_ = pending_;
    writer_.pendingBits_ = pendingBits_;
  }

  /// BitWriter::put.
  void put(int bitCount, std::uint32_t value) {
    const std::uint64_t mask = (std::uint64_t{1} << static_cast<unsigned>(bitCount)) - 1U;
    pending_ |= (value & mask) << pendingBits_;
    pendingBits_ += static_cast<unsigned>(bitCount);
    if (pendingBits_ >= 32U) {
      writer_.putWord(static_cast<std::uint32_t>(pending_));
      pending_ >>= 32U;
      pendingBits_ -= 32U;
    }
  }

private:
  BitWriter& writer_;
  std::uint64_t pending_;
  unsigned pendingBits_;
};

class BitReader {
public:
  explicit BitReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  /// Reads `bitCount` bits (least significant first); a read past the end is a malformed stream.
  [[nodiscard]] std::uint32_t get(int bitCount) {
    std::uint32_t value = 0;
    for (int bit = 0; bit < bitCount; ++bit) {
      const std::size_t byteIndex = bitPosition_ >> 3U;
      if (byteIndex >= bytes_.size()) {
        npu::throwModelError("compressed weight stream ends in the middle of a field", {},
                             "the stream is truncated or was not written by an Ethos-U weight encoder");
      }
      const std::uint32_t bitValue = (bytes_[byteIndex] >> (bitPosition_ & 7U)) & 1U;
      value |= bitValue << static_cast<unsigned>(bit);
      ++bitPosition_;
    }
    return value;
  }
  /// Skips to the next byte boundary.
  void alignToByte() { bitPosition_ = (bitPosition_ + 7U) & ~std::size_t{7}; }
  [[nodiscard]] bool atEnd() const { return (bitPosition_ >> 3U) >= bytes_.size(); }

private:
  std::span<const std::uint8_t> bytes_;
  std::size_t bitPosition_ = 0;
};

} // namespace ethosu::weights::detail
