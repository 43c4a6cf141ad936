// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>

namespace allocation {

/// The random numbers of CPython's `random` module: MT19937 seeded from an integer the way
/// `random.seed(int)` does (init_by_array), and `getrandbits`/`randint` drawn as CPython draws them.
/// Vela's hill-climb allocator calls `random.seed(1)` and `random.randint`, so reproducing its choices
/// needs this exact stream, which std::mt19937's own seeding does not give.
class PythonRandom {
public:
  /// Equivalent of `random.seed(seed)` for 0 <= seed < 2**32.
  explicit PythonRandom(std::uint32_t seed);

  /// The next 32-bit output of the generator (CPython's genrand_uint32).
  [[nodiscard]] std::uint32_t nextWord();
  /// `random.getrandbits(count)` for 0 <= count <= 64.
  [[nodiscard]] std::uint64_t bits(int count);
  /// A uniform integer in [0, bound), bound > 0, drawn like CPython's `_randbelow_with_getrandbits`.
  [[nodiscard]] std::uint64_t below(std::uint64_t bound);
  /// `random.randint(low, high)` for low <= high.
  [[nodiscard]] std::int64_t integerBetween(std::int64_t low, std::int64_t high);

private:
  static constexpr std::size_t kStateWords = 624;
  void seedFromWord(std::uint32_t seed);
  void twist();

  std::array<std::uint32_t, kStateWords> state_{};
  std::size_t next_ = kStateWords;
};

} // namespace allocation
