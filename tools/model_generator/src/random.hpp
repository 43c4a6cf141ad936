// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace npu::modelgen {

/// SplitMix64: a tiny generator whose sequence is fixed by its seed on every platform and compiler
/// (unlike the distributions of <random>), so generated files are byte-identical everywhere.
class Random {
public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [low, high] (the modulo bias is irrelevant for generated weights).
  std::int64_t integer(std::int64_t low, std::int64_t high) {
    return low + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(high - low + 1));
  }
  /// Uniform in [low, high).
  double real(double low, double high) {
    constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;
    return low + (high - low) * static_cast<double>(next() >> 11) * kTwoToMinus53;
  }

private:
  std::uint64_t state_;
};

} // namespace npu::modelgen
