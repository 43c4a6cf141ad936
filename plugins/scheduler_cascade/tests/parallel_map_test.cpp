// SPDX-License-Identifier: Apache-2.0
#include "parallel.hpp"

#include <tbb/global_control.h>
#include <tbb/parallel_invoke.h>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace npu::cascade;

BOOST_AUTO_TEST_SUITE(parallel_map)

BOOST_AUTO_TEST_CASE(a_map_whose_enclosing_task_group_is_cancelled_still_runs_every_index) {
  const tbb::global_control control(tbb::global_control::max_allowed_parallelism, 2);
  constexpr std::size_t kCount = 64;
  std::atomic<std::size_t> started{0};
  std::atomic<std::size_t> finished{0};
  std::size_t mapped = 0;
  bool complete = false;
  // The sibling throws once the map has begun: TBB cancels the task group the map's loop belongs to.
  BOOST_CHECK_THROW(tbb::parallel_invoke(
                        [&] {
                          const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                          while (started == 0 && std::chrono::steady_clock::now() < deadline) {
                            std::this_thread::yield();
                          }
                          throw std::runtime_error("sibling failed");
                        },
                        [&] {
                          const auto values = parallelMap(kCount, [&](std::size_t index) {
                            ++started;
                            std::this_thread::sleep_for(std::chrono::milliseconds(1));
                            ++finished;
                            return index;
                          });
                          mapped = values.size();
                          complete = true;
                          for (std::size_t index = 0; index < values.size(); ++index) {
                            complete = complete && values[index] == index;
                          }
                        }),
                    std::runtime_error);
  // The map had begun, and it ran every index and returned them all, in order.
  BOOST_TEST(started > 0U);
  BOOST_TEST(finished == kCount);
  BOOST_TEST(mapped == kCount);
  BOOST_TEST(complete);
}

BOOST_AUTO_TEST_SUITE_END()
