// SPDX-License-Identifier: Apache-2.0
// The stream cache: plans found by their exact weights, and released on request.
#include "ethosu/weights/stream_cache.hpp"

#include "codec_workspace.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace {

using ethosu::weights::StreamCache;

StreamCache::Plan planOf(const std::vector<std::int16_t>& weights) {
  ethosu::weights::detail::CodecWorkspace workspace;
  return std::make_shared<const ethosu::weights::detail::StreamPlan>(
      ethosu::weights::detail::planWeightStream(weights, workspace));
}

} // namespace

BOOST_AUTO_TEST_SUITE(stream_cache)

BOOST_AUTO_TEST_CASE(a_plan_is_found_by_its_exact_weights_only) {
  StreamCache cache;
  const std::vector<std::int16_t> weights{1, -2, 200, 0, 7};
  const StreamCache::Plan plan = planOf(weights);
  cache.insert(weights, StreamCache::keyOf(weights), plan, plan->memoryBytes());
  BOOST_TEST(cache.find(weights, StreamCache::keyOf(weights)) == plan);
  const std::vector<std::int16_t> other{1, -2, 200, 0, 8};
  BOOST_TEST(cache.find(other, StreamCache::keyOf(other)) == nullptr);
  // Filed under the same key, other weights are still told apart by their values.
  BOOST_TEST(cache.find(other, StreamCache::keyOf(weights)) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_plan_taken_for_writing_is_given_once_and_then_forgotten) {
  StreamCache cache;
  const std::vector<std::int16_t> weights{3, 1, -4, 1, 5};
  const StreamCache::Plan plan = planOf(weights);
  cache.insert(weights, StreamCache::keyOf(weights), plan, plan->memoryBytes());
  const std::vector<std::int16_t> other{3, 1, -4, 1, 6};
  BOOST_TEST(cache.take(other, StreamCache::keyOf(other)) == nullptr);
  BOOST_TEST(cache.take(weights, StreamCache::keyOf(weights)) == plan);
  BOOST_TEST(cache.find(weights, StreamCache::keyOf(weights)) == nullptr);
  BOOST_TEST(cache.take(weights, StreamCache::keyOf(weights)) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_cache_tells_whether_it_ever_left_a_plan_out_for_lack_of_room) {
  StreamCache cache;
  BOOST_TEST(!cache.overflowed());
  BOOST_TEST(cache.hasRoomFor(1000));
  BOOST_TEST(!cache.overflowed());
  BOOST_TEST(!cache.hasRoomFor(StreamCache::kDefaultBudgetBytes)); // int16 weights: twice the budget
  BOOST_TEST(cache.overflowed());
}

BOOST_AUTO_TEST_CASE(a_cleared_cache_finds_nothing_and_keeps_plans_again) {
  StreamCache cache;
  const std::vector<std::int16_t> weights{3, 3, 3, -1};
  const StreamCache::Plan plan = planOf(weights);
  const std::uint64_t key = StreamCache::keyOf(weights);
  cache.insert(weights, key, plan, plan->memoryBytes());
  cache.clear();
  BOOST_TEST(cache.find(weights, key) == nullptr);
  BOOST_TEST(cache.hasRoomFor(weights.size()));
  cache.insert(weights, key, plan, plan->memoryBytes());
  BOOST_TEST(cache.find(weights, key) == plan);
}

BOOST_AUTO_TEST_CASE(clearing_tells_how_many_bytes_the_weights_and_plans_took) {
  StreamCache cache;
  const std::vector<std::int16_t> weights{5, -5, 0, 0, 9, 1};
  const StreamCache::Plan plan = planOf(weights);
  cache.insert(weights, StreamCache::keyOf(weights), plan, plan->memoryBytes());
  BOOST_TEST(cache.clear() == weights.size() * sizeof(std::int16_t) + plan->memoryBytes());
  BOOST_TEST(cache.clear() == 0U);
}

BOOST_AUTO_TEST_SUITE_END()
