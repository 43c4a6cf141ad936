// SPDX-License-Identifier: Apache-2.0
// The lowering with `vela_release: "2.1"` (Vela 2.1.1's remove_reshapes): RESHAPEs go without a copy,
// but never so that a CPU operation would see a tensor in another shape.
#include "lowering_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

namespace {

Graph lowerAsVela21(Graph graph, const FakeAccelerator& accelerator) {
  LoweringOptions options;
  options.verifyAfterEachPass = true;
  options.release = VelaRelease::V2_1;
  return lowerGraph(std::move(graph), accelerator, options);
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela21_lowering)

BOOST_AUTO_TEST_CASE(a_reshape_whose_input_has_another_reader_is_removed_where_vela_3_10_copies_it) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
  const TensorId conv = builder.featureMap("conv", Shape{1, 4, 4, 8});
  const TensorId flat = builder.featureMap("flat", Shape{1, 128});
  const TensorId out = builder.featureMap("out", Shape{1, 4, 4, 8});
  const TensorId shape = builder.constant("shape", Shape{2}, DataType::Int32, {1, 128});
  builder.conv(in, conv);
  builder.operation(OpType::Reshape, "RESHAPE", {conv, shape}, {flat});
  builder.conv(conv, out);
  builder.output(flat);
  builder.output(out);
  BOOST_TEST(describeOperations(lowerForTest(builder.graph, FakeAccelerator{}).subgraphs.front()) ==
             (std::vector<std::string>{"Conv2DBias:conv", "Conv2DBias:out", "Memcpy:flat"}));
  const Subgraph lowered = lowerAsVela21(builder.graph, FakeAccelerator{}).subgraphs.front();
  BOOST_TEST(describeOperations(lowered) == (std::vector<std::string>{"Conv2DBias:conv", "Conv2DBias:out"}));
  // The first writes the subgraph output, which the second reads.
  BOOST_TEST(lowered.tensor(lowered.operations[0].ofm()).name == "flat");
  BOOST_TEST(lowered.tensor(lowered.operations[1].ifm()).name == "flat");
}

BOOST_AUTO_TEST_CASE(a_chain_of_post_operations_is_one_pass_named_after_its_first) {
  // 2.1.1's pack_into_passes packs a TANH and the RELU before it (no main operation between them) into
  // one AvgPool nop pass from the RELU's IFM to the TANH's OFM; 3.10 keeps two passes.
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 4, 4, 8}, DataType::Int16);
  const TensorId relu = builder.featureMap("relu", Shape{1, 4, 4, 8}, DataType::Int16);
  const TensorId out = builder.featureMap("out", Shape{1, 4, 4, 8}, DataType::Int16);
  builder.operation(OpType::Relu, "RELU", {in}, {relu});
  builder.operation(OpType::Tanh, "TANH", {relu}, {out});
  builder.output(out);
  const Subgraph lowered = lowerAsVela21(builder.graph, FakeAccelerator{}).subgraphs.front();
  BOOST_REQUIRE_EQUAL(lowered.operations.size(), 1U);
  BOOST_TEST(lowered.operations[0].name == "relu_avgpool");
  BOOST_TEST(lowered.tensor(lowered.operations[0].ifm()).name == "in");
  BOOST_TEST(lowered.tensor(lowered.operations[0].ofm()).name == "out");
  BOOST_TEST(lowerForTest(builder.graph, FakeAccelerator{}).subgraphs.front().operations.size() == 2U);
}

