// SPDX-License-Identifier: Apache-2.0
#include "frontend_tflite/model_reader.hpp"
#include "test_models.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

namespace {

using namespace npu::tflite_frontend::test;
using tflite::BuiltinOperator;
using tflite::BuiltinOptions;
using tflite::TensorType;

TensorSpec int8Tensor(std::string name, std::vector<int> shape) {
  return TensorSpec{std::move(name), std::move(shape), TensorType::INT8, quantised(0.5F, 0), 0, false};
}

/// Subgraph 0 ("main") calls subgraph 1 (unnamed: TFLite allows it) with CALL; subgraph 1 adds one.
Bytes twoSubgraphModel() {
  TfliteModelBuilder builder;
  auto& fbb = builder.flatbuffers();
  const std::uint32_t main = builder.addSubgraph("main");
  const std::uint32_t body = builder.addSubgraph("");
  const std::int32_t in = builder.addTensor(main, int8Tensor("in", {1, 4}));
  const std::int32_t out = builder.addTensor(main, int8Tensor("out", {1, 4}));
  builder.addOperator(main, OperatorSpec{builder.addOperatorCode(BuiltinOperator::CALL),
                                         {in},
                                         {out},
                                         {},
                                         BuiltinOptions::CallOptions,
                                         tflite::CreateCallOptions(fbb, 1).Union(),
                                         {}});
  builder.setInputs(main, {in});
  builder.setOutputs(main, {out});
  const std::int32_t x = builder.addTensor(body, int8Tensor("x", {1, 4}));
  const std::int32_t y = builder.addTensor(body, int8Tensor("y", {1, 4}));
  builder.addOperator(body, OperatorSpec{builder.addOperatorCode(BuiltinOperator::ADD),
                                         {x, x},
                                         {y},
                                         {},
                                         BuiltinOptions::AddOptions,
                                         tflite::CreateAddOptions(fbb).Union(),
                                         {}});
  builder.setInputs(body, {x});
  builder.setOutputs(body, {y});
  return builder.finish("two subgraphs");
}

} // namespace

BOOST_AUTO_TEST_SUITE(model_reader)

BOOST_AUTO_TEST_CASE(every_subgraph_is_read_and_unnamed_ones_keep_their_empty_name) {
  const npu::Graph graph = read(twoSubgraphModel());
  BOOST_TEST_REQUIRE(graph.subgraphs.size() == 2U);
  BOOST_TEST(graph.subgraphs[0].name == "main");
  BOOST_TEST(graph.subgraphs[1].name.empty()); // written back as it was, as Vela does
  const npu::Operation& call = graph.subgraphs[0].operations[0];
  BOOST_TEST((call.type == npu::OpType::Call));
  BOOST_TEST(call.attributes.getOr<std::int64_t>("subgraph", -1) == 1);
  const npu::Operation& add = graph.subgraphs[1].operations[0];
  BOOST_TEST((add.type == npu::OpType::Add));
  BOOST_TEST(add.name == "y");
  BOOST_TEST(add.sourceIndex == 0);
  BOOST_TEST((graph.subgraphs[1].inputs == std::vector<npu::TensorId>{0}));
}

BOOST_AUTO_TEST_CASE(the_graph_is_named_after_the_file_and_keeps_the_description) {
  const npu::Graph graph = npu::tflite_frontend::readModel(twoSubgraphModel(), "/models/my_net.v2.tflite");
  BOOST_TEST(graph.name == "my_net.v2");
  BOOST_TEST(graph.sourcePath == "/models/my_net.v2.tflite");
  BOOST_TEST(graph.description == "two subgraphs");
}

BOOST_AUTO_TEST_CASE(a_model_file_is_read_from_disk) {
  const npu::test::TemporaryDirectory directory;
  const auto file = directory.path() / "small.tflite";
  const Bytes& bytes = smallGeneratedModel();
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const npu::Graph graph = npu::tflite_frontend::readModelFile(file);
  BOOST_TEST(graph.name == "small");
  BOOST_TEST(graph.subgraphs[0].operations.size() == read(bytes).subgraphs[0].operations.size());
}

