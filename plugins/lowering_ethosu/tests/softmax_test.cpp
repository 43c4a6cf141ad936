// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(softmax)

BOOST_AUTO_TEST_CASE(an_int8_softmax_becomes_the_thirty_one_operations_of_vela_named_like_vela) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4});
  const TensorId out = builder.featureMap("labels_softmax", Shape{1, 4}, DataType::Int8, 1.0 / 256, -128);
  builder.operation(OpType::Softmax, "SOFTMAX", {in}, {out}).attributes.set("beta", 1.0);
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  // The sequence of tflm_micro_speech_int8's per-layer CSV (Vela 3.10).
  const std::vector<std::string> expected{"MaxPool:labels_softmax_maxpool0", "Sub:labels_softmax_sub1",
                                          "SHR:labels_softmax_shr2",         "ReduceSum:labels_softmax_reduce_sum3",
                                          "CLZ:labels_softmax_clz4",         "Sub:labels_softmax_sub5",
                                          "Sub:labels_softmax_sub6",         "SHL:labels_softmax_shl7",
                                          "Sub:labels_softmax_sub8",         "SHL:labels_softmax_shl9",
                                          "Add:labels_softmax_add10",        "Mul:labels_softmax_mul11",
                                          "Add:labels_softmax_add12",        "Mul:labels_softmax_mul13",
                                          "Sub:labels_softmax_sub14",        "Mul:labels_softmax_mul15",
                                          "Mul:labels_softmax_mul16",        "Add:labels_softmax_add17",
                                          "Mul:labels_softmax_mul18",        "Sub:labels_softmax_sub19",
                                          "Mul:labels_softmax_mul20",        "Mul:labels_softmax_mul21",
                                          "Add:labels_softmax_add22",        "Mul:labels_softmax_mul23",
                                          "Sub:labels_softmax_sub24",        "Mul:labels_softmax_mul25",
                                          "Mul:labels_softmax_mul26",        "Add:labels_softmax_add27",
                                          "Mul:labels_softmax_mul28",        "Mul:labels_softmax_mul29",
                                          "SHR:labels_softmax_shr30"};
  BOOST_TEST(describeOperations(subgraph) == expected, boost::test_tools::per_element());
  for (const Operation& op : subgraph.operations) {
    BOOST_TEST(op.sourceType == "SOFTMAX");
  }
  const Operation& subtract = subgraph.operations[1];
  BOOST_REQUIRE(subtract.activation.has_value());
  BOOST_TEST(subtract.activation->lut != kNoTensor);
  BOOST_TEST(subgraph.tensor(subtract.activation->lut).purpose == TensorPurpose::Lut);
  BOOST_TEST(subgraph.operations.back().ofm() == subgraph.outputs.front());
}

BOOST_AUTO_TEST_CASE(a_softmax_over_more_positions_than_an_int_holds_is_a_compile_error) {
  // 65535 x 65535 passes the dimension checks; its max pool's 65535^2 rows overflowed an int (found by
  // reading the lowering's arithmetic on model shapes).
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 65535, 65535, 1});
  const TensorId out = builder.featureMap("sm", Shape{1, 65535, 65535, 1}, DataType::Int8, 1.0 / 256, -128);
  builder.operation(OpType::Softmax, "SOFTMAX", {in}, {out}).attributes.set("beta", 1.0);
  builder.output(out);
  try {
    static_cast<void>(lowerForTest(builder.graph, FakeAccelerator{}));
    BOOST_FAIL("the softmax was lowered");
  } catch (const Error& error) {
    BOOST_TEST((error.kind() == ErrorKind::Compile), error.render());
    BOOST_TEST(error.message().find("4294836225 rows") != std::string::npos, error.message());
  }
}

BOOST_AUTO_TEST_CASE(an_int16_softmax_uses_two_lookup_tables) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 10}, DataType::Int16);
  const TensorId out = builder.featureMap("sm", Shape{1, 10}, DataType::Int16, 1.0 / 32768, 0);
  builder.operation(OpType::Softmax, "SOFTMAX", {in}, {out});
  builder.output(out);
  const Graph lowered = lowerForTest(builder.graph, FakeAccelerator{});
  int luts = 0;
  for (const Operation& op : lowered.subgraphs.front().operations) {
    luts += op.activation && op.activation->lut != kNoTensor ? 1 : 0;
  }
  BOOST_TEST(luts == 2);
  BOOST_TEST(lowered.subgraphs.front().operations.front().name == "sm_maxpool0");
}

BOOST_AUTO_TEST_SUITE_END()
