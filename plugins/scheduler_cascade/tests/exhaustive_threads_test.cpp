// SPDX-License-Identifier: Apache-2.0
// The exhaustive stripe search runs beside Vela's scan (tbb::parallel_invoke) with nested parallel
// loops of its own. When one run fails (a schedule that does not fit), the other must still finish
// every loop it started: the outcome, a schedule or an error, is the same at one thread and at two.
#include "cascade_scheduler.hpp"

#include "cascade_fixture.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/report/report.hpp"
#include "npu/report/writers.hpp"

#include <tbb/global_control.h>

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <random>
#include <string>

using namespace npu;
using namespace npu::cascade;

namespace {

/// A chain of convolutions, depthwise convolutions, poolings and residual additions chosen by `seed`
/// (the raw engine output only, so the network is the same with every standard library).
npu::test::GraphBuilder generatedNetwork(std::uint32_t seed, int operations) {
  std::mt19937 random(seed);
  npu::test::GraphBuilder builder;
  TensorId x = builder.conv(builder.input({1, 64, 64, 8}), 32, 3, 1);
  int height = 64;
  int depth = 32;
  for (int i = 0; i < operations; ++i) {
    switch (random() % 4) {
    case 0:
      depth = 16 * static_cast<int>(1 + random() % 4);
      x = builder.conv(x, depth, random() % 2 == 0 ? 1 : 3, 1);
      break;
    case 1:
      x = builder.depthwise(x);
      break;
    case 2:
      if (height >= 16) {
        x = builder.maxPool(x);
        height /= 2;
      } else {
        x = builder.depthwise(x, 3, 1);
      }
      break;
    default:
      x = builder.add(x, builder.depthwise(x));
      break;
    }
  }
  builder.output(builder.conv(x, 16, 3, 1));
  return builder;
}

/// What scheduling the network with the exhaustive search gives at `threads`: the rendered report of
/// the schedule, or the compile error.
std::string outcome(const npu::test::GraphBuilder& network, std::int64_t sramLimit, int threads) {
  const tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  SchedulerOptions options;
  options.sramLimit = sramLimit;
  options.search = StripeSearch::Exhaustive;
  const npu::test::Fixture fixture(network, npu::test::FakeSystem{}, options);
  SilentProgress progress;
  const OptionValues values;
  const ScheduleRequest request{fixture.graph, fixture.regions.front(), fixture.accelerator, values, progress};
  try {
    const Schedule schedule = scheduleRegion(request, options);
    // Every buffer at address 0: the report then reflects the schedule alone, and its buffers are listed.
    Allocation allocation;
    allocation.addresses.assign(schedule.buffers.size(), 0);
    std::string text = schedule.label + "\n";
    for (const BufferRequest& buffer : schedule.buffers) {
      text += std::to_string(buffer.range.start) + " " + std::to_string(buffer.range.end) + " " +
              std::to_string(buffer.range.size) + "\n";
    }
    return text + renderJsonReport(evaluateNetwork(fixture.graph, {schedule}, {allocation}, fixture.accelerator));
  } catch (const Error& error) {
    return "error: " + error.message();
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(exhaustive_search_threads)

BOOST_AUTO_TEST_CASE(the_exhaustive_search_gives_the_same_schedule_or_error_at_one_thread_and_at_two) {
  constexpr int kRepeats = 6;
  int errors = 0;
  int schedules = 0;
  for (const std::uint32_t seed : {1U, 2U, 3U, 4U, 5U, 6U, 7U, 8U}) {
    const npu::test::GraphBuilder network = generatedNetwork(seed, 14);
    // From limits where Vela's schedule does not fit (its run throws while the exhaustive one is still
    // searching) to limits where both fit.
    for (const std::int64_t limit : {40000, 70000, 100000, 170000, 250000, 400000}) {
      const std::string expected = outcome(network, limit, 1);
      (expected.starts_with("error: ") ? errors : schedules) += 1;
      for (int repeat = 0; repeat < kRepeats; ++repeat) {
        BOOST_TEST_CONTEXT("seed " << seed << ", limit " << limit << ", repeat " << repeat) {
          BOOST_TEST((outcome(network, limit, 2) == expected));
        }
      }
    }
  }
  // Both kinds of outcome are covered.
  BOOST_TEST(errors > 0);
  BOOST_TEST(schedules > 0);
}

BOOST_AUTO_TEST_SUITE_END()
