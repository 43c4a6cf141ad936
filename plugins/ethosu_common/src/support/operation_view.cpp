// SPDX-License-Identifier: Apache-2.0
#include "operation_view.hpp"

#include "constraint.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <cmath>

namespace ethosu::support {

using npu::OpType;

namespace {

/// Input indices of each role, Vela's Op.info.indices (operation.py) after the reader's alignment.
struct VelaIndices {
  std::array<int, 2> ifms{-1, -1};
  int weights = -1;
  int bias = -1;
};

VelaIndices velaIndicesOf(OpType type) {
  switch (type) {
  case OpType::Add:
  case OpType::Atan2:
  case OpType::Maximum:
  case OpType::Minimum:
  case OpType::Mul:
  case OpType::Prelu:
  case OpType::SHL:
  case OpType::SHR:
  case OpType::SquaredDifference:
  case OpType::Sub:
  case OpType::Transpose: return {{0, 1}, -1, -1};
  case OpType::BidirectionalSequenceLstm:
  case OpType::BidirectionalSequenceRnn:
  case OpType::Conv2D:
  case OpType::Lstm:
  case OpType::MatMul:
  case OpType::QuantizedConv2D:
  case OpType::QuantizedMatMul:
  case OpType::Rnn:
  case OpType::UnidirectionalSequenceLstm:
  case OpType::UnidirectionalSequenceRnn: return {{0, -1}, 1, -1};
  case OpType::Conv2DBias:
  case OpType::DepthwiseConv2DBias:
  case OpType::FullyConnected: return {{0, -1}, 1, 2};
  case OpType::Conv2DBackpropInput: return {{2, -1}, 1, 3};
  case OpType::Conv2DBackpropInputSwitchedBias: return {{0, -1}, 1, 3};
  case OpType::Concat:
  case OpType::ConcatTFLite: return {{1, 2}, -1, -1}; // Vela's TFLITE_CONCAT_INDICES: input 0 is not an IFM to Vela
  case OpType::Split: return {{1, -1}, -1, -1};
  case OpType::Abs:
  case OpType::ArgMax:
  case OpType::AvgPool:
  case OpType::CLZ:
  case OpType::Clamp:
  case OpType::ConcatSliceWrite:
  case OpType::Dequantize:
  case OpType::Memcpy:
  case OpType::Exp:
  case OpType::ExpandDims:
  case OpType::HardSwish:
  case OpType::Identity:
  case OpType::LeakyRelu:
  case OpType::MaxPool:
  case OpType::Mean:
  case OpType::Pack:
  case OpType::PackReshaped:
  case OpType::Pad:
  case OpType::Quantize:
  case OpType::QuantizedAvgPool:
  case OpType::QuantizedMaxPool:
  case OpType::QuantizedReshape:
  case OpType::ReduceSum:
  case OpType::Relu:
  case OpType::Relu0To1:
  case OpType::Relu6:
  case OpType::ReluN1To1:
  case OpType::ReluN:
  case OpType::Rescale:
  case OpType::Reshape:
  case OpType::ResizeBilinear:
  case OpType::ResizeNearestNeighbor:
  case OpType::Rsqrt:
  case OpType::Shape:
  case OpType::Sigmoid:
  case OpType::Sign:
  case OpType::Slice:
  case OpType::Softmax:
  case OpType::SplitSliceRead:
  case OpType::SplitV:
  case OpType::Squeeze:
  case OpType::StridedSlice:
  case OpType::Table:
  case OpType::Tanh:
  case OpType::Unpack:
  case OpType::UnpackReshaped: return {{0, -1}, -1, -1};
  default: return {};
  }
}

bool isConvolutionLike(OpType type) {
  return type == OpType::Conv2D || type == OpType::Conv2DBias || type == OpType::QuantizedConv2D ||
         type == OpType::Conv2DBackpropInput || type == OpType::Conv2DBackpropInputSwitchedBias ||
         type == OpType::DepthwiseConv2DBias;
}

bool isPooling(OpType type) {
  return type == OpType::AvgPool || type == OpType::QuantizedAvgPool || type == OpType::MaxPool ||
         type == OpType::QuantizedMaxPool;
}

} // namespace

OperationView::OperationView(const npu::Subgraph& subgraph, const npu::Operation& op) : subgraph_(subgraph), op_(op) {}

const npu::Tensor* OperationView::tensorAt(npu::TensorId id) const { return subgraph_.findTensor(id); }

const npu::Tensor* OperationView::input(std::size_t index) const { return tensorAt(op_.input(index)); }

const npu::Tensor* OperationView::output(std::size_t index) const { return tensorAt(op_.output(index)); }

const npu::Tensor* OperationView::ifm() const {
  const int index = velaIndicesOf(op_.type).ifms[0];
  return index < 0 ? nullptr : input(static_cast<std::size_t>(index));
}

const npu::Tensor* OperationView::ifm2() const {
  const int index = velaIndicesOf(op_.type).ifms[1];
  return index < 0 ? nullptr : input(static_cast<std::size_t>(index));
}

const npu::Tensor* OperationView::weights() const {
  const int index = velaIndicesOf(op_.type).weights;
  return index < 0 ? nullptr : input(static_cast<std::size_t>(index));
}

const npu::Tensor* OperationView::bias() const {
  const int index = velaIndicesOf(op_.type).bias;
  return index < 0 ? nullptr : input(static_cast<std::size_t>(index));
}

std::vector<const npu::Tensor*> OperationView::ifmIfm2WeightsOfm() const {
  std::vector<const npu::Tensor*> tensors;
  for (const npu::Tensor* tensor : {ifm(), ifm2(), weights(), ofm()}) {
    if (tensor != nullptr) {
      tensors.push_back(tensor);
    }
  }
  return tensors;
}

std::vector<const npu::Tensor*> OperationView::presentInputs() const {
  std::vector<const npu::Tensor*> tensors;
  for (const npu::TensorId id : op_.inputs) {
    if (const npu::Tensor* tensor = tensorAt(id)) {
      tensors.push_back(tensor);
    }
  }
  return tensors;
}

std::vector<const npu::Tensor*> OperationView::presentInputsAndOutputs() const {
  std::vector<const npu::Tensor*> tensors = presentInputs();
  for (const npu::TensorId id : op_.outputs) {
    if (const npu::Tensor* tensor = tensorAt(id)) {
      tensors.push_back(tensor);
    }
  }
  return tensors;
}

std::vector<int> OperationView::velaWeightShape() const {
  const npu::Tensor* tensor = weights();
  if (tensor == nullptr) {
    return {};
  }
  const auto dims = tensor->shape.dims();
  std::vector<int> shape(dims.begin(), dims.end());
  if (!tensor->isConstant()) {
    return shape; // Vela's reader only reorders constant weights
  }
  if (op_.type == OpType::FullyConnected && shape.size() == 2) {
    return {shape[1], shape[0]};
  }
  if (isConvolutionLike(op_.type) && shape.size() == 4) {
    return {shape[1], shape[2], shape[3], shape[0]};
  }
  return shape;
}

npu::Shape OperationView::velaShape(const npu::Tensor& tensor) const {
  // tflite_reader.py parse_operator: only convolutions, depthwise convolutions and fully connected
  const bool reordered = isConvolutionLike(op_.type) || op_.type == OpType::FullyConnected;
  if (!reordered || !tensor.isConstant()) {
    return tensor.shape;
  }
  if (&tensor == input(1)) {
    return npu::Shape(velaWeightShape());
  }
  const int biasIndex = op_.type == OpType::Conv2DBackpropInput ? 3 : 2;
  const bool isLastInput = inputCount() > static_cast<std::size_t>(biasIndex) && &tensor == input(inputCount() - 1);
  if (isLastInput) {
    return npu::Shape{static_cast<int>(tensor.shape.elements())};
  }
  return tensor.shape;
}

bool OperationView::isGlobalPooling() const {
  // Vela's fixup_pool_strides: kernel, stride and IFM size all equal
  if (!isPooling(op_.type) || !op_.kernel || ifm() == nullptr || ifm()->shape.rank() < 3) {
    return false;
  }
  const npu::Kernel& k = *op_.kernel;
  const npu::Shape& shape = ifm()->shape;
  return k.width == k.strideX && k.strideX == shape[2] && k.height == k.strideY && k.strideY == shape[1];
}

KernelGeometry OperationView::kernel() const {
  KernelGeometry geometry;
  if (op_.kernel) {
    const npu::Kernel& k = *op_.kernel;
    geometry = {k.width, k.height, k.strideX, k.strideY, k.dilationX, k.dilationY};
  } else if (isConvolutionLike(op_.type)) {
    const std::vector<int> shape = velaWeightShape();
    if (shape.size() == 4) {
      geometry.height = shape[0];
      geometry.width = shape[1];
    }
  }
  if (isGlobalPooling()) {
    geometry.strideX = 1;
    geometry.strideY = 1;
  }
  return geometry;
}

npu::Padding OperationView::padding() const { return isGlobalPooling() ? npu::Padding::Valid : op_.padding; }

std::int64_t OperationView::depthMultiplier() const {
  const std::int64_t multiplier = op_.attributes.getOr<std::int64_t>("depth_multiplier", 1);
  if (multiplier != 0 || op_.type != OpType::DepthwiseConv2DBias) {
    return multiplier;
  }
  // Vela's reader: implicit multiplier = weight channels / IFM channels
  const std::vector<int> shape = velaWeightShape();
  const npu::Tensor* input = ifm();
  if (shape.size() < 3 || input == nullptr || input->shape.rank() == 0 || input->shape.back(0) == 0) {
    return multiplier;
  }
  return shape[2] / input->shape.back(0);
}

bool OperationView::drivenByConstant(npu::TensorId id) const {
  const npu::Tensor* tensor = tensorAt(id);
  if (tensor == nullptr) {
    return false;
  }
  if (const auto producer = producerOf(subgraph_, id)) {
    return foldedIntoConstant(subgraph_, subgraph_.operations[*producer]);
  }
  // Vela's fixup_tensors: Placeholder for subgraph inputs without data and variables, else Const
  const bool isSubgraphInput =
      std::find(subgraph_.inputs.begin(), subgraph_.inputs.end(), id) != subgraph_.inputs.end();
  if (isSubgraphInput) {
    return tensor->isConstant();
  }
  return !tensor->isVariable;
}

bool OperationView::isConstantWithoutValues(npu::TensorId id) const {
  const npu::Tensor* tensor = tensorAt(id);
  return tensor != nullptr && !tensor->isConstant() && !hasProducer(id) && drivenByConstant(id);
}

bool OperationView::hasProducer(npu::TensorId id) const {
  const auto writes = [&](const npu::Operation& op) {
    return std::find(op.outputs.begin(), op.outputs.end(), id) != op.outputs.end();
  };
  // Whether any operation writes it, looked for from this operation backwards first: an input is
  // mostly written just before, and a scan from the first operation made this quadratic in the
  // network's size.
  const auto& operations = subgraph_.operations;
  const npu::Operation* first = operations.data();
  const bool inSubgraph = std::less_equal<>{}(first, &op_) && std::less<>{}(&op_, first + operations.size());
  if (!inSubgraph) {
    return producerOf(subgraph_, id).has_value(); // an operation not (yet) in the subgraph
  }
  const auto own = static_cast<std::size_t>(&op_ - first);
  for (std::size_t index = own + 1; index-- > 0;) {
    if (writes(operations[index])) {
      return true;
    }
  }
  return std::any_of(operations.begin() + static_cast<std::ptrdiff_t>(own) + 1, operations.end(), writes);
}

std::optional<std::size_t> producerOf(const npu::Subgraph& subgraph, npu::TensorId id) {
  for (std::size_t index = 0; index < subgraph.operations.size(); ++index) {
    const auto& outputs = subgraph.operations[index].outputs;
    if (std::find(outputs.begin(), outputs.end(), id) != outputs.end()) {
      return index;
    }
  }
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> integerValues(const npu::Tensor* tensor) {
  if (tensor == nullptr || !tensor->isConstant() ||
      !(npu::isInteger(tensor->type) || tensor->type == npu::DataType::Bool)) {
    return std::nullopt;
  }
  return tensor->integerValues();
}

bool isQuantized(const npu::Tensor& tensor) {
  return npu::isInteger(tensor.type) && !tensor.quantisation.scale.empty() && !tensor.quantisation.zeroPoint.empty();
}

bool isPerAxis(const npu::Quantisation& quantisation) {
  return quantisation.scale.size() > 1 || quantisation.zeroPoint.size() > 1;
}

bool quantisedScalingEqual(const npu::Tensor& a, const npu::Tensor& b) {
  return isQuantized(a) && isQuantized(b) && a.quantisation.scale == b.quantisation.scale &&
         a.quantisation.zeroPoint == b.quantisation.zeroPoint;
}

std::vector<int> fullShape4(const npu::Shape& shape) {
  std::vector<int> full(static_cast<std::size_t>(std::max(0, 4 - shape.rank())), 1);
  full.insert(full.end(), shape.dims().begin(), shape.dims().end());
  return full;
}

std::string_view builtinNameOf(OpType type) {
  switch (type) {
  case OpType::Abs: return "ABS";
  case OpType::Add: return "ADD";
  case OpType::ArgMax: return "ARG_MAX";
  case OpType::AvgPool: return "AVERAGE_POOL_2D";
  case OpType::ConcatTFLite: return "CONCATENATION";
  case OpType::Conv2DBias: return "CONV_2D";
  case OpType::Conv2DBackpropInput: return "TRANSPOSE_CONV";
  case OpType::Custom: return "CUSTOM";
  case OpType::DepthwiseConv2DBias: return "DEPTHWISE_CONV_2D";
  case OpType::Dequantize: return "DEQUANTIZE";
  case OpType::Exp: return "EXP";
  case OpType::ExpandDims: return "EXPAND_DIMS";
  case OpType::FullyConnected: return "FULLY_CONNECTED";
  case OpType::HardSwish: return "HARD_SWISH";
  case OpType::LeakyRelu: return "LEAKY_RELU";
  case OpType::MaxPool: return "MAX_POOL_2D";
  case OpType::Maximum: return "MAXIMUM";
  case OpType::Mean: return "MEAN";
  case OpType::Minimum: return "MINIMUM";
  case OpType::Mul: return "MUL";
  case OpType::Pack: return "PACK";
  case OpType::Pad: return "PAD";
  case OpType::Prelu: return "PRELU";
  case OpType::Quantize: return "QUANTIZE";
  case OpType::Relu: return "RELU";
  case OpType::Relu0To1: return "RELU_0_TO_1";
  case OpType::Relu6: return "RELU6";
  case OpType::ReluN1To1: return "RELU_N1_TO_1";
  case OpType::Reshape: return "RESHAPE";
  case OpType::ResizeBilinear: return "RESIZE_BILINEAR";
  case OpType::ResizeNearestNeighbor: return "RESIZE_NEAREST_NEIGHBOR";
  case OpType::Rsqrt: return "RSQRT";
  case OpType::Shape: return "SHAPE";
  case OpType::Sigmoid: return "LOGISTIC";
  case OpType::Slice: return "SLICE";
  case OpType::Softmax: return "SOFTMAX";
  case OpType::Split: return "SPLIT";
  case OpType::SplitV: return "SPLIT_V";
  case OpType::SquaredDifference: return "SQUARED_DIFFERENCE";
  case OpType::Squeeze: return "SQUEEZE";
  case OpType::StridedSlice: return "STRIDED_SLICE";
  case OpType::Sub: return "SUB";
  case OpType::Svdf: return "SVDF";
  case OpType::Tanh: return "TANH";
  case OpType::Transpose: return "TRANSPOSE";
  case OpType::UnidirectionalSequenceLstm: return "UNIDIRECTIONAL_SEQUENCE_LSTM";
  case OpType::Unpack: return "UNPACK";
  default: return "UNKNOWN";
  }
}

std::string nameOrNone(const npu::Tensor* tensor) { return tensor == nullptr ? "None" : tensor->name; }

/// Vela's optimise_quantize folds a QUANTIZE of a constant into a constant (int8 -> int8,
/// int16 -> int16, float -> any), and convert_shape_op_to_constant_tensor a SHAPE whose output length
/// equals the input rank; both only for operations that passed the semantic checks.
bool foldedIntoConstant(const npu::Subgraph& subgraph, const npu::Operation& producer) {
  const OperationView view(subgraph, producer);
  const npu::Tensor* ifm = view.ifm();
  const npu::Tensor* ofm = view.ofm();
  if (ifm == nullptr || ofm == nullptr) {
    return false;
  }
  if (producer.type == OpType::Quantize) {
    const bool sameInteger =
        ifm->type == ofm->type && (ifm->type == npu::DataType::Int8 || ifm->type == npu::DataType::Int16);
    const bool foldable = ifm->isConstant() && (sameInteger || npu::isFloat(ifm->type));
    return foldable && passesSemanticChecks(subgraph, producer);
  }
  if (producer.type == OpType::Shape) {
    const bool knownShape = ofm->shape.rank() >= 1 && ifm->shape.rank() == ofm->shape[0];
    return knownShape && passesSemanticChecks(subgraph, producer);
  }
  return false;
}

} // namespace ethosu::support