BOOST_AUTO_TEST_CASE(a_reshape_next_to_a_cpu_operation_runs_on_the_cpu_instead_of_reshaping_its_tensor) {
  FakeAccelerator accelerator;
  accelerator.fakeSupport.unsupported[OpType::Tanh] = "not on this NPU";
  // A CPU producer whose output the reshape's (a subgraph output) would replace.
  GraphBuilder producer;
  const TensorId in = producer.input("in", Shape{1, 4, 4, 8});
  const TensorId tanh = producer.featureMap("tanh", Shape{1, 4, 4, 8});
  const TensorId flat = producer.featureMap("flat", Shape{1, 128});
  const TensorId shape = producer.constant("shape", Shape{2}, DataType::Int32, {1, 128});
  producer.operation(OpType::Tanh, "TANH", {in}, {tanh});
  producer.operation(OpType::Reshape, "RESHAPE", {tanh, shape}, {flat});
  producer.output(flat);
  const Subgraph first = lowerAsVela21(producer.graph, accelerator).subgraphs.front();
  BOOST_REQUIRE_EQUAL(first.operations.size(), 2U);
  BOOST_TEST(first.operations[1].type == OpType::Reshape);
  BOOST_TEST(first.operations[1].placement == Placement::Cpu);
  BOOST_TEST(first.tensor(first.operations[0].ofm()).shape == (Shape{1, 4, 4, 8}));
  // A CPU reader of the reshaped tensor.
  GraphBuilder reader;
  const TensorId input = reader.input("in", Shape{1, 4, 4, 8});
  const TensorId conv = reader.featureMap("conv", Shape{1, 4, 4, 8});
  const TensorId reshaped = reader.featureMap("reshaped", Shape{1, 128});
  const TensorId out = reader.featureMap("out", Shape{1, 128});
  const TensorId newShape = reader.constant("shape", Shape{2}, DataType::Int32, {1, 128});
  reader.conv(input, conv);
  reader.operation(OpType::Reshape, "RESHAPE", {conv, newShape}, {reshaped});
  reader.operation(OpType::Tanh, "TANH", {reshaped}, {out});
  reader.output(out);
  const Subgraph second = lowerAsVela21(reader.graph, accelerator).subgraphs.front();
  BOOST_REQUIRE_EQUAL(second.operations.size(), 3U);
  BOOST_TEST(second.operations[1].placement == Placement::Cpu);
  BOOST_TEST(second.tensor(second.operations[2].ifm()).name == "reshaped");
}

BOOST_AUTO_TEST_CASE(a_sixteen_bit_fully_connected_layer_without_a_bias_gets_an_int32_zero_bias) {
  // 2.1.1's fixup_bias_tensors adds an int32 bias whatever the IFM; 3.10's an int64 one for int16 IFMs.
  // The type sets the bursts of the pass's scale read (random_34 of the differential).
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 32}, DataType::Int16);
  const TensorId out = builder.featureMap("fc", Shape{1, 10}, DataType::Int16);
  const TensorId weights = builder.weights("w", Shape{10, 32});
  builder.operation(OpType::FullyConnected, "FULLY_CONNECTED", {in, weights, kNoTensor}, {out});
  builder.output(out);
  const Subgraph lowered = lowerAsVela21(builder.graph, FakeAccelerator{}).subgraphs.front();
  BOOST_REQUIRE_EQUAL(lowered.operations.size(), 1U);
  BOOST_REQUIRE(lowered.validTensorId(lowered.operations[0].bias()));
  BOOST_TEST(lowered.tensor(lowered.operations[0].bias()).type == DataType::Int32);
  const Subgraph asVela310 = lowerForTest(builder.graph, FakeAccelerator{}).subgraphs.front();
  BOOST_TEST(asVela310.tensor(asVela310.operations[0].bias()).type == DataType::Int64);
}

BOOST_AUTO_TEST_CASE(a_softmax_keeps_its_max_pool_output_linear_where_vela_3_10_stores_it_in_bricks) {
  // 2.1.1's get_graph_8bit and get_graph_int16 set avoid_NHCWB16 on the max pool's OFM (random_5 of
  // the differential: the Sub reads 48 bytes of it, not 768).
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 24, 1, 4}, DataType::Int16);
  const TensorId conv = builder.featureMap("conv", Shape{1, 24, 1, 4}, DataType::Int16);
  const TensorId out = builder.featureMap("sm", Shape{1, 24, 1, 4}, DataType::Int16);
  builder.conv(in, conv);
  builder.operation(OpType::Softmax, "SOFTMAX", {conv}, {out}).attributes.set("beta", 1.0);
  builder.output(out);
  const auto maxPoolOutput = [](const Subgraph& subgraph) {
    for (const Operation& op : subgraph.operations) {
      if (op.type == OpType::MaxPool) {
        return subgraph.tensor(op.ofm());
      }
    }
    BOOST_FAIL("no max pool");
    return Tensor{};
  };
  const Subgraph lowered = lowerAsVela21(builder.graph, FakeAccelerator{}).subgraphs.front();
  BOOST_TEST(maxPoolOutput(lowered).format == TensorFormat::NHWC);
  BOOST_TEST(maxPoolOutput(lowerForTest(builder.graph, FakeAccelerator{}).subgraphs.front()).format ==
             TensorFormat::NHCWB16);
}

