// SPDX-License-Identifier: Apache-2.0
#include "option_reader.hpp"

#include "tensor_reader.hpp"

#include <cstdint>
#include <limits>

namespace npu::tflite_frontend::detail {

void OptionReader::text(const char* name, const flatbuffers::String* value) {
  operation_.attributes.set(name, value == nullptr ? std::string() : value->str());
}

void OptionReader::integers(const char* name, const flatbuffers::Vector<std::int32_t>* values) {
  if (values != nullptr) {
    operation_.attributes.set(name, std::vector<std::int64_t>(values->begin(), values->end()));
  }
}

void OptionReader::numbers(const char* name, const flatbuffers::Vector<float>* values) {
  if (values != nullptr) {
    operation_.attributes.set(name, std::vector<double>(values->begin(), values->end()));
  }
}

void OptionReader::tensorType(const char* name, tflite::TensorType type) {
  const std::optional<DataType> dataType = dataTypeOf(type);
  if (!dataType) {
    fail(std::string(name) + " is the unknown tensor type " + std::to_string(static_cast<int>(type)));
  }
  operation_.attributes.set(name, std::string(nameOf(*dataType)));
}

void OptionReader::enumeration(const char* name, const char* spelling, int value) {
  if (spelling == nullptr || *spelling == '\0') {
    fail(std::string(name) + " has the unknown value " + std::to_string(value));
  }
  operation_.attributes.set(name, std::string(spelling));
}

void OptionReader::subgraphIndex(const char* name, std::int64_t index) {
  if (index < 0 || static_cast<std::size_t>(index) >= context_.subgraphCount()) {
    fail(std::string(name) + " " + std::to_string(index) + " is not a subgraph of the model (it has " +
         std::to_string(context_.subgraphCount()) + ")");
  }
  integer(name, index);
}

void OptionReader::padding(tflite::Padding padding) {
  switch (padding) {
  case tflite::Padding::SAME:
    operation_.padding = Padding::Same;
    return;
  case tflite::Padding::VALID:
    operation_.padding = Padding::Valid;
    return;
  }
  fail("padding has the unknown value " + std::to_string(static_cast<int>(padding)));
}

// The clamp ranges are those of Vela's create_activation_function (ethosu/vela/operation.py).
void OptionReader::activation(tflite::ActivationFunctionType function) {
  using F = tflite::ActivationFunctionType;
  switch (function) {
  case F::NONE:
    operation_.activation.reset();
    return;
  case F::RELU:
    operation_.activation = Activation{OpType::Relu, 0.0, std::nullopt};
    return;
  case F::RELU_N1_TO_1:
    operation_.activation = Activation{OpType::ReluN1To1, -1.0, 1.0};
    return;
  case F::RELU6:
    operation_.activation = Activation{OpType::Relu6, 0.0, 6.0};
    return;
  case F::TANH:
    operation_.activation = Activation{OpType::Tanh, -1.0, 1.0};
    return;
  case F::SIGN_BIT:
    operation_.activation = Activation{OpType::SignBit, std::nullopt, std::nullopt};
    return;
  }
  fail("fused_activation_function has the unknown value " + std::to_string(static_cast<int>(function)));
}

void OptionReader::convolutionKernel(int strideW, int strideH, int dilationW, int dilationH) {
  const Tensor& weights = requiredInput(1, "weights");
  if (weights.shape.rank() != 4) {
    fail("the weights tensor '" + weights.name + "' has shape " + weights.shape.str() + ", expected 4 dimensions");
  }
  setKernel(Kernel{weights.shape[2], weights.shape[1], strideW, strideH, dilationW, dilationH});
}

void OptionReader::poolingKernel(int filterW, int filterH, int strideW, int strideH) {
  setKernel(Kernel{filterW, filterH, strideW, strideH, 1, 1});
}

// TFLite writes depth_multiplier 0 when the multiplier is implied; Vela's tflite_reader (parse_operator)
// then derives it from the weights' channels and the IFM's channels, and so do we.
void OptionReader::depthMultiplier(int multiplier) {
  if (multiplier == 0) {
    const Tensor& weights = requiredInput(1, "weights");
    const Tensor& ifm = requiredInput(0, "input");
    if (!weights.shape.isScalar() && !ifm.shape.isScalar() && ifm.shape.back(0) > 0) {
      multiplier = weights.shape.back(0) / ifm.shape.back(0);
    }
  }
  integer("depth_multiplier", multiplier);
}

// Vela's tflite_reader (parse_operator) fills the CAST types in from the tensors when they are missing.
void OptionReader::castTypes() {
  if (!operation_.attributes.has("in_data_type") && operation_.input(0) != kNoTensor) {
    operation_.attributes.set("in_data_type", std::string(nameOf(tensors_.at(operation_.input(0)).type)));
  }
  if (!operation_.attributes.has("out_data_type") && operation_.output(0) != kNoTensor) {
    operation_.attributes.set("out_data_type", std::string(nameOf(tensors_.at(operation_.output(0)).type)));
  }
}

void OptionReader::fail(const std::string& message) const {
  context_.fail(message, source_.who);
}

const Tensor& OptionReader::requiredInput(std::size_t index, const char* role) const {
  const TensorId id = operation_.input(index);
  if (id == kNoTensor) {
    fail(std::string("the operator has no ") + role + " tensor (input " + std::to_string(index) + ")");
  }
  return tensors_.at(static_cast<std::size_t>(id));
}

void OptionReader::setKernel(const Kernel& kernel) {
  if (kernel.width < 1 || kernel.height < 1) {
    fail("the kernel size " + std::to_string(kernel.width) + "x" + std::to_string(kernel.height) + " is not positive");
  }
  if (kernel.strideX < 1 || kernel.strideY < 1) {
    fail("the strides (" + std::to_string(kernel.strideX) + ", " + std::to_string(kernel.strideY) +
         ") are not positive");
  }
  if (kernel.dilationX < 1 || kernel.dilationY < 1) {
    fail("the dilation factors (" + std::to_string(kernel.dilationX) + ", " + std::to_string(kernel.dilationY) +
         ") are not positive");
  }
  // TFLite computes the dilated extent (size - 1) * dilation + 1 in 32 bits, and so does every stage after
  // this one (Kernel::areaWidth): an extent beyond that range is no model TFLite can run.
  const std::int64_t width = (std::int64_t{kernel.width} - 1) * kernel.dilationX + 1;
  const std::int64_t height = (std::int64_t{kernel.height} - 1) * kernel.dilationY + 1;
  if (width > std::numeric_limits<int>::max() || height > std::numeric_limits<int>::max()) {
    fail("the dilated kernel is " + std::to_string(width) + "x" + std::to_string(height) +
         " (width x height), beyond 32 bits");
  }
  operation_.kernel = kernel;
}

} // namespace npu::tflite_frontend::detail
