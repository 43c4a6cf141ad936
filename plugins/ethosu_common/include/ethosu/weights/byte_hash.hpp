// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fast hash of a byte range, for tables that then compare their keys exactly (the weight stream cache,
// the code generator's search for identical streams): four independent chains of eight bytes per step,
// so that it runs at the multiplier's throughput rather than its latency.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace ethosu::weights {

[[nodiscard]] inline std::uint64_t hashBytes(std::span<const std::byte> bytes) {
  constexpr std::uint64_t kMultiplier = 0xff51afd7ed558ccdULL;
  constexpr std::size_t kChains = 4;
  constexpr std::size_t kWordBytes = sizeof(std::uint64_t);
  std::array<std::uint64_t, kChains> chains{0x9e3779b97f4a7c15ULL ^ bytes.size(), 0xc2b2ae3d27d4eb4fULL,
                                            0x165667b19e3779f9ULL, 0x27d4eb2f165667c5ULL};
  std::size_t index = 0;
  for (; index + kChains * kWordBytes <= bytes.size(); index += kChains * kWordBytes) {
    for (std::size_t chain = 0; chain < kChains; ++chain) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes.data() + index + chain * kWordBytes, sizeof(word));
      chains[chain] = (chains[chain] ^ word) * kMultiplier;
      chains[chain] ^= chains[chain] >> 32U;
    }
  }
  std::uint64_t hash = chains[0];
  for (std::size_t chain = 1; chain < kChains; ++chain) {
    hash = (hash ^ chains[chain]) * kMultiplier;
  }
  for (; index < bytes.size(); ++index) {
    hash = (hash ^ static_cast<std::uint8_t>(bytes[index])) * kMultiplier;
  }
  return hash ^ (hash >> 29U);
}

} // namespace ethosu::weights
