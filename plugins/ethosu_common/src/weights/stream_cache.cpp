// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/stream_cache.hpp"

#include "ethosu/weights/byte_hash.hpp"

#include <algorithm>
#include <utility>

namespace ethosu::weights {

std::uint64_t StreamCache::keyOf(std::span<const std::int16_t> weights) {
  return hashBytes(std::as_bytes(weights));
}

StreamCache::Plan StreamCache::find(std::span<const std::int16_t> weights, std::uint64_t key) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (auto [it, end] = entries_.equal_range(key); it != end; ++it) {
    if (std::equal(weights.begin(), weights.end(), it->second.weights.begin(), it->second.weights.end())) {
      return it->second.plan;
    }
  }
  return nullptr;
}

StreamCache::Plan StreamCache::take(std::span<const std::int16_t> weights, std::uint64_t key) {
  Entry taken;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto [it, end] = entries_.equal_range(key); it != end; ++it) {
      if (std::equal(weights.begin(), weights.end(), it->second.weights.begin(), it->second.weights.end())) {
        taken = std::move(it->second);
        entries_.erase(it);
        break;
      }
    }
  }
  // bytes_ still counts it, so that what is kept afterwards does not depend on what was written.
  return taken.plan; // its weights are freed outside the lock
}

bool StreamCache::hasRoomFor(std::size_t weights) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const bool room = bytes_ + weights * sizeof(std::int16_t) <= budget_; // the weights; a plan is far smaller
  overflowed_ = overflowed_ || !room;
  return room;
}

bool StreamCache::overflowed() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return overflowed_;
}

void StreamCache::insert(std::span<const std::int16_t> weights, std::uint64_t key, Plan plan, std::size_t planBytes) {
  Entry entry{std::vector<std::int16_t>(weights.begin(), weights.end()), std::move(plan)};
  const std::size_t bytes = entry.weights.size() * sizeof(std::int16_t) + planBytes;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (bytes_ + bytes > budget_) {
    overflowed_ = true;
    return;
  }
  for (auto [it, end] = entries_.equal_range(key); it != end; ++it) {
    if (it->second.weights == entry.weights) {
      return; // another thread planned the same weights meanwhile: both plans are equal
    }
  }
  bytes_ += bytes;
  entries_.emplace(key, std::move(entry));
}

std::size_t StreamCache::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  entries_ = {};
  return std::exchange(bytes_, 0);
}

} // namespace ethosu::weights
