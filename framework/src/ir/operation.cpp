// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/operation.hpp"

namespace npu {

TensorId Operation::ifm() const {
  switch (operandLayoutOf(type)) {
  case OperandLayout::Conv2DBackprop:
    return input(2);
  case OperandLayout::SplitIfm:
    return input(1);
  default:
    return input(0);
  }
}

TensorId Operation::ifm2() const {
  switch (operandLayoutOf(type)) {
  case OperandLayout::IfmIfm2:
    return input(1);
  case OperandLayout::Concat:
    return input(1);
  default:
    return kNoTensor;
  }
}

TensorId Operation::weights() const {
  switch (operandLayoutOf(type)) {
  case OperandLayout::IfmWeights:
  case OperandLayout::IfmWeightsBias:
  case OperandLayout::Conv2DBackprop:
  case OperandLayout::TransposeConv:
    return input(1);
  default:
    return kNoTensor;
  }
}

TensorId Operation::bias() const {
  switch (operandLayoutOf(type)) {
  case OperandLayout::IfmWeightsBias:
    return input(2);
  case OperandLayout::Conv2DBackprop:
  case OperandLayout::TransposeConv:
    return input(3);
  default:
    return kNoTensor;
  }
}

} // namespace npu
