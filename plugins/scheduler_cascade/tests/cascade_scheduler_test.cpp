// SPDX-License-Identifier: Apache-2.0
#include "cascade_scheduler.hpp"

#include "cascade_fixture.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/report/report.hpp"
#include "npu/report/writers.hpp"

#include <tbb/global_control.h>

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::cascade;

namespace {

/// A MobileNet-like stack of expand, depthwise and project convolutions with residual additions.
npu::test::GraphBuilder invertedResiduals(int size) {
  npu::test::GraphBuilder builder;
  TensorId x = builder.conv(builder.input({1, size, size, 8}), 16, 3, 2);
  for (int block = 0; block < 3; ++block) {
    const TensorId expanded = builder.conv(x, 96, 1, 1);
    const TensorId depthwise = builder.depthwise(expanded);
    const TensorId projected = builder.conv(depthwise, 16, 1, 1);
    x = builder.add(x, projected);
  }
  builder.output(builder.conv(x, 32, 3, 2));
  return builder;
}

/// A region scheduled with the plugin's entry point; keeps the graph the schedule refers to.
struct Scheduled {
  std::unique_ptr<npu::test::Fixture> fixture;
  Schedule schedule;
  [[nodiscard]] const Subgraph& subgraph() const { return fixture->graph.subgraphs[0]; }
};

Scheduled scheduleWith(const npu::test::GraphBuilder& builder, const npu::test::FakeSystem& system,
                       SchedulerOptions options) {
  Scheduled result;
  result.fixture = std::make_unique<npu::test::Fixture>(builder, system, options);
  if (options.sramLimit == 0) {
    options.sramLimit = result.fixture->accelerator.memory().arenaCacheSize;
  }
  SilentProgress progress;
  const OptionValues values;
  const npu::test::Fixture& f = *result.fixture;
  const ScheduleRequest request{f.graph, f.regions.front(), f.accelerator, values, progress};
  result.schedule = scheduleRegion(request, options);
  return result;
}

/// First fit by decreasing size: a real allocation to check what the schedule asks for.
Allocation firstFit(const Schedule& schedule) {
  Allocation allocation;
  allocation.addresses.assign(schedule.buffers.size(), 0);
  std::vector<std::size_t> order(schedule.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return schedule.buffers[a].range.size > schedule.buffers[b].range.size;
  });
  std::vector<std::size_t> placed;
  for (const std::size_t i : order) {
    const BufferRequest& buffer = schedule.buffers[i];
    std::int64_t address = 0;
    bool moved = true;
    while (moved) {
      moved = false;
      for (const std::size_t j : placed) {
        const BufferRequest& other = schedule.buffers[j];
        if (other.area == buffer.area && other.range.overlapsInTime(buffer.range) &&
            address < allocation.addresses[j] + other.range.size &&
            allocation.addresses[j] < address + buffer.range.size) {
          address = roundUp(allocation.addresses[j] + other.range.size, 16);
          moved = true;
        }
      }
    }
    allocation.addresses[i] = address;
    placed.push_back(i);
    auto& peak = allocation.peak[static_cast<std::size_t>(buffer.area)];
    peak = std::max(peak, address + buffer.range.size);
  }
  return allocation;
}

std::int64_t fastPeak(const Schedule& schedule) {
  const auto usage = scheduling::usageOverTime(schedule, MemoryArea::Sram);
  return usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end());
}

} // namespace

BOOST_AUTO_TEST_SUITE(cascade_scheduler)

BOOST_AUTO_TEST_CASE(every_operation_is_scheduled_once_and_the_schedule_is_valid) {
  const Scheduled scheduled = scheduleWith(invertedResiduals(32), npu::test::FakeSystem{}, {});
  const Schedule& schedule = scheduled.schedule;
  BOOST_TEST(schedule.operations.size() == 14U);
  const auto problems = scheduling::checkSchedule(schedule, scheduled.subgraph(), MemoryArea::Sram, 0);
  BOOST_TEST(problems.empty());
  BOOST_TEST(schedule.label == "main_split_1_MAX_BUFFERED"); // nothing limits the MAX schedule
  BOOST_TEST(!schedule.tensorHomes.empty());
}

BOOST_AUTO_TEST_CASE(a_tight_sram_limit_is_respected_by_cascading) {
  const std::int64_t limit = fastPeak(scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, {}).schedule) / 2;
  SchedulerOptions options;
  options.sramLimit = limit;
  const Scheduled scheduled = scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, options);
  const Schedule& schedule = scheduled.schedule;
  BOOST_TEST(!schedule.cascades.empty());
  BOOST_TEST(fastPeak(schedule) <= limit);
  const Allocation allocation = firstFit(schedule);
  std::vector<LiveRange> ranges;
  std::vector<std::int64_t> addresses;
  for (std::size_t i = 0; i < schedule.buffers.size(); ++i) {
    if (schedule.buffers[i].area == MemoryArea::Sram) {
      ranges.push_back(schedule.buffers[i].range);
      addresses.push_back(allocation.addresses[i]);
    }
  }
  BOOST_TEST(verifyAllocation(ranges, addresses).empty());
  BOOST_TEST(scheduling::checkSchedule(schedule, scheduled.subgraph(), MemoryArea::Sram, limit).empty());
}

