// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the weight codec decided for streams it encoded, remembered by their exact input: a scheduler
// sizing its candidates and the code generator writing the chosen one ask for the same streams, and
// the codec's decisions (palette sections, Golomb-Rice parameters) are the most expensive part of a
// compile. The schedulers only need sizes, so what is kept is the plan, not the bits: a size is then a
// lookup, and writing a stream repeats none of the search. A hit gives what encoding the same weights
// again would give, so results do not depend on what was asked before, nor in which order threads ask.
// It holds at most a fixed number of bytes (weights and plans): beyond that, streams are sized without
// being kept, so that networks of thousands of layers keep their memory and time of an estimate.

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace ethosu::weights {

namespace detail {
struct StreamPlan; // codec_workspace.hpp
}

class StreamCache {
public:
  using Plan = std::shared_ptr<const detail::StreamPlan>;

  /// Where weights are filed: computed once by the caller for a lookup and the insertion after it.
  [[nodiscard]] static std::uint64_t keyOf(std::span<const std::int16_t> weights);

  /// The plan of exactly these reordered weights (`key` their keyOf), or null. Thread-safe.
  [[nodiscard]] Plan find(std::span<const std::int16_t> weights, std::uint64_t key) const;
  /// As find, and forgets the plan: for a stream being written, which is written once (a large network's
  /// plans then shrink while its read-only area grows). Thread-safe.
  [[nodiscard]] Plan take(std::span<const std::int16_t> weights, std::uint64_t key);
  /// Whether the plan of this many weights would still be kept. Thread-safe.
  [[nodiscard]] bool hasRoomFor(std::size_t weights) const;
  /// Remembers the plan of these weights (`key` their keyOf, `planBytes` the plan's size in memory), if
  /// there is room. Thread-safe.
  void insert(std::span<const std::int16_t> weights, std::uint64_t key, Plan plan, std::size_t planBytes);

  /// Forgets every plan (and frees their memory); returns the bytes (weights and plans) it held. Thread-safe.
  std::size_t clear();
  /// Whether a plan was ever left out for lack of room: the cache then holds the plans of only part of
  /// the network, most of them candidates a scheduler did not choose. Thread-safe.
  [[nodiscard]] bool overflowed() const;

  static constexpr std::size_t kDefaultBudgetBytes = std::size_t{64} << 20;

private:
  struct Entry {
    std::vector<std::int16_t> weights;
    Plan plan;
  };
  mutable std::mutex mutex_;
  std::unordered_multimap<std::uint64_t, Entry> entries_;
  std::size_t bytes_ = 0;
  std::size_t budget_ = kDefaultBudgetBytes;
  mutable bool overflowed_ = false; // also set by hasRoomFor, a query
};

} // namespace ethosu::weights
