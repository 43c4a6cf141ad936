// SPDX-License-Identifier: Apache-2.0
// MEAN as depthwise convolutions summing at most 64 rows each, added together, and a Mul that scales
// by 1 / N (Vela tflite_graph_optimiser.py convert_mean_to_depthwise_conv).
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

#include <algorithm>
#include <cmath>

namespace ethosu::lowering {

using namespace npu;

namespace {
constexpr int kMaximumKernelElements = 4096;
constexpr int kMaximumHeight = 64;

std::vector<int> padFront(std::vector<int> values, int fill) {
  while (values.size() < 4) {
    values.insert(values.begin(), fill);
  }
  return values;
}

int floorLog2(std::int64_t value) {
  int result = 0;
  while (value > 1) {
    value >>= 1;
    ++result;
  }
  return result;
}
} // namespace

RewriteResult convertMeanToDepthwiseConv(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Mean || op.inputs.size() < 2) {
    return std::nullopt;
  }
  const Tensor input = subgraph.tensor(op.inputs[0]);
  const Tensor ofm = subgraph.tensor(op.ofm());
  const int rank = input.shape.rank();
  std::vector<int> reduce(static_cast<std::size_t>(rank), 0);
  for (std::int64_t axis : subgraph.tensor(op.inputs[1]).integerValues()) {
    reduce[static_cast<std::size_t>(axis < 0 ? axis + rank : axis)] = 1;
  }
  std::vector<int> ifmShape(input.shape.dims().begin(), input.shape.dims().end());
  std::vector<int> intermediateShape(ofm.shape.dims().begin(), ofm.shape.dims().end());
  if (ofm.shape.rank() < rank) {
    for (int i = 0; i < rank; ++i) {
      if (reduce[static_cast<std::size_t>(i)] != 0) {
        intermediateShape.insert(intermediateShape.begin() + i, 1);
      }
    }
  }
  reduce = padFront(reduce, 0);
  ifmShape = padFront(ifmShape, 1);
  intermediateShape = padFront(intermediateShape, 1);
  bool reducesSomething = false;
  for (std::size_t i = 0; i < 4; ++i) {
    reducesSomething = reducesSomething || (reduce[i] != 0 && ifmShape[i] > 1);
  }
  if (!reducesSomething) {
    // The copy keeps the axes as an input, as Vela's Memcpy does (convert_mean_to_depthwise_conv): the
    // constant then takes its place in the read-only area.
    Operation copy = op;
    copy.type = OpType::Memcpy;
    setDefaultShapes(subgraph, copy);
    return std::vector<Operation>{copy};
  }
  if (reduce[3] != 0 && ifmShape[3] > 1) {
    // Reducing the depth: move it into H or W, whichever is 1.
    const std::size_t removed = ifmShape[2] == 1 ? 2 : 1;
    reduce.erase(reduce.begin() + static_cast<std::ptrdiff_t>(removed));
    ifmShape.erase(ifmShape.begin() + static_cast<std::ptrdiff_t>(removed));
    intermediateShape.erase(intermediateShape.begin() + static_cast<std::ptrdiff_t>(removed));
    reduce.push_back(0);
    ifmShape.push_back(1);
    intermediateShape.push_back(1);
  }
  int h = reduce[1] != 0 ? ifmShape[1] : 1;
  int w = reduce[2] != 0 ? ifmShape[2] : 1;
  const int elementsInAxis = h * w;
  if (h > kMaximumHeight && elementsInAxis <= kMaximumKernelElements && reduce[1] != 0 && reduce[2] != 0) {
    ifmShape = {ifmShape[0], 1, h * w, ifmShape[3]};
    w = h * w;
    h = 1;
  }
  const int heightPerConv = std::min({kMaximumKernelElements / w, h, kMaximumHeight});
  const int convolutions = (h + heightPerConv - 1) / heightPerConv;
  const Shape4 ifm4{ifmShape[0], ifmShape[1], ifmShape[2], ifmShape[3]};
  const Shape intermediate{intermediateShape[0], intermediateShape[1], intermediateShape[2], intermediateShape[3]};
  std::vector<Operation> result;
  std::vector<TensorId> sums;
  for (int i = 0; i < convolutions; ++i) {
    // Vela clones the operation with the suffix "<name>_conv_<i>", hence the doubled name.
    const std::string name = op.name + op.name + "_conv_" + std::to_string(i);
    Operation conv = deriveOperation(op, OpType::DepthwiseConv2DBias, name);
    // Vela clones the MEAN for each convolution, so its original type stays MEAN: a 16-bit MEAN rounds as
    // TFLite does, not as a 16-bit convolution (high_level_command_to_npu_op.get_rounding_mode).
    conv.attributes.erase("original_type");
    conv.kernel = Kernel{};
    conv.padding = Padding::Valid;
    conv.attributes.set("depth_multiplier", std::int64_t{1});
    const int weightHeight = (i == convolutions - 1 && h % heightPerConv != 0) ? h % heightPerConv : heightPerConv;
    conv.kernel->height = weightHeight;
    conv.kernel->width = w;
    Quantisation sumQuantisation = ofm.quantisation;
    const TensorId sum = addFeatureMap(subgraph, ofm.name + "_conv_sum_" + std::to_string(i), intermediate,
                                       DataType::Int32, sumQuantisation);
    const int channels = ifm4.depth;
    const std::vector<std::int64_t> ones(static_cast<std::size_t>(weightHeight) * w * channels * ifm4.batch, 1);
    Quantisation weightQuantisation = unitQuantisation();
    // Depthwise weights [1, H, W, C] (TFLite layout); Vela builds [h, w, c, b] with b = 1.
    const TensorId weights = addConstant(subgraph, name + "_weights", Shape{ifm4.batch, weightHeight, w, channels},
                                         DataType::UInt8, ones, weightQuantisation, TensorPurpose::Weights);
    conv.inputs = {op.inputs[0], weights, addZeroBias(subgraph, name, channels, input.type)};
    // Vela keys both on their values: every MEAN with the same element count shares them.
    shareByContent(subgraph, weights);
    shareByContent(subgraph, conv.inputs[2]);
    conv.outputs = {sum};
    setExplicitScaling(conv, {0}, {1});
    conv.readOffsets[0] = Shape4{0, i * heightPerConv, 0, 0};
    conv.readShapes[0] = ifm4.withHW(reduce[1] != 0 ? weightHeight : ifm4.height, reduce[2] != 0 ? w : ifm4.width);
    setDefaultShapes(subgraph, conv);
    conv.ifmShapes[0] = ifm4;
    sums.push_back(sum);
    result.push_back(std::move(conv));
  }
  TensorId total = sums.back();
  if (sums.size() > 1) {
    // Vela pops the partial sums from the back and chains the additions.
    std::vector<TensorId> pending = sums;
    TensorId previous = kNoTensor;
    int index = 0;
    while (!pending.empty()) {
      const TensorId first = pending.back();
      pending.pop_back();
      TensorId second = previous;
      if (previous == kNoTensor) {
        second = pending.back();
        pending.pop_back();
      }
      ElementwiseSpec add{
          OpType::Add, op.name + "_add_" + std::to_string(index), first, second, unitQuantisation(), {}, {}, {}, {}};
      Operation addition = makeElementwise(subgraph, op, add);
      subgraph.tensor(addition.ofm()).type = DataType::Int32;
      subgraph.tensor(addition.ofm()).shape = intermediate;
      subgraph.tensor(addition.ofm()).name = ofm.name + "_add_sum_" + std::to_string(index);
      setExplicitScaling(addition, {0}, {1});
      setDefaultShapes(subgraph, addition);
      previous = addition.ofm();
      result.push_back(std::move(addition));
      ++index;
    }
    total = previous;
  }
  // Scale by 1 / N with the multiplier pre-divided (Vela convert_mean_to_depthwise_conv).
  const QuantisedScale scale = quantiseScale(input.quantisation.scaleAt(0) / ofm.quantisation.scaleAt(0));
  int outputShift = 31 - scale.shift;
  int shift = std::min({floorLog2(elementsInAxis), 32, 31 + outputShift});
  const std::int64_t multiplier = (std::int64_t{scale.multiplier} << shift) / elementsInAxis;
  outputShift -= shift;
  Operation multiply = deriveOperation(op, OpType::Mul, op.name + "_mul");
  const std::vector<std::int64_t> scalar{multiplier};
  const TensorId scalarTensor =
      addConstant(subgraph, op.name + "_mul_scalar", Shape{1, 1, 1, 1}, DataType::Int32, scalar, unitQuantisation());
  multiply.inputs = {total, scalarTensor};
  multiply.outputs = op.outputs;
  multiply.rounding = RoundingMode::TFLite;
  setDefaultShapes(subgraph, multiply);
  multiply.ofmShapes[0] = Shape4::fromShape(intermediate);
  setExplicitScaling(multiply, {31 - outputShift}, {1});
  result.push_back(std::move(multiply));
  return result;
}

} // namespace ethosu::lowering
