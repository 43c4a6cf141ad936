#pragma once

// Bit-level reading and writing for the Ethos-U compressed weight stream. The stream is filled from the
// least significant bit of each byte upwards and every field is stored least significant bit first
// (Vela: ethosu/mlw_codec/mlw_encode.c, bitbuf_put).

#include "npu/core/diagnostics.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::weights::detail {

class BitWriter {
public:
  /// Appends the `bitCount` low bits of `value`, least significant first.
  void put(int bitCount, std::uint32_t value) {
    for (int bit = 0; bit < bitCount; ++bit) {
      const std::size_t byteIndex = bitPosition_ >> 3U;
      if (byteIndex == bytes_.size()) {
        bytes_.push_back(0);
      }
      if (((value >> static_cast<unsigned>(bit)) & 1U) != 0) {
        bytes_[byteIndex] = static_cast<std::uint8_t>(bytes_[byteIndex] | (1U << (bitPosition_ & 7U)));
      }
      ++bitPosition_;
    }
  }
  [[nodiscard]] std::size_t bitPosition() const { return bitPosition_; }
  [[nodiscard]] std::vector<std::uint8_t> release() && { return std::move(bytes_); }

private:
  std::vector<std::uint8_t> bytes_;
  std::size_t bitPosition_ = 0;
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
