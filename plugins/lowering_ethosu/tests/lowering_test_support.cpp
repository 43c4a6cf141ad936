#include "lowering_test_support.hpp"

#include "ethosu_lowering/lowering.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

#include "npu/core/diagnostics.hpp"

namespace ethosu::lowering::test {

using namespace npu;

SupportVerdict FakeSupport::check(const Subgraph& /*subgraph*/, const Operation& op) const {
  const auto it = unsupported.find(op.type);
  if (it == unsupported.end()) {
    return {};
  }
  return {false, "fake_constraint", it->second};
}

FakeAccelerator::FakeAccelerator(std::string variant) { info_.variant = std::move(variant); }

namespace {
[[noreturn]] void notInTests(const char* what) {
  throwInternalError(std::string("the fake accelerator has no ") + what);
}
} // namespace

const MemorySystem& FakeAccelerator::memory() const { notInTests("memory system"); }
const TensorLayout& FakeAccelerator::layout() const { notInTests("tensor layout"); }
const BlockConfigSelector& FakeAccelerator::blockConfigs() const { notInTests("block configs"); }
const WeightEncoder& FakeAccelerator::weights() const { notInTests("weight encoder"); }
const CostModel& FakeAccelerator::costModel() const { notInTests("cost model"); }

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

Graph lowerForTest(Graph graph, const FakeAccelerator& accelerator) {
  return lowerGraph(std::move(graph), accelerator, LoweringOptions{true});
}

std::vector<std::string> describeOperations(const Subgraph& subgraph) {
  std::vector<std::string> result;
  for (const Operation& op : subgraph.operations) {
    result.push_back(std::string(nameOf(op.type)) + ":" + op.name);
  }
  return result;
}

} // namespace ethosu::lowering::test
