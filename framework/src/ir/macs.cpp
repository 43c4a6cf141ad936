// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/macs.hpp"

namespace npu {

namespace {
std::int64_t product(const Shape& shape, int first, int last) {
  std::int64_t value = 1;
  for (int axis = first; axis < last && axis < shape.rank(); ++axis) {
    value *= shape[axis];
  }
  return value;
}

const Tensor* tensorOrNull(const Subgraph& subgraph, TensorId id) { return subgraph.findTensor(id); }
} // namespace

std::int64_t countMacs(const Subgraph& subgraph, const Operation& op) {
  const Tensor* ofm = tensorOrNull(subgraph, op.ofm());
  const Tensor* weights = tensorOrNull(subgraph, op.weights());
  const Tensor* ifm = tensorOrNull(subgraph, op.ifm());
  if (ofm == nullptr || weights == nullptr || ifm == nullptr) {
    return 0;
  }
  const Shape& w = weights->shape;
  switch (op.type) {
  case OpType::Conv2D:
  case OpType::Conv2DBias:
  case OpType::QuantizedConv2D: {
    // TFLite weights are [OC, KH, KW, IC / groups].
    if (w.rank() != 4) {
      return 0;
    }
    return ofm->elements() * w[1] * w[2] * w[3];
  }
  case OpType::DepthwiseConv2DBias: {
    // Weights [1, KH, KW, OC]: every output element takes KH*KW products.
    if (w.rank() != 4) {
      return 0;
    }
    return ofm->elements() * w[1] * w[2];
  }
  case OpType::FullyConnected:
  case OpType::QuantizedMatMul:
  case OpType::MatMul: {
    // Weights [OC, IC]; every output element takes IC products.
    if (w.rank() < 2) {
      return 0;
    }
    return ofm->elements() * product(w, 1, w.rank());
  }
  case OpType::Conv2DBackpropInput:
  case OpType::Conv2DBackpropInputSwitchedBias: {
    // Weights [OC, KH, KW, IC]: every input element is spread over KH*KW*OC outputs.
    if (w.rank() != 4) {
      return 0;
    }
    return ifm->elements() * w[0] * w[1] * w[2];
  }
  default:
    return 0;
  }
}

std::int64_t weightBytes(const Subgraph& subgraph, const Operation& op) {
  std::int64_t bytes = 0;
  for (TensorId id : {op.weights(), op.bias()}) {
    if (const Tensor* tensor = subgraph.findTensor(id); tensor != nullptr && tensor->isConstant()) {
      bytes += static_cast<std::int64_t>(tensor->data->size());
    }
  }
  return bytes;
}

} // namespace npu
