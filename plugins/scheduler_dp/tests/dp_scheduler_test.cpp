// SPDX-License-Identifier: Apache-2.0
// The DP scheduler on hand-made graphs with the fake accelerator of scheduler_common's tests.
#include "dp_scheduler.hpp"
#include "pass_graph.hpp"

#include "support/scheduling_fakes.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>
#include <tbb/global_control.h>

#include <sstream>
#include <string>

using namespace npu;

namespace {

Schedule scheduleFirstRegion(const Graph& graph, const Accelerator& accelerator, const dp::DpOptions& options = {}) {
  const auto regions = test::npuRegions(graph);
  BOOST_REQUIRE(!regions.empty());
  const OptionValues values;
  SilentProgress progress;
  const ScheduleRequest request{graph, regions.front(), accelerator, values, progress};
  return dp::scheduleRegion(request, options);
}

/// Everything of a schedule the framework consumes, as text (for exact comparisons).
std::string describe(const Schedule& schedule) {
  std::ostringstream out;
  for (const ScheduledOperation& op : schedule.operations) {
    out << op.op << ' ' << op.strategy << ' ' << op.cascade << ' ' << op.blockConfig.ofmBlock.height << 'x'
        << op.blockConfig.ofmBlock.width << 'x' << op.blockConfig.ofmBlock.depth << ' ' << op.estimatedCycles << ' '
        << op.memoryUsage << ' ' << (op.weights ? op.weights->encodedBytes : -1) << '\n';
  }
  for (const BufferRequest& buffer : schedule.buffers) {
    out << buffer.range.name << ' ' << buffer.range.start << '-' << buffer.range.end << ' ' << buffer.range.size << ' '
        << static_cast<int>(buffer.area) << '\n';
  }
  for (const auto& [tensor, home] : schedule.tensorHomes) {
    out << tensor << ' ' << static_cast<int>(home.area) << ' ' << static_cast<int>(home.format) << '\n';
  }
  return out.str();
}

Graph mobileNetLikeChain(int blocks) {
  test::GraphBuilder builder;
  TensorId x = builder.conv(builder.input({1, 32, 32, 8}), 16, 3, 2);
  for (int i = 0; i < blocks; ++i) {
    x = builder.depthwise(x);
    x = builder.conv(x, 16 * (1 + i % 2), 1);
  }
  const TensorId branch = builder.conv(x, 16 * (1 + (blocks - 1) % 2), 1);
  builder.output(builder.fullyConnected(builder.add(x, branch), 10));
  return builder.build();
}

} // namespace

BOOST_AUTO_TEST_SUITE(dp_scheduler)

BOOST_AUTO_TEST_CASE(every_operation_gets_a_streaming_strategy_and_a_block_config) {
  const Graph graph = mobileNetLikeChain(3);
  const test::FakeSchedulingAccelerator accelerator;
  const Schedule schedule = scheduleFirstRegion(graph, accelerator);
  BOOST_TEST(schedule.operations.size() == graph.subgraphs.front().operations.size());
  for (const ScheduledOperation& op : schedule.operations) {
    BOOST_TEST((op.strategy == "WeightStream" || op.strategy == "IfmStream"));
    BOOST_TEST(op.blockConfig.ofmBlock.elements() > 0);
  }
  BOOST_TEST(!schedule.buffers.empty());
}

BOOST_AUTO_TEST_CASE(results_are_identical_at_one_and_two_threads) {
  const Graph graph = mobileNetLikeChain(6);
  const test::FakeSchedulingAccelerator accelerator;
  std::string single;
  {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, 1);
    single = describe(scheduleFirstRegion(graph, accelerator));
  }
  std::string dual;
  {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, 2);
    dual = describe(scheduleFirstRegion(graph, accelerator));
  }
  BOOST_TEST(single == dual);
}

