// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/live_ranges.hpp"

#include "support/scheduling_fakes.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::scheduling;

namespace {

struct Chain {
  Graph graph;
  std::vector<NpuRegion> regions;
  test::FakeSchedulingAccelerator accelerator;
  std::vector<TensorId> maps;

  Chain() {
    test::GraphBuilder builder;
    maps.push_back(builder.input({1, 16, 16, 16}));
    for (int i = 0; i < 3; ++i) {
      maps.push_back(builder.conv(maps.back(), 16));
    }
    builder.output(maps.back());
    graph = builder.build();
    regions = test::npuRegions(graph);
  }
};

MemoryScope sramScope() { return MemoryScope{MemoryArea::Sram, {Residency::Scratch, Residency::ScratchFast}, MemoryArea::Sram}; }

const TimedLiveRange& rangeOf(const LiveRangeGraph& ranges, TensorId tensor) {
  for (const auto& range : ranges.ranges()) {
    if (std::find(range.tensors.begin(), range.tensors.end(), tensor) != range.tensors.end()) {
      return range;
    }
  }
  throw std::runtime_error("no range");
}

} // namespace

BOOST_AUTO_TEST_SUITE(live_ranges)

BOOST_AUTO_TEST_CASE(each_operation_takes_two_time_units_and_a_feature_map_lives_from_producer_to_consumer) {
  const Chain chain;
  const SchedulingGraph view(chain.graph, chain.regions.front(), chain.accelerator);
  const TensorPlacement placement(view.subgraph(), chain.accelerator.memory());
  const std::vector<StepLayout> steps(3);
  const auto ranges = extractLiveRanges(view, steps, placement, sramScope());
  BOOST_TEST(ranges.operationTimes()[2] == 4);
  BOOST_TEST(ranges.endTime() == 6);
  BOOST_TEST(rangeOf(ranges, chain.maps[1]).start == 0);
  BOOST_TEST(rangeOf(ranges, chain.maps[1]).end == 3);
  BOOST_TEST(rangeOf(ranges, chain.maps[3]).end == 7); // a region output lives past the last step
  const auto usage = ranges.usage(MemoryArea::Sram);
  BOOST_TEST(usage.size() == 8U);
  BOOST_TEST(usage[2] == 2 * 4096);
}

BOOST_AUTO_TEST_CASE(cascaded_operations_share_one_step_and_the_ifm_becomes_a_rolling_buffer) {
  const Chain chain;
  const SchedulingGraph view(chain.graph, chain.regions.front(), chain.accelerator);
  const TensorPlacement placement(view.subgraph(), chain.accelerator.memory());
  std::vector<StepLayout> steps(3);
  steps[1].cascade = 2;
  steps[2].cascade = 2;
  steps[2].rollingBuffer = Shape4{1, 4, 16, 16};
  const auto ranges = extractLiveRanges(view, steps, placement, sramScope());
  BOOST_TEST(ranges.operationTimes()[1] == 2);
  BOOST_TEST(ranges.operationTimes()[2] == 2);
  BOOST_TEST(ranges.endTime() == 4);
  const auto& rolling = rangeOf(ranges, chain.maps[2]);
  BOOST_TEST(rolling.size == 4 * 16 * 16);
  BOOST_TEST(rolling.rollingBuffer);

  // For the framework the cascade's buffers cover both of its operations.
  const auto requests = toBufferRequests(view, ranges, MemoryArea::Sram, 16);
  for (const auto& request : requests) {
    if (request.tensors.front() == chain.maps[2]) {
      BOOST_TEST(request.range.start == 1);
      BOOST_TEST(request.range.end == 2);
    }
    if (request.tensors.front() == chain.maps[0]) {
      BOOST_TEST(request.range.start == 0); // a region input lives from the start
    }
  }
}

BOOST_AUTO_TEST_CASE(on_the_step_timeline_buffers_keep_their_own_times) {
  const Chain chain;
  const SchedulingGraph view(chain.graph, chain.regions.front(), chain.accelerator);
  const TensorPlacement placement(view.subgraph(), chain.accelerator.memory());
  const auto ranges = extractLiveRanges(view, std::vector<StepLayout>(3), placement, sramScope());
  const auto requests = toBufferRequests(view, ranges, MemoryArea::Sram, 16, Timeline::Steps);
  BOOST_REQUIRE(requests.size() == 4U);
  BOOST_TEST(requests[1].range.start == 0); // the first convolution's OFM, written at step time 0
  BOOST_TEST(requests[1].range.end == 3);
  BOOST_TEST(requests[3].range.end == 7); // the region output is handed on after the last step
}

BOOST_AUTO_TEST_CASE(a_prebuffered_weight_buffer_starts_under_the_previous_operation_and_double_buffers_end_apart) {
  const Chain chain;
  const SchedulingGraph view(chain.graph, chain.regions.front(), chain.accelerator);
  const TensorPlacement placement(view.subgraph(), chain.accelerator.memory());
  std::vector<StepLayout> steps(3);
  steps[1].weightBuffers = {WeightBufferUse{100, true}, WeightBufferUse{96, false}};
  steps[1].depthSliceBoundaries = 3; // two slices: the second buffer is used last
  const auto ranges = extractLiveRanges(view, steps, placement, sramScope());
  std::vector<TimedLiveRange> buffers;
  for (const auto& range : ranges.ranges()) {
    if (range.weightBufferOperation == 1) {
      buffers.push_back(range);
    }
  }
  BOOST_REQUIRE(buffers.size() == 2U);
  BOOST_TEST(buffers[0].size == 112); // padded to the allocation quantum
  BOOST_TEST(buffers[0].start == 1);
  BOOST_TEST(buffers[0].end == 2);
  BOOST_TEST(buffers[1].start == 2);
  BOOST_TEST(buffers[1].end == 3);
}

BOOST_AUTO_TEST_CASE(an_elementwise_ofm_shares_the_range_of_the_ifm_it_overwrites) {
  test::GraphBuilder builder;
  const TensorId a = builder.conv(builder.input({1, 8, 8, 16}), 16);
  const TensorId sum = builder.addConstant(a);
  builder.output(builder.conv(sum, 16));
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  const SchedulingGraph view(graph, regions.front(), accelerator);
  const TensorPlacement placement(view.subgraph(), accelerator.memory());
  const auto ranges = extractLiveRanges(view, std::vector<StepLayout>(3), placement, sramScope());
  const auto& shared = rangeOf(ranges, sum);
  BOOST_TEST(shared.tensors.size() == 2U);
  BOOST_TEST(shared.start == 0);
  BOOST_TEST(shared.end == 5);
}

BOOST_AUTO_TEST_SUITE_END()
