// SPDX-License-Identifier: Apache-2.0
#include "npu/conformance/accelerator_conformance.hpp"

#include <numeric>

namespace npu {

namespace {

class ProbeBuilder {
public:
  TensorId featureMap(const std::string& name, Shape shape) {
    Tensor tensor;
    tensor.name = name;
    tensor.shape = std::move(shape);
    tensor.type = DataType::Int8;
    tensor.purpose = TensorPurpose::FeatureMap;
    tensor.quantisation.scale = {0.05};
    tensor.quantisation.zeroPoint = {0};
    return subgraph_.addTensor(std::move(tensor));
  }

  /// Deterministic int8 weights with per-output-channel scales along axis 0.
  TensorId weights(const std::string& name, Shape shape, int channels) {
    Tensor tensor;
    tensor.name = name;
    tensor.type = DataType::Int8;
    tensor.purpose = TensorPurpose::Weights;
    std::vector<std::int8_t> values(static_cast<std::size_t>(shape.elements()));
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<std::int8_t>(static_cast<int>((i * 37 + 11) % 255) - 127);
    }
    tensor.data = makeConstantBuffer(std::span<const std::int8_t>(values));
    tensor.shape = std::move(shape);
    tensor.quantisation.scale.assign(static_cast<std::size_t>(channels), 0.01);
    tensor.quantisation.zeroPoint.assign(static_cast<std::size_t>(channels), 0);
    tensor.quantisation.axis = tensor.shape.rank() == 4 && tensor.shape[0] == 1 ? 3 : 0;
    tensor.equivalenceId = nextEquivalence_++;
    return subgraph_.addTensor(std::move(tensor));
  }

  TensorId bias(const std::string& name, int channels) {
    Tensor tensor;
    tensor.name = name;
    tensor.type = DataType::Int32;
    tensor.purpose = TensorPurpose::ScalesBiases;
    std::vector<std::int32_t> values(static_cast<std::size_t>(channels));
    std::iota(values.begin(), values.end(), -channels / 2);
    tensor.data = makeConstantBuffer(std::span<const std::int32_t>(values));
    tensor.shape = Shape{channels};
    tensor.quantisation.scale.assign(static_cast<std::size_t>(channels), 0.0005);
    tensor.quantisation.zeroPoint.assign(static_cast<std::size_t>(channels), 0);
    tensor.equivalenceId = nextEquivalence_++;
    return subgraph_.addTensor(std::move(tensor));
  }

  void operation(OpType type, const std::string& sourceType, std::vector<TensorId> inputs, TensorId output,
                 std::optional<Kernel> kernel, Padding padding = Padding::Valid) {
    Operation op;
    op.type = type;
    op.sourceType = sourceType;
    op.name = subgraph_.tensor(output).name;
    op.inputs = std::move(inputs);
    op.outputs = {output};
    op.kernel = kernel;
    op.padding = padding;
    op.placement = Placement::Npu;
    if (type == OpType::DepthwiseConv2DBias) {
      op.attributes.set("depth_multiplier", std::int64_t{1});
    }
    subgraph_.addOperation(std::move(op));
  }

  Subgraph take() { return std::move(subgraph_); }
  Subgraph& subgraph() { return subgraph_; }

private:
  Subgraph subgraph_;
  std::int64_t nextEquivalence_ = 1;
};

} // namespace

Graph conformanceProbeGraph() {
  ProbeBuilder build;
  build.subgraph().name = "conformance";
  const TensorId input = build.featureMap("input", Shape{1, 16, 16, 8});
  const TensorId conv = build.featureMap("conv3x3", Shape{1, 16, 16, 32});
  build.operation(OpType::Conv2DBias, "CONV_2D",
                  {input, build.weights("conv3x3_weights", Shape{32, 3, 3, 8}, 32), build.bias("conv3x3_bias", 32)},
                  conv, Kernel{3, 3, 1, 1, 1, 1}, Padding::Same);
  const TensorId strided = build.featureMap("conv1x1_stride2", Shape{1, 8, 8, 16});
  build.operation(OpType::Conv2DBias, "CONV_2D",
                  {conv, build.weights("conv1x1_weights", Shape{16, 1, 1, 32}, 16), build.bias("conv1x1_bias", 16)},
                  strided, Kernel{1, 1, 2, 2, 1, 1});
  const TensorId depthwise = build.featureMap("depthwise3x3", Shape{1, 8, 8, 16});
  build.operation(OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D",
                  {strided, build.weights("depthwise_weights", Shape{1, 3, 3, 16}, 16), build.bias("depthwise_bias", 16)},
                  depthwise, Kernel{3, 3, 1, 1, 1, 1}, Padding::Same);
  const TensorId pooled = build.featureMap("maxpool2x2", Shape{1, 4, 4, 16});
  build.operation(OpType::MaxPool, "MAX_POOL_2D", {depthwise}, pooled, Kernel{2, 2, 2, 2, 1, 1});
  const TensorId sum = build.featureMap("add", Shape{1, 4, 4, 16});
  build.operation(OpType::Add, "ADD", {pooled, pooled}, sum, std::nullopt);
  const TensorId flat = build.featureMap("fully_connected", Shape{1, 10});
  build.operation(OpType::FullyConnected, "FULLY_CONNECTED",
                  {sum, build.weights("fc_weights", Shape{10, 256}, 10), build.bias("fc_bias", 10)}, flat,
                  std::nullopt);
  Subgraph subgraph = build.take();
  subgraph.inputs = {input};
  subgraph.outputs = {flat};
  // The fully connected layer reads its [1, 4, 4, 16] input as a [1, 1, 1, 256] vector.
  subgraph.operations.back().ifmShapes = {Shape4{1, 1, 1, 256}};
  subgraph.operations.back().ofmShapes = {Shape4{1, 1, 1, 10}};
  Graph graph;
  graph.name = "conformance_probes";
  graph.subgraphs.push_back(std::move(subgraph));
  return graph;
}

} // namespace npu
