// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/graph.hpp"

#include "npu/core/diagnostics.hpp"

namespace npu {

const Tensor& Subgraph::tensor(TensorId id) const {
  require(validTensorId(id), "tensor index out of range");
  return tensors[static_cast<std::size_t>(id)];
}

Tensor& Subgraph::tensor(TensorId id) {
  require(validTensorId(id), "tensor index out of range");
  return tensors[static_cast<std::size_t>(id)];
}

const Tensor* Subgraph::findTensor(TensorId id) const {
  return validTensorId(id) ? &tensors[static_cast<std::size_t>(id)] : nullptr;
}

const Operation& Subgraph::operation(OperationId id) const {
  require(id >= 0 && static_cast<std::size_t>(id) < operations.size(), "operation index out of range");
  return operations[static_cast<std::size_t>(id)];
}

Operation& Subgraph::operation(OperationId id) {
  require(id >= 0 && static_cast<std::size_t>(id) < operations.size(), "operation index out of range");
  return operations[static_cast<std::size_t>(id)];
}

TensorId Subgraph::addTensor(Tensor newTensor) {
  tensors.push_back(std::move(newTensor));
  return static_cast<TensorId>(tensors.size() - 1);
}

OperationId Subgraph::addOperation(Operation newOperation) {
  operations.push_back(std::move(newOperation));
  return static_cast<OperationId>(operations.size() - 1);
}

Shape4 Subgraph::ifmShape(const Operation& op, std::size_t index) const {
  if (index < op.ifmShapes.size()) {
    return op.ifmShapes[index];
  }
  const TensorId id = index == 0 ? op.ifm() : op.ifm2();
  return validTensorId(id) ? Shape4::fromShape(tensor(id).shape) : Shape4{};
}

Shape4 Subgraph::ofmShape(const Operation& op, std::size_t index) const {
  if (index < op.ofmShapes.size()) {
    return op.ofmShapes[index];
  }
  const TensorId id = op.output(index);
  return validTensorId(id) ? Shape4::fromShape(tensor(id).shape) : Shape4{};
}

std::string Subgraph::describe(OperationId id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= operations.size()) {
    return "operator " + std::to_string(id);
  }
  const Operation& op = operations[static_cast<std::size_t>(id)];
  std::string text = "operator " + std::to_string(id);
  if (!op.name.empty()) {
    text += " '" + op.name + "'";
  }
  text += " (" + (op.sourceType.empty() ? std::string(nameOf(op.type)) : op.sourceType) + ")";
  return text;
}

} // namespace npu
