// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/stream_cache.hpp"

#include <algorithm>
#include <cstring>

namespace ethosu::weights {

namespace {

/// Four weights per step (a multiply and a shift), so that hashing stays a small part of a lookup.
std::uint64_t hashOf(std::span<const std::int16_t> weights) {
  constexpr std::uint64_t kMultiplier = 0xff51afd7ed558ccdULL;
  std::uint64_t hash = 0x9e3779b97f4a7c15ULL ^ weights.size();
  std::size_t index = 0;
  for (; index + 4 <= weights.size(); index += 4) {
    std::uint64_t word = 0;
    std::memcpy(&word, weights.data() + index, sizeof(word));
    hash = (hash ^ word) * kMultiplier;
    hash ^= hash >> 32U;
  }
  for (; index < weights.size(); ++index) {
    hash = (hash ^ static_cast<std::uint16_t>(weights[index])) * kMultiplier;
  }
  return hash ^ (hash >> 29U);
}

} // namespace

StreamCache::Plan StreamCache::find(std::span<const std::int16_t> weights) const {
  const std::uint64_t key = hashOf(weights);
  const std::lock_guard<std::mutex> lock(mutex_);
  for (auto [it, end] = entries_.equal_range(key); it != end; ++it) {
    if (std::equal(weights.begin(), weights.end(), it->second.weights.begin(), it->second.weights.end())) {
      return it->second.plan;
    }
  }
  return nullptr;
}

bool StreamCache::hasRoomFor(std::size_t weights) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return bytes_ + weights * sizeof(std::int16_t) <= budget_; // the weights; a plan is far smaller
}

void StreamCache::insert(std::span<const std::int16_t> weights, Plan plan, std::size_t planBytes) {
  const std::uint64_t key = hashOf(weights);
  Entry entry{std::vector<std::int16_t>(weights.begin(), weights.end()), std::move(plan)};
  const std::size_t bytes = entry.weights.size() * sizeof(std::int16_t) + planBytes;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (bytes_ + bytes > budget_) {
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

void StreamCache::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  entries_ = {};
  bytes_ = 0;
}

} // namespace ethosu::weights
