// SPDX-License-Identifier: Apache-2.0
#pragma once

// The bytes of a file to write, held as pieces laid end to end. A large block the producer already
// holds (e.g. an accelerator's read-only area of encoded weights, hundreds of MB for a large network)
// is referred to where it lies instead of being copied into one contiguous buffer, so it is in memory
// once; each piece keeps alive whatever owns its bytes.

#include <cstdint>
#include <memory>
#include <ostream>
#include <span>
#include <vector>

namespace npu {

class FileBytes {
public:
  struct Piece {
    std::span<const std::uint8_t> bytes;
    std::shared_ptr<const void> owner; ///< keeps `bytes` alive
  };

  FileBytes() = default;
  /// One piece owning all the bytes.
  explicit FileBytes(std::vector<std::uint8_t> bytes) {
    auto owned = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
    append(*owned, owned);
  }

  /// Appends bytes owned by `owner` (empty pieces are left out).
  void append(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner) {
    if (!bytes.empty()) {
      size_ += bytes.size();
      pieces_.push_back({bytes, std::move(owner)});
    }
  }

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] std::span<const Piece> pieces() const { return pieces_; }

  /// All the bytes in one buffer (a copy: for callers that need them contiguous, e.g. Python).
  [[nodiscard]] std::vector<std::uint8_t> joined() const {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(size_);
    for (const Piece& piece : pieces_) {
      bytes.insert(bytes.end(), piece.bytes.begin(), piece.bytes.end());
    }
    return bytes;
  }

  /// Writes the pieces in order; the stream's state tells whether it worked.
  void writeTo(std::ostream& out) const {
    for (const Piece& piece : pieces_) {
      out.write(reinterpret_cast<const char*>(piece.bytes.data()), static_cast<std::streamsize>(piece.bytes.size()));
    }
  }

private:
  std::vector<Piece> pieces_;
  std::size_t size_ = 0;
};

} // namespace npu