namespace {

/// A CPU TANH and an NPU convolution beside a SQUEEZE, EXPAND_DIMS chain from graph input `a` (also the
/// TANH's input) to a graph output; `chainFirst` lists the chain's output first among the graph outputs.
Subgraph lowerSqueezeChain(bool chainFirst) {
  FakeAccelerator accelerator;
  accelerator.fakeSupport.unsupported[OpType::Tanh] = "not on this NPU";
  accelerator.fakeSupport.unsupported[OpType::Squeeze] = "not on this NPU";
  accelerator.fakeSupport.unsupported[OpType::ExpandDims] = "not on this NPU";
  GraphBuilder builder;
  const TensorId a = builder.input("a", Shape{1, 4, 1, 8});
  const TensorId b = builder.input("b", Shape{1, 4, 4, 8});
  const TensorId tanh = builder.featureMap("tanh", Shape{1, 4, 1, 8});
  const TensorId conv = builder.featureMap("conv", Shape{1, 4, 4, 8});
  const TensorId squeezed = builder.featureMap("squeezed", Shape{1, 4, 8});
  const TensorId expanded = builder.featureMap("expanded", Shape{1, 4, 1, 8});
  builder.operation(OpType::Tanh, "TANH", {a}, {tanh});
  builder.conv(b, conv);
  builder.operation(OpType::Squeeze, "SQUEEZE", {a}, {squeezed});
  builder.operation(OpType::ExpandDims, "EXPAND_DIMS", {squeezed}, {expanded});
  builder.output(conv);
  builder.output(chainFirst ? tanh : expanded);
  builder.output(chainFirst ? expanded : tanh);
  return lowerAsVela21(builder.graph, accelerator).subgraphs.front();
}

} // namespace

BOOST_AUTO_TEST_CASE(a_memory_only_chain_first_in_the_pass_list_stays_on_the_cpu_without_a_copy) {
  // 2.1.1's pass list is built walking back from the outputs: the SQUEEZE, EXPAND_DIMS chain of the
  // last output comes first, before the CPU TANH, so no NPU pass is beside it (in the model's order it
  // follows the NPU convolution). It stays on the CPU, and no AvgPool copies its graph input.
  const Subgraph lowered = lowerSqueezeChain(true);
  BOOST_TEST(describeOperations(lowered) ==
             (std::vector<std::string>{"Squeeze:squeezed", "ExpandDims:expanded", "Tanh:tanh", "Conv2DBias:conv"}));
  for (const Operation& op : lowered.operations) {
    BOOST_TEST((op.placement == Placement::Npu) == (op.type == OpType::Conv2DBias));
  }
}

BOOST_AUTO_TEST_CASE(a_copied_graph_input_is_copied_before_its_first_reader) {
  // Here the SQUEEZE, EXPAND_DIMS chain is beside the NPU convolution in 2.1.1's pass list, so it moves
  // to the NPU, and its graph input (also read by the CPU TANH) is copied for the graph output: every
  // reader reads the copy, which must come first (verifyAfterEachPass checks the order).
  const Subgraph lowered = lowerSqueezeChain(false);
  BOOST_TEST(describeOperations(lowered) ==
             (std::vector<std::string>{"AvgPool:a_avgpool", "Tanh:tanh", "Conv2DBias:conv"}));
  BOOST_TEST(lowered.tensor(lowered.operations[1].ifm()).name == "expanded");
}

BOOST_AUTO_TEST_SUITE_END()