BOOST_AUTO_TEST_CASE(an_sram_limit_nothing_fits_is_a_compile_error_naming_the_operator) {
  SchedulerOptions options;
  options.sramLimit = 1000;
  try {
    (void)scheduleWith(invertedResiduals(32), npu::test::FakeSystem{}, options);
    BOOST_FAIL("expected a compile error");
  } catch (const Error& error) {
    BOOST_TEST((error.kind() == ErrorKind::Compile));
    BOOST_TEST(error.location().object.find("conv0") != std::string::npos);
    BOOST_TEST(error.message().find("1000 bytes") != std::string::npos);
    BOOST_TEST(error.message().find("8192") != std::string::npos); // the whole input it needs
  }
}

BOOST_AUTO_TEST_CASE(reports_are_byte_identical_at_one_thread_and_at_two) {
  const auto render = [](int threads) {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    SchedulerOptions options;
    options.sramLimit = 60000;
    const Scheduled scheduled = scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, options);
    const NetworkReport report = evaluateNetwork(scheduled.fixture->graph, {scheduled.schedule},
                                                 {firstFit(scheduled.schedule)}, scheduled.fixture->accelerator);
    return renderJsonReport(report);
  };
  const std::string one = render(1);
  const std::string two = render(2);
  BOOST_TEST(one.size() > 1000U);
  BOOST_TEST((one == two));
}

BOOST_AUTO_TEST_CASE(a_separate_fast_storage_caches_feature_maps_and_buffers_weights) {
  npu::test::FakeSystem system;
  system.separateFastStorage = true;
  system.fastStorageBytes = 48 * 1024;
  const Scheduled scheduled = scheduleWith(invertedResiduals(64), system, {});
  const Schedule& schedule = scheduled.schedule;
  BOOST_TEST(schedule.label == "main_split_1_MIN_BUFFERED"); // always optimised when spilling
  BOOST_TEST(fastPeak(schedule) <= system.fastStorageBytes);
  bool someInSram = false;
  bool someInDram = false;
  for (const auto& [tensor, home] : schedule.tensorHomes) {
    someInSram = someInSram || home.area == MemoryArea::Sram;
    someInDram = someInDram || home.area == MemoryArea::Dram;
  }
  BOOST_TEST(someInSram);
  BOOST_TEST(someInDram);
  BOOST_TEST(
      scheduling::checkSchedule(schedule, scheduled.subgraph(), MemoryArea::Sram, system.fastStorageBytes).empty());
}

BOOST_AUTO_TEST_CASE(optimising_for_size_needs_no_more_sram_than_for_performance) {
  SchedulerOptions performance;
  SchedulerOptions size;
  size.strategy = OptimisationStrategy::Size;
  const std::int64_t performancePeak =
      fastPeak(scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, performance).schedule);
  const std::int64_t sizePeak = fastPeak(scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, size).schedule);
  BOOST_TEST(sizePeak <= performancePeak);
  BOOST_TEST(sizePeak < performancePeak);
}

BOOST_AUTO_TEST_CASE(the_exhaustive_stripe_search_keeps_to_the_limit) {
  SchedulerOptions options;
  options.sramLimit = fastPeak(scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, {}).schedule) / 2;
  const Scheduled vela = scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, options);
  options.search = StripeSearch::Exhaustive;
  const Scheduled exhaustive = scheduleWith(invertedResiduals(64), npu::test::FakeSystem{}, options);
  BOOST_TEST(fastPeak(exhaustive.schedule) <= options.sramLimit);
  BOOST_TEST(scheduling::checkSchedule(exhaustive.schedule, exhaustive.subgraph(), MemoryArea::Sram, options.sramLimit)
                 .empty());
  // Never slower than Vela's search.
  const auto cycles = [](const Scheduled& s) {
    return scheduling::evaluateSchedule(s.fixture->graph, s.schedule, s.fixture->accelerator)
        .cycle(CycleComponent::Total);
  };
  BOOST_TEST(cycles(exhaustive) <= cycles(vela));
}

BOOST_AUTO_TEST_CASE(options_default_the_sram_limit_to_the_arena_cache_size) {
  const npu::test::FakeSchedulingAccelerator accelerator(npu::test::FakeSystem{12345, false, MemoryArea::OffChipFlash});
  const auto specs = optionSpecs();
  const OptionValues values =
      resolveOptions(specs, {{"optimise", {"size", {}}}, {"search", {"exhaustive", {}}}}, "scheduler_cascade");
  const SchedulerOptions options = readOptions(values, accelerator);
  BOOST_TEST(options.sramLimit == 12345);
  BOOST_TEST((options.strategy == OptimisationStrategy::Size));
  BOOST_TEST((options.search == StripeSearch::Exhaustive));
}

BOOST_AUTO_TEST_SUITE_END()
