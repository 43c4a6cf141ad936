// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/stream_cache.hpp"

#include <algorithm>

namespace ethosu::weights {

namespace {

std::uint64_t hashOf(std::span<const std::int16_t> weights) {
  std::uint64_t hash = 0xcbf29ce484222325ULL ^ weights.size();
  for (const std::int16_t weight : weights) {
    hash = (hash ^ static_cast<std::uint16_t>(weight)) * 0x100000001b3ULL;
  }
  return hash;
}

} // namespace

StreamCache::Stream StreamCache::find(std::span<const std::int16_t> weights) const {
  const std::uint64_t key = hashOf(weights);
  const std::lock_guard<std::mutex> lock(mutex_);
  for (auto [it, end] = entries_.equal_range(key); it != end; ++it) {
    if (std::equal(weights.begin(), weights.end(), it->second.weights.begin(), it->second.weights.end())) {
      return it->second.stream;
    }
  }
  return nullptr;
}

bool StreamCache::hasRoomFor(std::size_t weights) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return bytes_ + weights * sizeof(std::int16_t) * 2 <= budget_; // the weights and, at most, as much stream
}

void StreamCache::insert(std::span<const std::int16_t> weights, Stream stream) {
  const std::uint64_t key = hashOf(weights);
  Entry entry{std::vector<std::int16_t>(weights.begin(), weights.end()), std::move(stream)};
  const std::size_t bytes = entry.weights.size() * sizeof(std::int16_t) + entry.stream->size();
  const std::lock_guard<std::mutex> lock(mutex_);
  if (bytes_ + bytes > budget_) {
    return;
  }
  for (auto [it, end] = entries_.equal_range(key); it != end; ++it) {
    if (it->second.weights == entry.weights) {
      return; // another thread encoded the same weights meanwhile: both streams are equal
    }
  }
  bytes_ += bytes;
  entries_.emplace(key, std::move(entry));
}

} // namespace ethosu::weights
