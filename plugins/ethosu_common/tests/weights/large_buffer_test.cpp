// SPDX-License-Identifier: Apache-2.0
// The codec's large scratch buffers: ordinary below 2 MiB, 2 MiB aligned (for transparent huge pages)
// from there on, and a vector over them behaves like any other when it grows.

#include "large_buffer.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <numeric>

using ethosu::weights::detail::kHugePageBytes;
using ethosu::weights::detail::LargeVector;

BOOST_AUTO_TEST_CASE(large_buffers_are_huge_page_aligned_and_keep_their_contents_when_they_grow) {
  LargeVector<std::int32_t> values(1000);
  std::iota(values.begin(), values.end(), 0);
  const std::size_t large = kHugePageBytes / sizeof(std::int32_t) + 1;
  values.resize(large);
  BOOST_TEST(reinterpret_cast<std::uintptr_t>(values.data()) % kHugePageBytes == 0U);
  BOOST_TEST(values[999] == 999);
  BOOST_TEST(values[large - 1] == 0);
  values.resize(3 * large);
  BOOST_TEST(values[999] == 999);
  LargeVector<std::int32_t>().swap(values);
  BOOST_TEST(values.capacity() == 0U);
}
