// SPDX-License-Identifier: Apache-2.0
#include "parallel.hpp"

#include <tbb/global_control.h>

#include <boost/test/unit_test.hpp>

#include <mutex>
#include <stdexcept>
#include <string>

using namespace npu::cascade;

BOOST_AUTO_TEST_SUITE(parallel)

BOOST_AUTO_TEST_CASE(tasks_started_in_a_given_order_return_their_results_by_index) {
  const std::vector<std::size_t> order{3, 0, 2, 1};
  for (const int threads : {1, 2}) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    std::mutex mutex;
    std::vector<std::size_t> started;
    const auto results = parallelMapInOrder(order, [&](std::size_t index) {
      const std::lock_guard lock(mutex);
      started.push_back(index);
      return index * 10;
    });
    BOOST_TEST((results == std::vector<std::size_t>{0, 10, 20, 30}));
    if (threads == 1) {
      BOOST_TEST(started == order); // one thread takes them exactly in the order given
    }
  }
}

BOOST_AUTO_TEST_CASE(tasks_started_in_a_given_order_rethrow_the_lowest_index_failure) {
  const std::vector<std::size_t> order{2, 1, 0};
  const auto failing = [](std::size_t index) -> int {
    if (index > 0) {
      throw std::runtime_error("task " + std::to_string(index));
    }
    return 0;
  };
  BOOST_CHECK_EXCEPTION(static_cast<void>(parallelMapInOrder(order, failing)), std::runtime_error,
                        [](const std::runtime_error& error) { return std::string(error.what()) == "task 1"; });
}

BOOST_AUTO_TEST_CASE(both_functions_run_and_the_first_ones_failure_wins) {
  int ran = 0;
  invokeBoth([&] { ++ran; }, [&] { ++ran; });
  BOOST_TEST(ran == 2);
  BOOST_CHECK_EXCEPTION(
      invokeBoth([] { throw std::runtime_error("first"); }, [] { throw std::runtime_error("second"); }),
      std::runtime_error, [](const std::runtime_error& error) { return std::string(error.what()) == "first"; });
}

BOOST_AUTO_TEST_SUITE_END()
