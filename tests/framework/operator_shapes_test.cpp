// SPDX-License-Identifier: Apache-2.0
// verifyOperatorShapes: the shape relations each operator type implies, checked before lowering so a
// malformed model is rejected with the operator named (issue 13, item 1).
#include "npu/ir/graph_algorithms.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <functional>

namespace {

using namespace npu;

TensorId addTensor(Subgraph& subgraph, const std::string& name, Shape shape) {
  Tensor tensor;
  tensor.name = name;
  tensor.shape = std::move(shape);
  tensor.type = DataType::Int8;
  return subgraph.addTensor(std::move(tensor));
}

/// A graph of one operation reading `inputs` (name, shape) and writing "ofm" of `ofmShape`.
Graph oneOperation(OpType type, const std::vector<std::pair<std::string, Shape>>& inputs, Shape ofmShape,
                   const std::function<void(Operation&)>& configure = {}) {
  Graph graph;
  Subgraph& subgraph = graph.subgraphs.emplace_back();
  subgraph.name = "main";
  Operation op;
  op.type = type;
  op.name = "op";
  for (const auto& [name, shape] : inputs) {
    op.inputs.push_back(name.empty() ? kNoTensor : addTensor(subgraph, name, shape));
  }
  op.outputs = {addTensor(subgraph, "ofm", std::move(ofmShape))};
  if (configure) {
    configure(op);
  }
  subgraph.addOperation(std::move(op));
  return graph;
}

void convolutionKernel(Operation& op, int size, Padding padding = Padding::Valid) {
  op.kernel = Kernel{size, size, 1, 1, 1, 1};
  op.padding = padding;
}

bool rejectedFor(const Graph& graph, const std::string& text) {
  const auto issues = verifyOperatorShapes(graph);
  for (const auto& issue : issues) {
    if (issue.message.find(text) != std::string::npos) {
      return true;
    }
  }
  BOOST_TEST_MESSAGE("issues: " << issues.size() << (issues.empty() ? "" : " first: " + issues.front().message));
  return false;
}

} // namespace

BOOST_AUTO_TEST_SUITE(operator_shapes)

BOOST_AUTO_TEST_CASE(a_consistent_convolution_passes) {
  const Graph graph = oneOperation(OpType::Conv2DBias, {{"ifm", {1, 8, 8, 4}}, {"w", {6, 3, 3, 4}}, {"b", {6}}},
                                   {1, 6, 6, 6}, [](Operation& op) { convolutionKernel(op, 3); });
  BOOST_TEST(verifyOperatorShapes(graph).empty());
}

BOOST_AUTO_TEST_CASE(a_fully_connected_layer_declaring_more_outputs_than_its_weights_is_rejected) {
  const Graph graph = oneOperation(OpType::FullyConnected, {{"ifm", {1, 1}}, {"w", {16, 1}}, {"b", {16}}}, {1, 49});
  BOOST_TEST(rejectedFor(graph, "has 49 channels but the weights 'w' of shape [16, 1] gives 16"));
  BOOST_TEST(rejectedFor(graph, "operator 0 'op'"));
}

BOOST_AUTO_TEST_CASE(a_fully_connected_layer_reading_rows_its_weights_do_not_take_is_rejected) {
  const Graph graph = oneOperation(OpType::FullyConnected, {{"ifm", {1, 10}}, {"w", {4, 3}}}, {1, 4});
  BOOST_TEST(rejectedFor(graph, "cannot be read as rows of the 3 inputs"));
}

BOOST_AUTO_TEST_CASE(a_fully_connected_layer_with_a_short_bias_is_rejected) {
  const Graph graph = oneOperation(OpType::FullyConnected, {{"ifm", {2, 3}}, {"w", {4, 3}}, {"b", {3}}}, {2, 4});
  BOOST_TEST(rejectedFor(graph, "the bias 'b' has 3 values for 4 output channels"));
}

BOOST_AUTO_TEST_CASE(a_fully_connected_layer_keeps_its_batch_rows) {
  const Graph good = oneOperation(OpType::FullyConnected, {{"ifm", {2, 3}}, {"w", {4, 3}}}, {2, 4});
  BOOST_TEST(verifyOperatorShapes(good).empty());
  const Graph bad = oneOperation(OpType::FullyConnected, {{"ifm", {2, 3}}, {"w", {4, 3}}}, {1, 4});
  BOOST_TEST(rejectedFor(bad, "does not hold the 2 rows of 4 outputs"));
}

