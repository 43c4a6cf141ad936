// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/stream_cache.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace ethosu::weights {

namespace {

/// Four independent chains of four weights per step (a multiply and a shift each), so that hashing
/// runs at the multiplier's throughput rather than its latency and stays a small part of a lookup.
std::uint64_t hashOf(std::span<const std::int16_t> weights) {
  constexpr std::uint64_t kMultiplier = 0xff51afd7ed558ccdULL;
  constexpr std::size_t kChains = 4;
  constexpr std::size_t kWeightsPerWord = sizeof(std::uint64_t) / sizeof(std::int16_t);
  std::array<std::uint64_t, kChains> chains{0x9e3779b97f4a7c15ULL ^ weights.size(), 0xc2b2ae3d27d4eb4fULL,
                                            0x165667b19e3779f9ULL, 0x27d4eb2f165667c5ULL};
  std::size_t index = 0;
  for (; index + kChains * kWeightsPerWord <= weights.size(); index += kChains * kWeightsPerWord) {
    for (std::size_t chain = 0; chain < kChains; ++chain) {
      std::uint64_t word = 0;
      std::memcpy(&word, weights.data() + index + chain * kWeightsPerWord, sizeof(word));
      chains[chain] = (chains[chain] ^ word) * kMultiplier;
      chains[chain] ^= chains[chain] >> 32U;
    }
  }
  std::uint64_t hash = chains[0];
  for (std::size_t chain = 1; chain < kChains; ++chain) {
    hash = (hash ^ chains[chain]) * kMultiplier;
  }
  for (; index < weights.size(); ++index) {
    hash = (hash ^ static_cast<std::uint16_t>(weights[index])) * kMultiplier;
  }
  return hash ^ (hash >> 29U);
}

} // namespace

std::uint64_t StreamCache::keyOf(std::span<const std::int16_t> weights) {
  return hashOf(weights);
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

bool StreamCache::hasRoomFor(std::size_t weights) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return bytes_ + weights * sizeof(std::int16_t) <= budget_; // the weights; a plan is far smaller
}

void StreamCache::insert(std::span<const std::int16_t> weights, std::uint64_t key, Plan plan, std::size_t planBytes) {
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

} // namespace ethosu::weights
