// SPDX-License-Identifier: Apache-2.0
// The generic NPU constraints of Vela 3.10 (tflite_supported_operators.py, TFLiteSupportedOperators):
// data types, tensor sizes, per-axis quantisation, batch size and fused activations.

#include "constraint.hpp"
#include "python_format.hpp"

#include <algorithm>

namespace ethosu::support::npu_generic {

using npu::DataType;
using npu::OpType;
using npu::Tensor;

namespace {

constexpr int kMinDimension = 1; // Vela's tens_dim_range
constexpr int kMaxDimension = 65535;

/// Vela checks IFM, IFM2, weights and OFM, or every input when the type has none of these roles.
std::vector<const Tensor*> checkedTensors(const OperationView& view) {
  std::vector<const Tensor*> tensors = view.ifmIfm2WeightsOfm();
  return tensors.empty() ? view.presentInputs() : tensors;
}

bool isSupportedType(DataType type) {
  return type == DataType::UInt8 || type == DataType::Int8 || type == DataType::Int16 || type == DataType::Int32;
}

ConstraintResult checkTensDtype(const OperationView& view) {
  std::vector<std::string> failures;
  for (const Tensor* tensor : checkedTensors(view)) {
    if (!isSupportedType(tensor->type)) {
      failures.push_back("Tensor '" + tensor->name + "' has data type: " + std::string(npu::nameOf(tensor->type)));
    }
  }
  return {failures.empty(), joined(failures)};
}

bool acceptsInt32Tensors(OpType type) {
  switch (type) {
  case OpType::ReduceSum:
  case OpType::CLZ:
  case OpType::Shape:
  case OpType::ArgMax:
  case OpType::Transpose:
  case OpType::Add:
  case OpType::Mul:
  case OpType::Sub:
  case OpType::SHL:
  case OpType::SHR: return true;
  default: return false;
  }
}

ConstraintResult checkTensInt32Ops(const OperationView& view) {
  std::vector<std::string> names;
  for (const Tensor* tensor : checkedTensors(view)) {
    if (tensor->type == DataType::Int32 && !acceptsInt32Tensors(view.type())) {
      names.push_back(tensor->name);
    }
  }
  return {names.empty(), "Op has int32 tensor(s): " + joined(names)};
}

ConstraintResult checkTensDimension(const OperationView& view) {
  std::vector<std::string> failures;
  for (const Tensor* tensor : checkedTensors(view)) {
    const npu::Shape shape = view.velaShape(*tensor);
    const auto dims = shape.dims();
    const bool inRange =
        std::all_of(dims.begin(), dims.end(), [](int dim) { return dim >= kMinDimension && dim <= kMaxDimension; });
    if (!inRange) {
      failures.push_back("Tensor '" + tensor->name + "' has shape: " + pythonList(shape));
    }
  }
  return {failures.empty(), joined(failures)};
}

bool acceptsPerAxisQuantisation(OpType type) {
  return type == OpType::Conv2DBias || type == OpType::Conv2D || type == OpType::QuantizedConv2D ||
         type == OpType::DepthwiseConv2DBias || type == OpType::Conv2DBackpropInput;
}

ConstraintResult checkTensQuantPerAxis(const OperationView& view) {
  std::vector<std::string> names;
  if (!acceptsPerAxisQuantisation(view.type())) {
    for (const Tensor* tensor : view.ifmIfm2WeightsOfm()) {
      if (isPerAxis(tensor->quantisation)) {
        names.push_back(tensor->name);
      }
    }
  }
  return {names.empty(), "The following tensor(s) have per-axis quantization parameters: " + joined(names)};
}

ConstraintResult checkBatchSize(const OperationView& view) {
  std::vector<std::string> failures;
  for (const Tensor* tensor : {view.ifm(), view.ifm2()}) {
    if (tensor != nullptr) {
      const int batch = fullShape4(tensor->shape).front();
      if (batch != 1) {
        failures.push_back("Tensor '" + tensor->name + "' has batch size: " + std::to_string(batch));
      }
    }
  }
  return {failures.empty(), joined(failures, "\n   ")};
}

bool isFusableActivation(OpType type) {
  return type == OpType::Relu || type == OpType::Relu6 || type == OpType::ReluN1To1 || type == OpType::Clip ||
         type == OpType::Tanh || type == OpType::Sigmoid || type == OpType::LUT;
}

ConstraintResult checkFusedActivation(const OperationView& view) {
  const auto& activation = view.op().activation;
  if (!activation) {
    return {true, "Op has no fused activation function"};
  }
  return {isFusableActivation(activation->type),
          "Op has its fused activation function as: " + std::string(npu::nameOf(activation->type))};
}

ConstraintResult checkFusedActivationType(const OperationView& view) {
  const auto& activation = view.op().activation;
  if (!activation) {
    return {true, "Op has no fused activation function"};
  }
  const Tensor* ofm = view.ofm();
  const bool valid =
      ofm != nullptr && (ofm->type == DataType::UInt8 || ofm->type == DataType::Int8 || ofm->type == DataType::Int16);
  return {valid,
          "Op has fused activation function " + std::string(builtinNameOf(activation->type)) +
              ", and Output tensor data type: " + (ofm == nullptr ? "None" : std::string(npu::nameOf(ofm->type)))};
}

} // namespace

const Constraint tensDtype{"tens_dtype", "Tensors must be of type: int16, int32, int8, uint8", checkTensDtype};
const Constraint tensInt32Ops{"tens_int32_ops",
                              "Tensors which are int32 are only valid when op type is: ADD, ARG_MAX, MUL, SHAPE, SUB, "
                              "TRANSPOSE",
                              checkTensInt32Ops};
const Constraint tensDimension{"tens_dimension", "Tensor dimensions must be in the range [1, 65535]",
                               checkTensDimension};
const Constraint tensQuantPerAxis{"tens_quant_per_axis",
                                  "Per-axis quantization is only supported for the following op types: CONV_2D, "
                                  "DEPTHWISE_CONV_2D, TRANSPOSE_CONV",
                                  checkTensQuantPerAxis};
const Constraint batchSize{"batch_size", "IFM Tensor batch size must be 1", checkBatchSize};
const Constraint fusedActivation{"faf",
                                 "The fused activation function (if present) must be one of type: LOGISTIC, RELU, "
                                 "RELU6, RELU_N1_TO_1, TANH",
                                 checkFusedActivation};
const Constraint fusedActivationType{"faf_type",
                                     "If a fused activation function is present, the Output tensor must be one of "
                                     "type: int16, int8, uint8",
                                     checkFusedActivationType};

} // namespace ethosu::support::npu_generic