BOOST_AUTO_TEST_CASE(a_depthwise_convolution_whose_output_depth_differs_from_its_weights_is_rejected) {
  const Graph graph =
      oneOperation(OpType::DepthwiseConv2DBias, {{"ifm", {1, 12, 12, 16}}, {"w", {1, 3, 3, 16}}, {"b", {16}}},
                   {1, 12, 12, 16001}, [](Operation& op) { convolutionKernel(op, 3, Padding::Same); });
  BOOST_TEST(rejectedFor(graph, "has 16001 channels"));
}

BOOST_AUTO_TEST_CASE(a_convolution_batch_change_is_rejected) {
  const Graph graph = oneOperation(OpType::Conv2DBias, {{"ifm", {1, 4, 4, 2}}, {"w", {2, 1, 1, 2}}}, {3, 4, 4, 2},
                                   [](Operation& op) { convolutionKernel(op, 1); });
  BOOST_TEST(rejectedFor(graph, "has batch 1 but the OFM 'ofm' has batch 3"));
}

BOOST_AUTO_TEST_CASE(a_kernel_larger_than_the_input_with_valid_padding_is_rejected) {
  const Graph graph = oneOperation(OpType::Conv2DBias, {{"ifm", {1, 2, 2, 1}}, {"w", {1, 5, 5, 1}}}, {1, 1, 1, 1},
                                   [](Operation& op) { convolutionKernel(op, 5); });
  BOOST_TEST(rejectedFor(graph, "does not fit the IFM"));
}

BOOST_AUTO_TEST_CASE(an_output_size_the_strides_and_padding_do_not_give_is_rejected) {
  const Graph graph = oneOperation(OpType::Conv2DBias, {{"ifm", {1, 8, 8, 1}}, {"w", {1, 3, 3, 1}}}, {1, 8, 8, 1},
                                   [](Operation& op) { convolutionKernel(op, 3, Padding::Valid); });
  BOOST_TEST(rejectedFor(graph, "give 6x6"));
  const Graph same = oneOperation(OpType::Conv2DBias, {{"ifm", {1, 8, 8, 1}}, {"w", {1, 3, 3, 1}}}, {1, 8, 8, 1},
                                  [](Operation& op) { convolutionKernel(op, 3, Padding::Same); });
  BOOST_TEST(verifyOperatorShapes(same).empty());
}

BOOST_AUTO_TEST_CASE(per_channel_weight_scales_must_follow_the_output_channels) {
  Graph graph = oneOperation(OpType::Conv2DBias, {{"ifm", {1, 4, 4, 3}}, {"w", {2, 1, 1, 3}}}, {1, 4, 4, 2},
                             [](Operation& op) { convolutionKernel(op, 1); });
  Tensor& weights = graph.subgraphs[0].tensors[1];
  weights.quantisation.scale = {0.1, 0.2, 0.3};
  weights.quantisation.axis = 3;
  BOOST_TEST(rejectedFor(graph, "quantised with 3 scales for 2 output channels"));
  weights.quantisation.scale = {0.1, 0.2};
  weights.quantisation.axis = 0;
  BOOST_TEST(verifyOperatorShapes(graph).empty());
}

BOOST_AUTO_TEST_CASE(an_lstm_whose_input_batch_disagrees_with_its_output_is_rejected) {
  std::vector<std::pair<std::string, Shape>> inputs{{"ifm", {245, 28, 28}}};
  for (int i = 1; i < 18; ++i) {
    inputs.emplace_back(i <= 4 ? "w" + std::to_string(i) : "", i <= 4 ? Shape{20, 28} : Shape{});
  }
  inputs.emplace_back("output_state", Shape{1, 20});
  inputs.emplace_back("cell_state", Shape{1, 20});
  const Graph graph = oneOperation(OpType::UnidirectionalSequenceLstm, inputs, {1, 28, 20});
  BOOST_TEST(rejectedFor(graph, "does not have the batch and time steps of the IFM"));
}

BOOST_AUTO_TEST_CASE(an_lstm_state_without_a_row_per_batch_is_rejected) {
  std::vector<std::pair<std::string, Shape>> inputs{{"ifm", {2, 28, 28}}};
  for (int i = 1; i < 18; ++i) {
    inputs.emplace_back("", Shape{});
  }
  inputs.emplace_back("output_state", Shape{1, 20});
  inputs.emplace_back("cell_state", Shape{2, 20});
  const Graph graph = oneOperation(OpType::UnidirectionalSequenceLstm, inputs, {2, 28, 20});
  BOOST_TEST(rejectedFor(graph, "the state 'output_state' of shape [1, 20] does not hold one row for each of the 2"));
}