BOOST_AUTO_TEST_CASE(a_small_fast_storage_makes_ifm_streaming_cascade_through_rolling_buffers) {
  test::GraphBuilder builder;
  TensorId x = builder.input({1, 64, 64, 16});
  for (int i = 0; i < 3; ++i) {
    x = builder.conv(x, 16);
  }
  builder.output(x);
  const Graph graph = builder.build();
  test::FakeSystem system;
  system.separateFastStorage = true;
  system.fastStorageBytes = 24 * 1024;
  const test::FakeSchedulingAccelerator accelerator(system);
  const Schedule schedule = scheduleFirstRegion(graph, accelerator);
  BOOST_TEST(schedule.operations.size() == 3U);
  for (const auto& buffer : schedule.buffers) {
    if (buffer.area == MemoryArea::Sram) {
      BOOST_TEST(buffer.range.size <= system.fastStorageBytes);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_region_with_a_loop_is_scheduled_without_hanging) {
  test::GraphBuilder builder;
  const TensorId input = builder.input({1, 8, 8, 16});
  const TensorId a = builder.conv(input, 16, 1);
  const TensorId b = builder.conv(a, 16, 1);
  const TensorId c = builder.add(a, b);
  builder.output(c);
  Graph graph = builder.build();
  // Make the first convolution read the output of the second: a loop a -> b -> a.
  Subgraph& subgraph = graph.subgraphs.front();
  for (Operation& op : subgraph.operations) {
    if (op.ofm() == a) {
      op.inputs[0] = b;
    }
  }
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  BOOST_REQUIRE(!regions.empty());
  const dp::PassGraph passes(graph, regions.front(), accelerator);
  BOOST_TEST(passes.hasLoops());
  const Schedule schedule = scheduleFirstRegion(graph, accelerator);
  BOOST_TEST(schedule.operations.size() == regions.front().operations.size());
}

BOOST_AUTO_TEST_CASE(an_elementwise_ofm_sharing_its_input_range_still_counts_its_own_bytes_over_that_range) {
  // x feeds both y and the addition; y feeds only the addition, whose output z may overwrite it (one
  // live range for y and z). Vela 2.1 still adds each tensor's bytes over the whole shared range when
  // it counts the memory outside each pass (scheduler.calc_non_local_mem_usage).
  test::GraphBuilder builder;
  const TensorId x = builder.conv(builder.input({1, 8, 8, 16}), 16, 1);
  const TensorId y = builder.conv(x, 16, 1);
  const TensorId z = builder.add(x, y);
  builder.output(builder.conv(z, 16, 1));
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  BOOST_REQUIRE(!regions.empty());
  const dp::PassGraph passes(graph, regions.front(), accelerator);
  BOOST_REQUIRE_EQUAL(passes.size(), 4);
  const std::int64_t featureMapBytes = passes.linearBytes(z);
  BOOST_TEST(featureMapBytes == 8 * 8 * 16);
  // While y is produced, z is already counted beside the pass's own x and y.
  BOOST_TEST(passes.nonLocalUsage(1) == featureMapBytes);
  // The addition's own tensors are x, y and z: nothing else is live.
  BOOST_TEST(passes.nonLocalUsage(2) == 0);
  // While z is read, y is still counted.
  BOOST_TEST(passes.nonLocalUsage(3) == featureMapBytes);
}

BOOST_AUTO_TEST_CASE(region_inputs_are_held_from_the_startup_pass_whose_strategy_bounds_every_set) {
  // Vela 2.1's NPU subgraph begins with a startup pass producing its inputs at time 0
  // (extract_npu_subgraphs): q, read only by the addition, is already held while the convolution runs,
  // beside z (the addition's OFM, which shares the convolution's OFM range). The startup pass's own
  // strategy holds both inputs.
  test::GraphBuilder builder;
  const TensorId p = builder.input({1, 8, 8, 16}, "p");
  const TensorId q = builder.input({1, 8, 8, 16}, "q");
  const TensorId z = builder.add(builder.conv(p, 16, 1), q);
  builder.output(z);
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  BOOST_REQUIRE(!regions.empty());
  const dp::PassGraph passes(graph, regions.front(), accelerator);
  BOOST_REQUIRE_EQUAL(passes.size(), 2);
  const std::int64_t bytes = passes.linearBytes(z);
  BOOST_TEST(passes.nonLocalUsage(0) == passes.linearBytes(q) + bytes);
  BOOST_TEST(passes.startupSram() == passes.linearBytes(p) + passes.linearBytes(q));
}

BOOST_AUTO_TEST_CASE(a_depthwise_convolution_double_buffers_its_weights_in_ofm_channels_of_the_block_depth) {
  // Vela 2.1 keeps depthwise weights as [H, W, 1, C]: two slices of the block depth, as a convolution.
  test::GraphBuilder builder;
  builder.output(builder.depthwise(builder.input({1, 8, 8, 64})));
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  BOOST_REQUIRE(!regions.empty());
  const dp::PassGraph passes(graph, regions.front(), accelerator);
  BOOST_REQUIRE_EQUAL(passes.size(), 1);
  BOOST_REQUIRE(passes.pass(0).weightsBuffered);
  const std::int64_t sixteenDeep = passes.doubleBufferBytes(0, 16, 1.0);
  BOOST_TEST(sixteenDeep > 0);
  BOOST_TEST(passes.doubleBufferBytes(0, 8, 1.0) < sixteenDeep);
  BOOST_TEST(passes.doubleBufferBytes(0, 32, 1.0) > sixteenDeep);
  // Two 32-deep slices already hold all 64 channels.
  BOOST_TEST(passes.doubleBufferBytes(0, 64, 1.0) == passes.doubleBufferBytes(0, 32, 1.0));
}

BOOST_AUTO_TEST_CASE(every_region_of_a_graph_with_several_subgraphs_is_scheduled) {
  test::GraphBuilder first("first");
  first.output(first.conv(first.input({1, 16, 16, 8}), 8));
  test::GraphBuilder second("second");
  second.output(second.depthwise(second.conv(second.input({1, 8, 8, 16}), 16)));
  Graph graph = first.build();
  graph.subgraphs.push_back(second.build().subgraphs.front());
  const test::FakeSchedulingAccelerator accelerator;
  const OptionValues values;
  SilentProgress progress;
  int scheduled = 0;
  for (const NpuRegion& region : test::npuRegions(graph)) {
    const ScheduleRequest request{graph, region, accelerator, values, progress};
    const Schedule schedule = dp::scheduleRegion(request, {});
    BOOST_TEST(schedule.operations.size() == region.operations.size());
    scheduled += static_cast<int>(schedule.operations.size());
  }
  BOOST_TEST(scheduled == 3);
}

BOOST_AUTO_TEST_CASE(an_sram_limit_nothing_fits_in_is_a_compile_error_naming_the_model_and_the_pass) {
  Graph graph = mobileNetLikeChain(1);
  graph.sourcePath = "models/chain.tflite";
  const test::FakeSchedulingAccelerator accelerator;
  dp::DpOptions options;
  options.sramLimit = 64;
  try {
    static_cast<void>(scheduleFirstRegion(graph, accelerator, options));
    BOOST_FAIL("a 64-byte limit must not fit");
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Compile));
    const std::string rendered = error.render();
    BOOST_TEST(rendered.find("models/chain.tflite") != std::string::npos, rendered);
    BOOST_TEST(rendered.find("does not fit in 64 bytes") != std::string::npos, rendered);
  }
}

BOOST_AUTO_TEST_SUITE_END()