BOOST_AUTO_TEST_CASE(custom_operators_keep_their_code_and_options) {
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  const std::int32_t in = builder.addTensor(main, int8Tensor("in", {1, 4}));
  const std::int32_t out = builder.addTensor(main, int8Tensor("out", {1, 4}));
  builder.addOperator(
      main,
      OperatorSpec{
          builder.addCustomOperatorCode("ethos-u"), {in}, {out}, {}, BuiltinOptions::NONE, {}, {0x01, 0x04, 0x01}});
  const npu::Operation op = read(builder.finish("")).subgraphs[0].operations[0];
  BOOST_TEST((op.type == npu::OpType::Custom));
  BOOST_TEST(op.sourceType == "CUSTOM:ethos-u");
  BOOST_TEST(op.attributes.getOr<std::string>("custom_code", "") == "ethos-u");
  BOOST_TEST(op.attributes.getOr<std::vector<std::int64_t>>("custom_options", {}) ==
                 (std::vector<std::int64_t>{1, 4, 1}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(builtins_without_an_ir_type_are_unknown_but_keep_their_tflite_name) {
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  const std::int32_t in = builder.addTensor(main, int8Tensor("in", {1, 4}));
  const std::int32_t out = builder.addTensor(main, int8Tensor("out", {1, 4}));
  builder.addOperator(
      main,
      OperatorSpec{
          builder.addOperatorCode(BuiltinOperator::STABLEHLO_ABS), {in}, {out}, {}, BuiltinOptions::NONE, {}, {}});
  const npu::Operation op = read(builder.finish("")).subgraphs[0].operations[0];
  BOOST_TEST((op.type == npu::OpType::Unknown));
  BOOST_TEST(op.sourceType == "STABLEHLO_ABS");
}

BOOST_AUTO_TEST_CASE(omitted_optional_inputs_become_no_tensor_and_intermediates_are_kept) {
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  const std::int32_t in = builder.addTensor(main, int8Tensor("in", {1, 16}));
  const std::int32_t weights = builder.addTensor(
      main, TensorSpec{"w", {4, 16}, TensorType::INT8, quantised(0.1F, 0), addCountingBuffer(builder, 64), false});
  const std::int32_t scratch = builder.addTensor(main, int8Tensor("scratch", {1, 4}));
  const std::int32_t out = builder.addTensor(main, int8Tensor("out", {1, 4}));
  builder.addOperator(main, OperatorSpec{builder.addOperatorCode(BuiltinOperator::FULLY_CONNECTED),
                                         {in, weights, -1},
                                         {out},
                                         {scratch},
                                         BuiltinOptions::NONE,
                                         {},
                                         {}});
  const npu::Operation op = read(builder.finish("")).subgraphs[0].operations[0];
  BOOST_TEST((op.inputs == std::vector<npu::TensorId>{in, weights, npu::kNoTensor}));
  BOOST_TEST(op.bias() == npu::kNoTensor);
  BOOST_TEST((op.intermediates == std::vector<npu::TensorId>{scratch}));
}

BOOST_AUTO_TEST_CASE(an_operator_without_outputs_is_named_after_its_type_and_index) {
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  const std::int32_t handle = builder.addTensor(main, TensorSpec{"handle", {}, TensorType::RESOURCE, {}, 0, false});
  const std::int32_t value = builder.addTensor(main, int8Tensor("value", {4}));
  builder.addOperator(main, OperatorSpec{builder.addOperatorCode(BuiltinOperator::ASSIGN_VARIABLE),
                                         {handle, value},
                                         {},
                                         {},
                                         BuiltinOptions::NONE,
                                         {},
                                         {}});
  const npu::Operation op = read(builder.finish("")).subgraphs[0].operations[0];
  BOOST_TEST(op.name == "ASSIGN_VARIABLE_0");
  BOOST_TEST((op.type == npu::OpType::AssignVariable));
}

BOOST_AUTO_TEST_CASE(repeated_subgraph_inputs_and_outputs_are_kept_once) {
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  const std::int32_t in = builder.addTensor(main, int8Tensor("in", {4}));
  const std::int32_t out = builder.addTensor(main, int8Tensor("out", {4}));
  builder.addOperator(
      main,
      OperatorSpec{builder.addOperatorCode(BuiltinOperator::RELU), {in}, {out}, {}, BuiltinOptions::NONE, {}, {}});
  builder.setInputs(main, {in, in});
  builder.setOutputs(main, {out, out, out});
  const npu::Graph graph = read(builder.finish(""));
  BOOST_TEST((graph.subgraphs[0].inputs == std::vector<npu::TensorId>{in}));
  BOOST_TEST((graph.subgraphs[0].outputs == std::vector<npu::TensorId>{out}));
}

BOOST_AUTO_TEST_CASE(a_generated_network_reads_with_weights_and_biases_in_tflite_layout) {
  const npu::Graph graph = read(smallGeneratedModel());
  const npu::Subgraph& main = graph.subgraphs[0];
  const npu::Operation& stem = main.operations[0];
  BOOST_TEST((stem.type == npu::OpType::Conv2DBias));
  const npu::Tensor& weights = main.tensor(stem.weights());
  BOOST_TEST((weights.shape == npu::Shape{8, 3, 3, 3})); // OHWI
  BOOST_TEST(weights.quantisation.scale.size() == 8U);
  BOOST_TEST(weights.quantisation.axis == 0);
  const npu::Tensor& bias = main.tensor(stem.bias());
  BOOST_TEST((bias.type == npu::DataType::Int32));
  BOOST_TEST(bias.quantisation.scale.size() == 8U);
  BOOST_TEST((main.tensor(main.inputs[0]).shape == npu::Shape{1, 8, 8, 3}));
}

BOOST_AUTO_TEST_CASE(a_known_buffer_with_the_same_bytes_is_shared_and_one_that_differs_is_not) {
  const Bytes& bytes = smallGeneratedModel();
  const npu::Graph first = read(bytes);
  // Constants read from the file remember their buffer index as their equivalence id.
  std::vector<npu::ConstantBuffer> known;
  for (const npu::Tensor& tensor : first.subgraphs.at(0).tensors) {
    if (tensor.isConstant()) {
      const auto index = static_cast<std::size_t>(tensor.equivalenceId);
      known.resize(std::max(known.size(), index + 1));
      known[index] = tensor.data;
    }
  }
  BOOST_TEST_REQUIRE(known.size() > 2U);
  std::vector<std::uint8_t> changed = *known.back();
  changed.front() ^= 1U;
  known.back() = std::make_shared<const std::vector<std::uint8_t>>(changed);

  const npu::Graph second = npu::tflite_frontend::readModel(bytes, "test.tflite", known);
  int shared = 0;
  for (const npu::Tensor& tensor : second.subgraphs.at(0).tensors) {
    if (!tensor.isConstant()) {
      continue;
    }
    const auto index = static_cast<std::size_t>(tensor.equivalenceId);
    if (index + 1 == known.size()) {
      BOOST_TEST(tensor.data != known[index]); // the bytes differ: read as they are in the file
      BOOST_TEST((*tensor.data != changed));
    } else if (known[index] != nullptr) {
      BOOST_TEST(tensor.data == known[index]);
      ++shared;
    }
  }
  BOOST_TEST(shared > 0);
}

BOOST_AUTO_TEST_SUITE_END()
