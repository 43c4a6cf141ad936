// SPDX-License-Identifier: Apache-2.0
#include "lowering_test_support.hpp"

#include "ethosu_lowering/lowering.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

#include "npu/core/diagnostics.hpp"

#include <set>

namespace ethosu::lowering::test {

using namespace npu;

SupportVerdict FakeSupport::check(const Subgraph& /*subgraph*/, const Operation& op) const {
  const auto it = unsupported.find(op.type);
  if (it == unsupported.end()) {
    return {};
  }
  return {false, "fake_constraint", it->second};
}

FakeAccelerator::FakeAccelerator(std::string variant) {
  info_.variant = std::move(variant);
}

namespace {
[[noreturn]] void notInTests(const char* what) {
  throwInternalError(std::string("the fake accelerator has no ") + what);
}
} // namespace

const MemorySystem& FakeAccelerator::memory() const {
  notInTests("memory system");
}
const TensorLayout& FakeAccelerator::layout() const {
  notInTests("tensor layout");
}
const BlockConfigSelector& FakeAccelerator::blockConfigs() const {
  notInTests("block configs");
}
const WeightEncoder& FakeAccelerator::weights() const {
  notInTests("weight encoder");
}
const CostModel& FakeAccelerator::costModel() const {
  notInTests("cost model");
}

GraphBuilder::GraphBuilder() {
  graph.name = "test";
  graph.subgraphs.emplace_back();
  graph.subgraphs.front().name = "main";
}

TensorId GraphBuilder::featureMap(const std::string& name, Shape shape, DataType type, double scale,
                                  std::int64_t zeroPoint) {
  Quantisation quantisation;
  quantisation.scale = {scale};
  quantisation.zeroPoint = {zeroPoint};
  return addFeatureMap(subgraph(), name, std::move(shape), type, quantisation);
}

TensorId GraphBuilder::input(const std::string& name, Shape shape, DataType type) {
  const TensorId id = featureMap(name, std::move(shape), type);
  subgraph().inputs.push_back(id);
  return id;
}

TensorId GraphBuilder::constant(const std::string& name, Shape shape, DataType type,
                                const std::vector<std::int64_t>& values, double scale) {
  Quantisation quantisation;
  quantisation.scale = {scale};
  quantisation.zeroPoint = {0};
  return addConstant(subgraph(), name, std::move(shape), type, values, quantisation);
}

TensorId GraphBuilder::weights(const std::string& name, Shape shape) {
  const std::vector<std::int64_t> values(static_cast<std::size_t>(shape.elements()), 1);
  return constant(name, std::move(shape), DataType::Int8, values);
}

Operation& GraphBuilder::operation(OpType type, const std::string& sourceType, std::vector<TensorId> inputs,
                                   std::vector<TensorId> outputs) {
  Operation op;
  op.type = type;
  op.sourceType = sourceType;
  op.sourceIndex = static_cast<std::int32_t>(subgraph().operations.size());
  op.name = subgraph().tensor(outputs.front()).name;
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  subgraph().operations.push_back(std::move(op));
  return subgraph().operations.back();
}

Operation& GraphBuilder::conv(TensorId ifm, TensorId ofm, int kernel, int stride, Padding padding) {
  const int ifmDepth = subgraph().tensor(ifm).shape.back(0);
  const int ofmDepth = subgraph().tensor(ofm).shape.back(0);
  const std::string name = subgraph().tensor(ofm).name;
  const TensorId w = weights(name + "_weights", Shape{ofmDepth, kernel, kernel, ifmDepth});
  const TensorId b = constant(name + "_bias", Shape{ofmDepth}, DataType::Int32,
                              std::vector<std::int64_t>(static_cast<std::size_t>(ofmDepth), 0));
  Operation& op = operation(OpType::Conv2DBias, "CONV_2D", {ifm, w, b}, {ofm});
  Kernel k;
  k.width = kernel;
  k.height = kernel;
  k.strideX = stride;
  k.strideY = stride;
  op.kernel = k;
  op.padding = padding;
  return op;
}

GraphBuilder lstmOverTwoTimeSteps(int batches, bool timeMajor) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", timeMajor ? Shape{2, batches, 3} : Shape{batches, 2, 3});
  std::vector<TensorId> inputs{in};
  for (const char* gate : {"input", "forget", "cell", "output"}) {
    inputs.push_back(builder.weights(std::string(gate) + "_w", Shape{4, 3}));
  }
  for (const char* gate : {"input", "forget", "cell", "output"}) {
    inputs.push_back(builder.weights(std::string(gate) + "_r", Shape{4, 4}));
  }
  inputs.insert(inputs.end(), 3, kNoTensor); // no peepholes
  for (const char* gate : {"input", "forget", "cell", "output"}) {
    inputs.push_back(
        builder.constant(std::string(gate) + "_b", Shape{4}, DataType::Int32, std::vector<std::int64_t>(4, 0)));
  }
  inputs.insert(inputs.end(), 2, kNoTensor); // no projection
  const TensorId outputState = builder.featureMap("ostate", Shape{batches, 4}, DataType::Int8, 0.02, 0);
  const TensorId cellState = builder.featureMap("cstate", Shape{batches, 4}, DataType::Int16, 1.0 / 2048, 0);
  builder.subgraph().tensor(outputState).isVariable = true;
  builder.subgraph().tensor(cellState).isVariable = true;
  inputs.push_back(outputState);
  inputs.push_back(cellState);
  inputs.insert(inputs.end(), 4, kNoTensor); // no layer normalisation
  const TensorId out =
      builder.featureMap("seq", timeMajor ? Shape{2, batches, 4} : Shape{batches, 2, 4}, DataType::Int8, 0.02, 0);
  Operation& lstm =
      builder.operation(OpType::UnidirectionalSequenceLstm, "UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, {out});
  lstm.attributes.set("time_major", timeMajor);
  for (int i = 0; i < 5; ++i) {
    lstm.intermediates.push_back(builder.featureMap("hidden" + std::to_string(i), Shape{4}, DataType::Int8, 0.01, 0));
  }
  builder.output(out);
  return builder;
}

Graph lowerForTest(Graph graph, const FakeAccelerator& accelerator) {
  return lowerGraph(std::move(graph), accelerator, LoweringOptions{true});
}

std::vector<std::string> operationsTheNpuCannotRun(const Graph& graph) {
  static const std::set<OpType> kHardwareOperations{OpType::Conv2DBias,
                                                    OpType::DepthwiseConv2DBias,
                                                    OpType::FullyConnected,
                                                    OpType::Conv2DBackpropInputSwitchedBias,
                                                    OpType::AvgPool,
                                                    OpType::MaxPool,
                                                    OpType::ReduceSum,
                                                    OpType::ResizeBilinear,
                                                    OpType::ResizeNearestNeighbor,
                                                    OpType::Add,
                                                    OpType::Sub,
                                                    OpType::Mul,
                                                    OpType::Maximum,
                                                    OpType::Minimum,
                                                    OpType::SHL,
                                                    OpType::SHR,
                                                    OpType::Abs,
                                                    OpType::CLZ,
                                                    OpType::LeakyRelu,
                                                    OpType::Memcpy};
  std::vector<std::string> result;
  for (const Subgraph& subgraph : graph.subgraphs) {
    for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
      const Operation& op = subgraph.operations[i];
      if (op.placement == Placement::Npu && kHardwareOperations.count(op.type) == 0) {
        result.push_back(subgraph.describe(static_cast<OperationId>(i)));
      }
    }
  }
  return result;
}

std::vector<std::string> describeOperations(const Subgraph& subgraph) {
  std::vector<std::string> result;
  for (const Operation& op : subgraph.operations) {
    result.push_back(std::string(nameOf(op.type)) + ":" + op.name);
  }
  return result;
}

} // namespace ethosu::lowering::test