BOOST_AUTO_TEST_CASE(a_binary_elementwise_input_that_does_not_broadcast_is_rejected) {
  const Graph good = oneOperation(OpType::Add, {{"a", {1, 4, 4, 8}}, {"b", {8}}}, {1, 4, 4, 8});
  BOOST_TEST(verifyOperatorShapes(good).empty());
  const Graph bad = oneOperation(OpType::Add, {{"a", {1, 4, 4, 8}}, {"b", {3}}}, {1, 4, 4, 8});
  BOOST_TEST(rejectedFor(bad, "does not broadcast"));
  const Graph larger = oneOperation(OpType::Mul, {{"a", {1, 4, 4, 8}}, {"b", {1, 4, 4, 8}}}, {1, 4, 4, 16});
  BOOST_TEST(rejectedFor(larger, "does not broadcast"));
}

BOOST_AUTO_TEST_CASE(a_concatenation_whose_sizes_do_not_add_up_is_rejected) {
  const auto concat = [](Shape ofm) {
    return oneOperation(OpType::ConcatTFLite, {{"a", {1, 2, 3}}, {"b", {1, 2, 5}}}, std::move(ofm),
                        [](Operation& op) { op.attributes.set("axis", std::int64_t{-1}); });
  };
  BOOST_TEST(verifyOperatorShapes(concat({1, 2, 8})).empty());
  BOOST_TEST(rejectedFor(concat({1, 2, 9}), "add up to 8 along axis 2"));
  BOOST_TEST(rejectedFor(concat({1, 3, 8}), "outside the axis 2"));
}

BOOST_AUTO_TEST_CASE(a_split_part_that_is_no_slice_of_its_input_is_rejected) {
  // fuzz_pipeline seed 12: SPLIT of [1, 34, 7, 8] along the channels into [1, 98, 7, 4] and [1, 34, 7, 4].
  const auto split = [](Shape part) {
    return oneOperation(OpType::Split, {{"axis", Shape{}}, {"input", Shape{1, 34, 7, 8}}}, std::move(part));
  };
  BOOST_TEST(rejectedFor(split(Shape{1, 98, 7, 4}), "is not a slice of the input 'input'"));
  BOOST_TEST(rejectedFor(split(Shape{1, 34, 7, 9}), "is not a slice"));
  BOOST_TEST(verifyOperatorShapes(split(Shape{1, 34, 7, 4})).empty());
}

BOOST_AUTO_TEST_CASE(a_reshape_that_changes_the_element_count_is_rejected) {
  const Graph graph = oneOperation(OpType::Reshape, {{"ifm", {1, 28, 20}}}, {1, 561});
  BOOST_TEST(rejectedFor(graph, "does not hold the 560 elements"));
}

BOOST_AUTO_TEST_CASE(pooling_keeps_depth_and_batch) {
  const Graph graph = oneOperation(OpType::MaxPool, {{"ifm", {1, 8, 8, 4}}}, {1, 4, 4, 5}, [](Operation& op) {
    op.kernel = Kernel{2, 2, 2, 2, 1, 1};
    op.padding = Padding::Valid;
  });
  BOOST_TEST(rejectedFor(graph, "has 5 channels but pooling the IFM 'ifm' gives 4"));
}

BOOST_AUTO_TEST_CASE(two_ethos_u_operators_may_write_one_tensor_but_two_other_operators_may_not) {
  // Vela 3.10's output model: a concatenation one NPU program writes in part, a later one completes.
  for (const bool ethosU : {true, false}) {
    Graph graph;
    Subgraph& subgraph = graph.subgraphs.emplace_back();
    subgraph.name = "main";
    const TensorId shared = addTensor(subgraph, "concatenation", Shape{1, 4, 4, 8});
    for (int i = 0; i < 2; ++i) {
      Operation op;
      op.type = ethosU ? OpType::Custom : OpType::Add;
      op.name = "writer" + std::to_string(i);
      if (ethosU) {
        op.attributes.set("custom_code", std::string("ethos-u"));
      }
      op.outputs = {shared};
      subgraph.addOperation(std::move(op));
    }
    BOOST_TEST(verifyGraph(graph).empty() == ethosU);
  }
}

BOOST_AUTO_TEST_SUITE_END()
