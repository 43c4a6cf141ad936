// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include "ethosu_lowering/lowering.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(placement)

BOOST_AUTO_TEST_CASE(operations_the_accelerator_rejects_run_on_the_cpu_with_its_reason) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId mid = builder.featureMap("mid", Shape{1, 8, 8, 4});
  const TensorId out = builder.featureMap("out", Shape{1, 8, 8, 4});
  builder.conv(in, mid);
  builder.operation(OpType::Svdf, "SVDF", {mid}, {out});
  builder.output(out);
  FakeAccelerator accelerator;
  accelerator.fakeSupport.unsupported[OpType::Svdf] = "SVDF is a CPU only op";

  const Graph lowered = lowerForTest(builder.graph, accelerator);
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 2U);
  BOOST_TEST(subgraph.operations[0].placement == Placement::Npu);
  BOOST_TEST(subgraph.operations[1].placement == Placement::Cpu);
  BOOST_TEST(subgraph.operations[1].placementReason == "SVDF is a CPU only op");
  const PlacementCounts counts = countPlacements(lowered);
  BOOST_TEST(counts.npuOperations == 1);
  BOOST_TEST(counts.cpuOperations == 1);
}

BOOST_AUTO_TEST_CASE(operations_nobody_reads_are_dropped_like_vela_which_walks_from_the_outputs) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 4});
  const TensorId used = builder.featureMap("used", Shape{1, 4, 4, 4});
  const TensorId unused = builder.featureMap("unused", Shape{1, 4, 4, 4});
  builder.conv(in, used);
  builder.conv(in, unused);
  builder.output(used);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  BOOST_TEST(describeOperations(lowered.subgraphs.front()) == std::vector<std::string>{"Conv2DBias:used"});
}

BOOST_AUTO_TEST_SUITE_END()
