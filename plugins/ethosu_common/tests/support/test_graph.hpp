// SPDX-License-Identifier: Apache-2.0
#pragma once

// Hand-made subgraphs for the supported-operator tests: tensors and one operation under test, laid
// out as the TFLite frontend lays them out (TFLite operand order and weight layouts).

#include "ethosu/support/operator_support.hpp"

#include "npu/ir/graph.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ethosu::test {

/// Little-endian bytes of integer values stored as `type`.
inline npu::ConstantBuffer integerBuffer(npu::DataType type, const std::vector<std::int64_t>& values) {
  const auto bytesPerValue = static_cast<std::size_t>(npu::bytesOf(type));
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(values.size() * bytesPerValue);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::memcpy(bytes->data() + i * bytesPerValue, &values[i], bytesPerValue); // little-endian host
  }
  return bytes;
}

struct TestGraph {
  npu::Subgraph subgraph;
  npu::OperationId op = -1;

  /// A quantised feature map (scale 0.5, zero point 0).
  npu::TensorId featureMap(const std::string& name, npu::Shape shape, npu::DataType type = npu::DataType::Int8) {
    npu::Tensor tensor;
    tensor.name = name;
    tensor.shape = std::move(shape);
    tensor.type = type;
    tensor.quantisation.scale = {0.5};
    tensor.quantisation.zeroPoint = {0};
    return subgraph.addTensor(std::move(tensor));
  }
  /// A quantised constant of integer values.
  npu::TensorId constant(const std::string& name, npu::Shape shape, npu::DataType type,
                         const std::vector<std::int64_t>& values) {
    const npu::TensorId id = featureMap(name, std::move(shape), type);
    subgraph.tensor(id).data = integerBuffer(type, values);
    return id;
  }
  /// A constant filled with one value.
  npu::TensorId filled(const std::string& name, npu::Shape shape, npu::DataType type, std::int64_t value) {
    const auto count = static_cast<std::size_t>(shape.elements());
    return constant(name, std::move(shape), type, std::vector<std::int64_t>(count, value));
  }
  /// Adds the operation under test (named after its first output, as the frontend names them).
  npu::Operation& operation(npu::OpType type, const std::string& sourceType, std::vector<npu::TensorId> inputs,
                            std::vector<npu::TensorId> outputs) {
    npu::Operation operation;
    operation.type = type;
    operation.sourceType = sourceType;
    operation.inputs = std::move(inputs);
    operation.outputs = std::move(outputs);
    operation.name = operation.outputs.empty() ? "op" : subgraph.tensor(operation.outputs.front()).name;
    // inputs nothing produces are the graph's inputs (else Vela would take them for constants)
    for (const npu::TensorId id : operation.inputs) {
      if (id != npu::kNoTensor && !subgraph.tensor(id).isConstant() && !isGraphInput(id) && !isProduced(id)) {
        subgraph.inputs.push_back(id);
      }
    }
    op = subgraph.addOperation(std::move(operation));
    return the();
  }
  [[nodiscard]] bool isProduced(npu::TensorId id) const {
    return std::any_of(subgraph.operations.begin(), subgraph.operations.end(), [id](const npu::Operation& other) {
      return std::find(other.outputs.begin(), other.outputs.end(), id) != other.outputs.end();
    });
  }
  [[nodiscard]] bool isGraphInput(npu::TensorId id) const {
    return std::find(subgraph.inputs.begin(), subgraph.inputs.end(), id) != subgraph.inputs.end();
  }
  /// Makes a tensor neither a graph input nor produced by anything.
  void detachFromGraphInputs(const std::string& name) {
    std::erase_if(subgraph.inputs, [&](npu::TensorId id) { return subgraph.tensor(id).name == name; });
  }
  npu::Operation& the() { return subgraph.operation(op); }
  npu::Tensor& tensor(const std::string& name) {
    for (auto& tensor : subgraph.tensors) {
      if (tensor.name == name) {
        return tensor;
      }
    }
    throw std::runtime_error("no tensor " + name);
  }
  void setValues(const std::string& name, const std::vector<std::int64_t>& values) {
    npu::Tensor& target = tensor(name);
    target.data = integerBuffer(target.type, values);
  }

  [[nodiscard]] SupportDiagnosis diagnose(const SupportArchitecture& architecture = {}) const {
    return OperatorSupportChecker(architecture).diagnose(subgraph, subgraph.operation(op));
  }
};

/// An operation kernel as the frontend sets it.
inline npu::Kernel kernelOf(int width, int height, int strideX = 1, int strideY = 1, int dilationX = 1,
                            int dilationY = 1) {
  return npu::Kernel{width, height, strideX, strideY, dilationX, dilationY};
}

} // namespace ethosu::test
