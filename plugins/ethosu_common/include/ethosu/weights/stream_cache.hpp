// SPDX-License-Identifier: Apache-2.0
#pragma once

// Encoded weight streams remembered by their exact input: a scheduler sizing its candidates and the
// code generator writing the chosen one ask for the same streams, and the codec's parameter search is
// the most expensive part of a compile. A hit returns what encoding the same weights again would give,
// so results do not depend on what was asked before, nor in which order threads ask. It holds at most
// a fixed number of bytes (weights and streams): beyond that, streams are sized without being kept,
// so that networks of thousands of layers keep their memory and time of an estimate.

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace ethosu::weights {

class StreamCache {
public:
  using Stream = std::shared_ptr<const std::vector<std::uint8_t>>;

  /// The stream of exactly these reordered weights, or null. Thread-safe.
  [[nodiscard]] Stream find(std::span<const std::int16_t> weights) const;
  /// Whether a stream of this many weights would still be kept. Thread-safe.
  [[nodiscard]] bool hasRoomFor(std::size_t weights) const;
  /// Remembers the stream of these weights, if there is room. Thread-safe.
  void insert(std::span<const std::int16_t> weights, Stream stream);

  static constexpr std::size_t kDefaultBudgetBytes = std::size_t{64} << 20;

private:
  struct Entry {
    std::vector<std::int16_t> weights;
    Stream stream;
  };
  mutable std::mutex mutex_;
  std::unordered_multimap<std::uint64_t, Entry> entries_;
  std::size_t bytes_ = 0;
  std::size_t budget_ = kDefaultBudgetBytes;
};

} // namespace ethosu::weights
