#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace npu::sweep {

/// SHA-256 (FIPS 180-4), incremental: the content hash that keys a sweep point's result file.
class Sha256 {
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

} // namespace npu::sweep
