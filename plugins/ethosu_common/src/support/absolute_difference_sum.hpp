// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sum of |value - zero| over 8-bit weights, for the weights-limit constraint: checked for every
// convolution of a network before it is lowered (MobileNet-v2: 3.4 million weights, 1.7 ms one by one).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <type_traits>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace ethosu::support::kernel {

/// Sum of |value - zero| over `values`. With a zero point that an 8-bit value can hold, 16 values at a
/// time by SSE2's sum of absolute byte differences (signed values and the zero point moved by 128 into
/// unsigned bytes, which keeps their differences) on x86-64; otherwise one by one.
template <typename T>
std::int64_t absoluteDifferenceSum(std::span<const T> values, std::int64_t zero) {
  std::size_t index = 0;
  std::int64_t sum = 0;
#if defined(__SSE2__) && defined(__x86_64__)
  if constexpr (sizeof(T) == 1) {
    if (zero >= std::numeric_limits<T>::min() && zero <= std::numeric_limits<T>::max()) {
      const std::uint8_t flip = std::is_signed_v<T> ? 0x80 : 0x00;
      const auto movedZero = static_cast<std::uint8_t>(static_cast<std::uint8_t>(static_cast<T>(zero)) ^ flip);
      const __m128i flips = _mm_set1_epi8(static_cast<char>(flip));
      const __m128i zeros = _mm_set1_epi8(static_cast<char>(movedZero));
      __m128i sums = _mm_setzero_si128(); // two 64-bit sums
      for (; index + 16 <= values.size(); index += 16) {
        const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values.data() + index));
        sums = _mm_add_epi64(sums, _mm_sad_epu8(_mm_xor_si128(block, flips), zeros));
      }
      sum = _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
    }
  }
#endif
  for (; index < values.size(); ++index) {
    sum += std::abs(static_cast<std::int64_t>(values[index]) - zero);
  }
  return sum;
}

} // namespace ethosu::support::kernel
