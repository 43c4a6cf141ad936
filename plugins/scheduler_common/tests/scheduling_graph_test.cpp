// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/scheduling_graph.hpp"

#include "support/scheduling_fakes.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using npu::scheduling::SchedulingGraph;

BOOST_AUTO_TEST_SUITE(scheduling_graph)

BOOST_AUTO_TEST_CASE(an_intermediate_feature_map_takes_the_brick_format_and_region_boundaries_stay_linear) {
  test::GraphBuilder builder;
  const TensorId a = builder.conv(builder.input({1, 16, 16, 8}), 16);
  const TensorId b = builder.conv(a, 16);
  builder.output(b);
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  const SchedulingGraph view(graph, regions.front(), accelerator);
  BOOST_TEST((view.format(a) == TensorFormat::NHCWB16));
  BOOST_TEST((view.format(b) == TensorFormat::NHWC));
  BOOST_TEST(view.operation(0).ofm.bytes == 16 * 16 * 16);
}

BOOST_AUTO_TEST_CASE(an_elementwise_ofm_of_odd_depth_over_a_linear_input_stays_linear_and_whole) {
  test::GraphBuilder builder;
  const TensorId input = builder.input({1, 8, 8, 8});
  const TensorId sum = builder.addConstant(input);
  builder.output(builder.conv(sum, 16));
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  const SchedulingGraph view(graph, regions.front(), accelerator);
  BOOST_TEST((view.format(sum) == TensorFormat::NHWC));
  BOOST_TEST(view.operation(0).requiresFullOfm);
  BOOST_TEST(view.operation(1).requiresFullIfm);
}

BOOST_AUTO_TEST_CASE(a_binary_operation_with_a_constant_first_operand_reads_the_feature_map_as_primary_input) {
  test::GraphBuilder builder;
  const TensorId input = builder.input({1, 8, 8, 16});
  const TensorId sum = builder.addConstant(input, true);
  builder.output(sum);
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  const SchedulingGraph view(graph, regions.front(), accelerator);
  const auto& op = view.operation(0);
  BOOST_TEST(op.reversedOperands);
  BOOST_TEST(op.ifm.tensor == input);
  BOOST_TEST(graph.subgraphs[0].tensor(op.ifm2.tensor).isConstant());
}

BOOST_AUTO_TEST_CASE(region_inputs_outputs_and_shared_feature_maps_must_be_whole) {
  test::GraphBuilder builder;
  const TensorId input = builder.input({1, 16, 16, 16});
  const TensorId a = builder.conv(input, 16);
  const TensorId b = builder.conv(a, 16);
  const TensorId c = builder.conv(a, 16);
  builder.output(builder.add(b, c));
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  const SchedulingGraph view(graph, regions.front(), accelerator);
  BOOST_TEST(view.operation(0).requiresFullIfm);
  BOOST_TEST(view.operation(0).requiresFullOfm); // read by two operations
  BOOST_TEST(view.operation(0).ofmConsumers.size() == 2U);
  BOOST_TEST(!view.operation(1).requiresFullOfm);
  BOOST_TEST(view.operation(3).requiresFullOfm);
  // The input and the shared OFM are needed whole at once by the first operation.
  BOOST_TEST(view.minimumMemoryRequirement() == 2 * 16 * 16 * 16);
  BOOST_TEST(view.minimumMemoryOperation() == 0);
}

BOOST_AUTO_TEST_CASE(an_elementwise_ofm_may_overwrite_an_input_only_it_reads) {
  test::GraphBuilder builder;
  const TensorId a = builder.conv(builder.input({1, 8, 8, 16}), 16);
  const TensorId sum = builder.addConstant(a);
  builder.output(builder.conv(sum, 16));
  const Graph graph = builder.build();
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  const SchedulingGraph view(graph, regions.front(), accelerator);
  BOOST_TEST(scheduling::inputOverwrittenByOfm(view, 1).value_or(kNoTensor) == a);
  BOOST_TEST(!scheduling::inputOverwrittenByOfm(view, 0).has_value());
  const auto nothingConsidered = [](TensorId) { return false; };
  BOOST_TEST(!scheduling::inputOverwrittenByOfm(view, 1, nothingConsidered).has_value());
}

BOOST_AUTO_TEST_CASE(a_memcpy_overwrites_a_network_input_that_only_later_cpu_or_npu_work_also_reads) {
  // Vela gives each NPU subgraph its own copy of an input, read only by that subgraph's operations, and a
  // MEMCPY ignores the write protection of a network input with several readers.
  test::GraphBuilder builder;
  const TensorId input = builder.input({1, 8, 8, 16});
  const TensorId copy = builder.memcpy(input);
  const TensorId pooled = builder.maxPool(input);
  builder.output(copy);
  builder.output(pooled);
  Graph graph = builder.build();
  graph.subgraphs[0].operations.back().placement = Placement::Cpu;
  const test::FakeSchedulingAccelerator accelerator;
  const auto regions = test::npuRegions(graph);
  BOOST_TEST_REQUIRE(regions.size() == 1U);
  const SchedulingGraph view(graph, regions.front(), accelerator);
  BOOST_TEST(view.use(input).writeProtected);
  BOOST_TEST(scheduling::inputOverwrittenByOfm(view, 0).value_or(kNoTensor) == input);
}

BOOST_AUTO_TEST_SUITE_END()
