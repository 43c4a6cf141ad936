// SPDX-License-Identifier: Apache-2.0
// MEAN as Vela 2.1.1 lowers it (graph_optimiser.py at 41c006a, convert_mean_to_depthwise_conv): one
// depthwise convolution over the reduced H x W (seen as 1 x H*W when H is above 64), with an int16
// intermediate and a Mul by 1/N for a 4D int8 MEAN over H and W that keeps its dimensions. Only the MEANs
// 2.1.1's supported-operator checks accept reach it (8-bit, H/W axes, same quantisation unless 4D over H
// and W with keep_dims).
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

#include <algorithm>

namespace ethosu::lowering {

using namespace npu;

namespace {
constexpr int kMaximumKernelHeight = 64;

/// The reduced height and width as 2.1.1 reads them from the axis tensor.
std::pair<int, int> reducedHeightWidth(const Shape& shape, const Tensor& axisTensor) {
  std::vector<std::int64_t> axes = axisTensor.integerValues();
  const int dims = shape.rank();
  if (axisTensor.shape.rank() == 0 && axes.size() == 1) {
    const auto axis = static_cast<int>(axes[0]);
    const bool heightAxis = dims == 4 ? axis == 1 : axis == 0;
    return heightAxis ? std::pair{shape[axis], 1} : std::pair{1, shape[axis]};
  }
  std::sort(axes.begin(), axes.end());
  return {shape[static_cast<int>(axes.at(0))], shape[static_cast<int>(axes.at(1))]};
}
} // namespace

RewriteResult convertMeanVela21(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Mean || op.inputs.size() < 2) {
    return std::nullopt;
  }
  const Tensor input = subgraph.tensor(op.inputs[0]);
  const Tensor ofm = subgraph.tensor(op.ofm());
  const Tensor& axisTensor = subgraph.tensor(op.inputs[1]);
  auto [h, w] = reducedHeightWidth(input.shape, axisTensor);
  std::vector<int> dims(input.shape.dims().begin(), input.shape.dims().end());
  if (dims.size() < 4) {
    dims.insert(dims.begin(), 1);
    if (dims.size() == 3) {
      dims.push_back(1);
    }
  }
  Shape4 ifmShape{dims[0], dims[1], dims[2], dims[3]};
  std::vector<std::int64_t> axes = axisTensor.integerValues();
  std::sort(axes.begin(), axes.end());
  const bool overHeightWidth = input.shape.rank() == 4 && axes == std::vector<std::int64_t>{1, 2};
  const bool sumThenMultiply =
      overHeightWidth && op.attributes.getOr<bool>("keep_dims", false) && input.type == DataType::Int8;
  const int elements = h * w;
  if (h > kMaximumKernelHeight) {
    ifmShape = Shape4{ifmShape.batch, 1, elements, ifmShape.depth};
    w = elements;
    h = 1;
  }

  Operation conv = deriveOperation(op, OpType::DepthwiseConv2DBias, op.name);
  conv.kernel = Kernel{};
  conv.kernel->height = h;
  conv.kernel->width = w;
  conv.padding = Padding::Valid;
  conv.attributes.set("depth_multiplier", std::int64_t{1});
  const int channels = ifmShape.depth;
  // Unit weights of the input's type; their scale carries 1/N unless a Mul divides afterwards.
  Quantisation weightQuantisation = unitQuantisation();
  if (!sumThenMultiply) {
    weightQuantisation.scale = {1.0 / elements};
    conv.rounding = RoundingMode::ToZero;
  }
  const std::vector<std::int64_t> ones(static_cast<std::size_t>(h) * w * channels, 1);
  const TensorId weights = addConstant(subgraph, "weights", Shape{1, h, w, channels}, input.type, ones,
                                       weightQuantisation, TensorPurpose::Weights);
  conv.inputs = {op.inputs[0], weights, addZeroBiasOf(subgraph, op.name, channels, DataType::Int32)};
  conv.outputs = op.outputs;
  std::vector<Operation> result;
  if (!sumThenMultiply) {
    setDefaultShapes(subgraph, conv);
    conv.ifmShapes[0] = ifmShape;
    result.push_back(std::move(conv));
    return result;
  }
  // The sum in the OFM's scale as int16, then a Mul by a uint8 scalar 1 of scale 1 / (N - eps): eps
  // makes an even N round halves down as the reference does.
  const TensorId intermediate =
      addFeatureMap(subgraph, ofm.name + "_intermediate", ofm.shape, DataType::Int16, ofm.quantisation);
  conv.outputs = {intermediate};
  conv.activation.reset();
  setDefaultShapes(subgraph, conv);
  conv.ifmShapes[0] = ifmShape;
  Quantisation scalarQuantisation = unitQuantisation();
  const double eps = elements % 2 == 0 ? 1.0 / (256.0 * (elements + 1)) : 0.0;
  scalarQuantisation.scale = {1.0 / (elements - eps)};
  const TensorId scalar = addConstant(subgraph, op.name + "_scalar", Shape{1, 1, 1, 1}, DataType::UInt8,
                                      std::vector<std::int64_t>{1}, scalarQuantisation);
  Operation multiply = deriveOperation(op, OpType::Mul, op.name + "_mul");
  multiply.inputs = {intermediate, scalar};
  multiply.outputs = op.outputs;
  multiply.rounding = RoundingMode::HalfUp;
  multiply.activation = op.activation;
  setDefaultShapes(subgraph, multiply);
  result.push_back(std::move(conv));
  result.push_back(std::move(multiply));
  return result;
}

} // namespace ethosu::lowering
