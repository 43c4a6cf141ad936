// SPDX-License-Identifier: Apache-2.0
#include "nop_operations.hpp"

#include "ethosu_lowering/rewrite_support.hpp"

#include "npu/core/diagnostics.hpp"

#include <cstdint>
#include <limits>

namespace ethosu::lowering {

using namespace npu;

Operation makeAvgPoolNop(const Operation& origin, std::string name) {
  Operation op = deriveOperation(origin, OpType::AvgPool, std::move(name));
  op.kernel = Kernel{};
  op.padding = Padding::Valid;
  op.explicitPadding = {};
  op.attributes.set("skirt", std::vector<std::int64_t>{0, 0, 0, 0});
  return op;
}

Activation clipActivation(double min, double max) {
  Activation activation;
  activation.type = OpType::Clip;
  activation.min = min;
  activation.max = max;
  return activation;
}

namespace {
/// Vela operation_util ifm_ifm2_correct_order: false when only the IFM is broadcast.
bool ifmDeterminesShape(const std::optional<Shape4>& ifm, const std::optional<Shape4>& ifm2) {
  if (!ifm) {
    return false;
  }
  if (!ifm2) {
    return true;
  }
  const auto broadcasts = [](const Shape4& a, const Shape4& b) {
    return (a.batch < b.batch) || (a.height < b.height) || (a.width < b.width) || (a.depth < b.depth);
  };
  return !(broadcasts(*ifm, *ifm2) && !broadcasts(*ifm2, *ifm));
}
} // namespace

Operation makeElementwise(Subgraph& subgraph, const Operation& origin, const ElementwiseSpec& spec) {
  Operation op = deriveOperation(origin, spec.type, spec.name);
  const Shape4 ifmShape = spec.ifmShape.value_or(shape4Of(subgraph, spec.ifm));
  op.inputs = {spec.ifm};
  op.ifmShapes = {ifmShape};
  Shape4 ofmShape = ifmShape;
  if (spec.ifm2 != kNoTensor) {
    const Shape4 ifm2Shape = spec.ifm2Shape.value_or(shape4Of(subgraph, spec.ifm2));
    op.inputs.push_back(spec.ifm2);
    op.ifmShapes.push_back(ifm2Shape);
    const bool ifmScalar = subgraph.tensor(spec.ifm).shape.isScalar();
    const bool ifm2Scalar = subgraph.tensor(spec.ifm2).shape.isScalar();
    const std::optional<Shape4> first = ifmScalar ? std::nullopt : std::optional<Shape4>(ifmShape);
    const std::optional<Shape4> second = ifm2Scalar ? std::nullopt : std::optional<Shape4>(ifm2Shape);
    ofmShape = ifmDeterminesShape(first, second) ? ifmShape : ifm2Shape;
  }
  op.activation = spec.activation;
  const DataType type = spec.dataType.value_or(subgraph.tensor(spec.ifm).type);
  op.outputs = {addFeatureMap(subgraph, spec.name + "_tens0", toShape(ofmShape), type, spec.quantisation)};
  op.ofmShapes = {ofmShape};
  return op;
}

Operation makeDepthwiseMaxPool(Subgraph& subgraph, const Operation& origin, const std::string& name, TensorId ifm,
                               const Shape4& ifmShape, const Quantisation& quantisation) {
  Operation op = deriveOperation(origin, OpType::MaxPool, name);
  // Each position of the IFM becomes a row: up to 65535 x 65535 of them pass the support checks, more
  // than a 32-bit dimension holds.
  const std::int64_t positions = std::int64_t{ifmShape.height} * ifmShape.width;
  if (positions > std::numeric_limits<int>::max()) {
    throwCompileError("operation '" + origin.name + "' reduces over " + std::to_string(ifmShape.height) + " x " +
                      std::to_string(ifmShape.width) + " positions, more than one NPU pooling can hold (" +
                      std::to_string(positions) + " rows)");
  }
  const auto height = static_cast<int>(positions);
  const int width = ifmShape.depth;
  Kernel kernel;
  kernel.width = width;
  kernel.height = 1;
  op.kernel = kernel;
  op.padding = Padding::Valid;
  op.inputs = {ifm};
  const Shape ofmShape{1, height, 1, 1};
  op.outputs = {addFeatureMap(subgraph, name + "_tens0", ofmShape, subgraph.tensor(ifm).type, quantisation)};
  op.ifmShapes = {Shape4{1, height, width, 1}};
  op.ofmShapes = {Shape4::fromShape(ofmShape)};
  return op;
}

Operation makeReduceSum(Subgraph& subgraph, const Operation& origin, const std::string& name, TensorId ifm,
                        const Quantisation& quantisation, std::optional<Activation> activation) {
  Operation op = deriveOperation(origin, OpType::ReduceSum, name);
  op.kernel = Kernel{};
  op.padding = Padding::Valid;
  op.inputs = {ifm};
  op.activation = std::move(activation);
  const Shape4 ifmShape = shape4Of(subgraph, ifm);
  const Shape ofmShape{1, ifmShape.height, ifmShape.width, 1};
  op.outputs = {addFeatureMap(subgraph, name + "_tens0", ofmShape, DataType::Int32, quantisation)};
  setDefaultShapes(subgraph, op);
  return op;
}

Operation makeMemcpy(const Subgraph& subgraph, const Operation& origin, std::string name, TensorId ifm, TensorId ofm) {
  Operation op = deriveOperation(origin, OpType::Memcpy, std::move(name));
  op.inputs = {ifm};
  op.outputs = {ofm};
  setDefaultShapes(subgraph, op);
  return op;
}

Operation makeFullyConnected(Subgraph& subgraph, const Operation& origin, const std::string& name, TensorId ifm,
                             TensorId weights, TensorId bias, const Quantisation& quantisation) {
  Operation op = deriveOperation(origin, OpType::FullyConnected, name);
  const Shape& ifmShape = subgraph.tensor(ifm).shape;
  const int outputs = subgraph.tensor(weights).shape[0];
  const Shape ofmShape{ifmShape.rank() > 0 ? ifmShape[0] : 1, outputs};
  if (bias == kNoTensor) {
    // Vela operation_util.create_fullyconnected: a zero bias, shared with every equal one.
    bias = addZeroBias(subgraph, name, subgraph.tensor(weights).shape[0], subgraph.tensor(ifm).type);
    shareByContent(subgraph, bias);
  }
  op.inputs = {ifm, weights, bias};
  op.outputs = {addFeatureMap(subgraph, name + "_tens0", ofmShape, subgraph.tensor(ifm).type, quantisation)};
  setDefaultShapes(subgraph, op);
  return op;
}

Operation makeFusedActivation(Subgraph& subgraph, const Operation& origin, const std::string& name, OpType activation,
                              TensorId ifm, const Quantisation& quantisation) {
  Operation op = makeAvgPoolNop(origin, name);
  Activation function;
  function.type = activation;
  op.activation = function;
  const Tensor& input = subgraph.tensor(ifm);
  op.inputs = {ifm};
  op.outputs = {addFeatureMap(subgraph, name + "_tens0", input.shape, input.type, quantisation)};
  setDefaultShapes(subgraph, op);
  return op;
}

DataType zeroBiasType(DataType ifmType) {
  return ifmType == DataType::Int16 ? DataType::Int64 : DataType::Int32;
}

TensorId addZeroBiasOf(Subgraph& subgraph, const std::string& name, int channels, DataType biasType) {
  const std::vector<std::int64_t> zeros(static_cast<std::size_t>(channels), 0);
  return addConstant(subgraph, name + "_bias", Shape{channels}, biasType, zeros, {}, TensorPurpose::ScalesBiases);
}

TensorId addZeroBias(Subgraph& subgraph, const std::string& name, int channels, DataType ifmType) {
  return addZeroBiasOf(subgraph, name, channels, zeroBiasType(ifmType));
}

Operation makeCast(Subgraph& subgraph, const Operation& origin, const std::string& name, TensorId ifm, TensorId ofm) {
  Operation op = deriveOperation(origin, OpType::DepthwiseConv2DBias, name);
  op.kernel = Kernel{};
  op.padding = Padding::Valid;
  op.attributes.set("depth_multiplier", std::int64_t{1});
  const int channels = subgraph.tensor(ifm).shape.back(0);
  const std::vector<std::int64_t> ones(static_cast<std::size_t>(channels), 1);
  const TensorId weights = addConstant(subgraph, name + "_weights", Shape{1, 1, 1, channels}, DataType::UInt8, ones,
                                       unitQuantisation(), TensorPurpose::Weights);
  op.inputs = {ifm, weights, addZeroBias(subgraph, name, channels, subgraph.tensor(ifm).type)};
  op.outputs = {ofm};
  setDefaultShapes(subgraph, op);
  return op;
}

} // namespace ethosu::lowering
