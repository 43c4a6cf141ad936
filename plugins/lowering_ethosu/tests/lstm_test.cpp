// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include "ethosu_lowering/lowering.hpp"
#include "operator_rewrites.hpp"


#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(lstm)

BOOST_AUTO_TEST_CASE(an_lstm_is_unrolled_into_eighteen_operations_per_time_step_in_velas_order) {
  const Graph lowered = lowerForTest(lstmOverTwoTimeSteps().graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  const std::vector<std::string> firstStep{"FullyConnected:output_gate#0.0:ostate_state#0_fc",
                                           "FullyConnected:output_gate#0.0:in_feature#0.0_fc",
                                           "Add:output_gate#0.0_add",
                                           "FullyConnected:input_gate#0.0:ostate_state#0_fc",
                                           "FullyConnected:input_gate#0.0:in_feature#0.0_fc",
                                           "Add:input_gate#0.0_add",
                                           "FullyConnected:cell_gate#0.0:ostate_state#0_fc",
                                           "FullyConnected:cell_gate#0.0:in_feature#0.0_fc",
                                           "Add:cell_gate#0.0_add",
                                           "Mul:cell_state#0.0_ci_mul",
                                           "FullyConnected:forget_gate#0.0:ostate_state#0_fc",
                                           "FullyConnected:forget_gate#0.0:in_feature#0.0_fc",
                                           "Add:forget_gate#0.0_add",
                                           "Mul:cell_state#0.0_cf_mul",
                                           "Add:cell_state#0.0_add",
                                           "AvgPool:output_state#0.0_tanh",
                                           "Mul:output_state#0.0_mul",
                                           "AvgPool:seq#0.0"};
  const std::vector<std::string> all = describeOperations(subgraph);
  BOOST_REQUIRE_EQUAL(all.size(), 36U);
  BOOST_TEST(std::vector<std::string>(all.begin(), all.begin() + 18) == firstStep, boost::test_tools::per_element());
  BOOST_TEST(all[18] == "FullyConnected:output_gate#0.1:output_state#0.0_mul_tens0_fc");
  BOOST_TEST(countPlacements(lowered).npuOperations == 36);
}

BOOST_AUTO_TEST_CASE(the_feature_and_state_reads_become_offsets_of_the_fully_connected_layers) {
  const Graph lowered = lowerForTest(lstmOverTwoTimeSteps().graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  for (const Operation& op : subgraph.operations) {
    BOOST_TEST(op.type != OpType::SplitSliceRead);
  }
  const Operation& featureFc = subgraph.operations[19]; // output_gate#0.1 reading the second feature
  BOOST_TEST(subgraph.tensor(featureFc.ifm()).name == "in");
  BOOST_REQUIRE(featureFc.readOffsets[0].has_value());
  BOOST_TEST(*featureFc.readOffsets[0] == (Shape4{0, 0, 1, 0}));
  BOOST_TEST(*featureFc.readShapes[0] == (Shape4{1, 1, 1, 3}));
}

BOOST_AUTO_TEST_CASE(the_states_are_written_into_the_variable_tensors_buffers) {
  const Graph lowered = lowerForTest(lstmOverTwoTimeSteps().graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  const auto find = [&](const std::string& name) -> const Operation& {
    for (const Operation& op : subgraph.operations) {
      if (op.name == name) {
        return op;
      }
    }
    throw std::runtime_error("no operation " + name);
  };
  const Operation& cellUpdate = find("cell_state#0.1_add");
  BOOST_TEST(cellUpdate.attributes.getOr<std::string>("memory_function", "") == "VariableTensorWrite");
  BOOST_TEST(subgraph.tensor(cellUpdate.ofm()).type == DataType::Int16);
  BOOST_TEST(subgraph.tensor(cellUpdate.ofm()).format == TensorFormat::NHWC);
  const Operation& firstForget = find("cell_state#0.0_cf_mul");
  const Tensor& variable = subgraph.tensor(firstForget.ifm());
  BOOST_TEST(variable.name == "cstate"); // the first step reads the variable itself
  BOOST_TEST(variable.equivalenceId >= 0);
  BOOST_TEST(subgraph.tensor(cellUpdate.ofm()).equivalenceId == variable.equivalenceId);
  const Operation& outputWrite = find("seq#0.1");
  BOOST_REQUIRE(outputWrite.writeOffset.has_value());
  BOOST_TEST(*outputWrite.writeOffset == (Shape4{0, 0, 1, 0}));
  BOOST_TEST(subgraph.tensor(outputWrite.ofm()).name == "seq");
  // The gates' Add carries the gate function.
  BOOST_TEST(find("input_gate#0.0_add").activation->type == OpType::Sigmoid);
  BOOST_TEST(find("cell_gate#0.0_add").activation->type == OpType::Tanh);
  BOOST_TEST(find("output_state#0.0_tanh").activation->type == OpType::Tanh);
}

BOOST_AUTO_TEST_CASE(a_batch_of_two_is_unrolled_per_batch_reading_and_writing_its_row_of_the_states) {
  const Graph lowered = lowerForTest(lstmOverTwoTimeSteps(2).graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(subgraph.operations.size() == 2U * 2U * 18U);
  int checked = 0;
  for (const Operation& op : subgraph.operations) {
    if (op.name == "cell_state#1.0_add") {
      ++checked;
      BOOST_REQUIRE(op.writeOffset.has_value());
      BOOST_TEST(*op.writeOffset == (Shape4{0, 0, 1, 0})); // batch 1 of the [2, 4] cell state
    }
    if (op.name == "seq#1.1") {
      ++checked;
      BOOST_TEST(*op.writeOffset == (Shape4{0, 1, 1, 0})); // batch 1, time 1 of the [2, 2, 4] output
    }
  }
  BOOST_TEST(checked == 2);
}

BOOST_AUTO_TEST_CASE(a_time_major_lstm_computes_all_batches_in_each_step) {
  const Graph lowered = lowerForTest(lstmOverTwoTimeSteps(3, true).graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_TEST(subgraph.operations.size() == 2U * 18U);
  int checked = 0;
  for (const Operation& op : subgraph.operations) {
    if (op.name == "seq#0.1") {
      ++checked;
      BOOST_TEST(*op.writeOffset == (Shape4{0, 1, 0, 0})); // time 1 of the [2, 3, 4] output
      BOOST_TEST(op.ifmShapes[0] == (Shape4{1, 1, 3, 4}));
    }
  }
  BOOST_TEST(checked == 1);
}

BOOST_AUTO_TEST_CASE(a_large_unrolled_lstm_lowers_to_every_step_s_operations) {
  // Issue 13: lowering was quadratic in the unrolled operations (an LSTM of 64 x 28 steps took over a
  // minute). How its time grows is measured by bench/lstm_scaling.py, not by a timed test; this checks that
  // a large unrolling (36,864 operations) comes out whole.
  const Graph lowered = lowerGraph(lstmOverTwoTimeSteps(1024).graph, FakeAccelerator{}, LoweringOptions{false});
  BOOST_TEST(lowered.subgraphs.front().operations.size() == 1024U * 2U * 18U);
}

BOOST_AUTO_TEST_CASE(an_lstm_beyond_the_unrolling_budget_stays_on_the_cpu_with_the_reason) {
  const Graph lowered =
      lowerForTest(lstmOverTwoTimeSteps(static_cast<int>(kMaxUnrolledLstmSteps / 2) + 1).graph, FakeAccelerator{});
  const Subgraph& subgraph = lowered.subgraphs.front();
  BOOST_REQUIRE_EQUAL(subgraph.operations.size(), 1U);
  BOOST_TEST((subgraph.operations[0].placement == Placement::Cpu));
  BOOST_TEST(subgraph.operations[0].placementReason.find("would unroll into more than 2048 steps") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
