// SPDX-License-Identifier: Apache-2.0
#include "allocator_common/live_range_checks.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

namespace {

/// The message of the Internal error checkLiveRanges throws, or "" when it accepts the range.
std::string problemWith(const npu::LiveRange& range) {
  try {
    allocation::checkLiveRanges(std::vector<npu::LiveRange>{range});
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Internal));
    return error.message();
  }
  return "";
}

} // namespace

BOOST_AUTO_TEST_SUITE(live_range_checks)

BOOST_AUTO_TEST_CASE(ordinary_zero_size_and_unaligned_ranges_are_accepted) {
  BOOST_TEST(problemWith({"a", 0, 3, 100, 16}).empty());
  BOOST_TEST(problemWith({"a", 5, 5, 0, 16}).empty());
  BOOST_TEST(problemWith({"a", 0, 0, 7, 1}).empty());
  BOOST_TEST(problemWith({"a", 0, 0, 7, 0}).empty());
}

BOOST_AUTO_TEST_CASE(impossible_ranges_are_internal_errors_naming_the_range) {
  BOOST_TEST(problemWith({"early", -1, 3, 16, 16}).find("'early' starts before time 0") != std::string::npos);
  BOOST_TEST(problemWith({"reversed", 4, 3, 16, 16}).find("'reversed' ends before it starts") != std::string::npos);
  BOOST_TEST(problemWith({"negative", 0, 3, -16, 16}).find("'negative' has a negative size") != std::string::npos);
  BOOST_TEST(problemWith({"skewed", 0, 3, 16, -16}).find("'skewed' has a negative alignment") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(zero_alignment_means_any_address) {
  BOOST_TEST(allocation::alignmentOf({"a", 0, 0, 7, 0}) == 1);
  BOOST_TEST(allocation::alignmentOf({"a", 0, 0, 7, 64}) == 64);
}

BOOST_AUTO_TEST_SUITE_END()
