// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace npu {

/// SHA-256 (FIPS 180-4), incremental: content hashes (a sweep point's key, generated files against recorded
/// digests).
class NPU_API Sha256 {
public:
  Sha256();
  Sha256& update(std::string_view bytes);
  /// The digest as 64 lowercase hex digits; the object is spent afterwards.
  [[nodiscard]] std::string hexDigest();

private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

/// The SHA-256 of some bytes as 64 lowercase hex digits.
[[nodiscard]] NPU_API std::string sha256Hex(std::span<const std::uint8_t> bytes);

} // namespace npu
