// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(concat_split)

BOOST_AUTO_TEST_CASE(a_concatenation_becomes_one_avgpool_write_per_input_at_its_offset) {
  GraphBuilder builder;
  const TensorId a = builder.input("a", Shape{1, 4, 4, 8});
  const TensorId b = builder.input("b", Shape{1, 4, 4, 24});
  const TensorId out = builder.featureMap("concat", Shape{1, 4, 4, 32});
  builder.operation(OpType::ConcatTFLite, "CONCATENATION", {a, b}, {out}).attributes.set("axis", std::int64_t{3});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) ==
             (std::vector<std::string>{"AvgPool:concat0_avgpool", "AvgPool:concat1_avgpool"}));
  BOOST_TEST(subgraph.operations[1].writeOffset.value() == (Shape4{0, 0, 0, 8}));
  BOOST_TEST(subgraph.operations[1].writeShape.value() == (Shape4{1, 4, 4, 24}));
  BOOST_TEST(subgraph.operations[0].sourceType == "CONCATENATION");
}

BOOST_AUTO_TEST_CASE(a_split_read_by_npu_operations_becomes_reads_at_offsets_in_them) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 32});
  const TensorId axis = builder.constant("axis", Shape{}, DataType::Int32, {3});
  const TensorId left = builder.featureMap("left", Shape{1, 4, 4, 16});
  const TensorId right = builder.featureMap("right", Shape{1, 4, 4, 16});
  const TensorId outLeft = builder.featureMap("out_left", Shape{1, 4, 4, 8});
  const TensorId outRight = builder.featureMap("out_right", Shape{1, 4, 4, 8});
  builder.operation(OpType::Split, "SPLIT", {axis, in}, {left, right});
  builder.conv(left, outLeft);
  builder.conv(right, outRight);
  builder.output(outLeft);
  builder.output(outRight);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 2U);
  for (const Operation& op : subgraph.operations) {
    BOOST_TEST(op.ifm() == in);
    BOOST_TEST(op.readShapes[0].value() == (Shape4{1, 4, 4, 16}));
  }
  const auto& right_reader =
      subgraph.operations[0].name == "out_right" ? subgraph.operations[0] : subgraph.operations[1];
  BOOST_TEST(right_reader.readOffsets[0].value() == (Shape4{0, 0, 0, 16}));
}

BOOST_AUTO_TEST_CASE(a_feature_map_split_at_depth_offsets_of_sixteen_keeps_the_brick_format) {
  // The readers see the whole tensor's shape and read parts of it at aligned offsets: bricks still fit.
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
  const TensorId whole = builder.featureMap("whole", Shape{1, 4, 4, 32});
  const TensorId axis = builder.constant("axis", Shape{}, DataType::Int32, {3});
  const TensorId left = builder.featureMap("left", Shape{1, 4, 4, 16});
  const TensorId right = builder.featureMap("right", Shape{1, 4, 4, 16});
  const TensorId outLeft = builder.featureMap("out_left", Shape{1, 4, 4, 8});
  const TensorId outRight = builder.featureMap("out_right", Shape{1, 4, 4, 8});
  builder.conv(in, whole);
  builder.operation(OpType::Split, "SPLIT", {axis, whole}, {left, right});
  builder.conv(left, outLeft);
  builder.conv(right, outRight);
  builder.output(outLeft);
  builder.output(outRight);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 3U);
  BOOST_TEST(subgraph.operations[2].ifm() == whole);
  BOOST_TEST(subgraph.operations[2].readShapes[0].has_value());
  BOOST_TEST(subgraph.tensor(whole).format == TensorFormat::NHCWB16);
}

BOOST_AUTO_TEST_CASE(a_slice_that_is_a_graph_output_is_copied_by_an_avgpool) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 4});
  const TensorId begin = builder.constant("begin", Shape{4}, DataType::Int32, {0, 2, 0, 0});
  const TensorId size = builder.constant("size", Shape{4}, DataType::Int32, {1, 4, 8, 4});
  const TensorId out = builder.featureMap("slice", Shape{1, 4, 8, 4});
  builder.operation(OpType::Slice, "SLICE", {in, begin, size}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(describeOperations(subgraph) == std::vector<std::string>{"AvgPool:slice_avgpool"});
  BOOST_TEST(subgraph.operations[0].readOffsets[0].value() == (Shape4{0, 2, 0, 0}));
}

BOOST_AUTO_TEST_SUITE_END()
