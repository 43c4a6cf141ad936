// SPDX-License-Identifier: Apache-2.0
#include "acme_accelerator.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace acme {

namespace {

constexpr std::array kSupportedTypes{npu::OpType::Conv2DBias,
                                     npu::OpType::DepthwiseConv2DBias,
                                     npu::OpType::FullyConnected,
                                     npu::OpType::MaxPool,
                                     npu::OpType::AvgPool,
                                     npu::OpType::Add,
                                     npu::OpType::Mul};

bool isSupportedType(npu::OpType type) {
  return std::find(kSupportedTypes.begin(), kSupportedTypes.end(), type) != kSupportedTypes.end();
}

npu::SupportVerdict reject(std::string constraint, std::string reason) {
  return npu::SupportVerdict{false, std::move(constraint), std::move(reason)};
}

} // namespace

npu::SupportVerdict Support::check(const npu::Subgraph& subgraph, const npu::Operation& op) const {
  if (!isSupportedType(op.type)) {
    return reject("op_type", "the Acme NPU does not run " +
                                 (op.sourceType.empty() ? std::string(npu::nameOf(op.type)) : op.sourceType));
  }
  for (npu::TensorId id : {op.ifm(), op.ifm2(), op.ofm()}) {
    const npu::Tensor* tensor = subgraph.findTensor(id);
    if (tensor != nullptr && tensor->type != npu::DataType::Int8) {
      return reject("int8_only", "feature maps must be int8; tensor '" + tensor->name + "' is " +
                                     std::string(npu::nameOf(tensor->type)));
    }
  }
  if (const npu::Tensor* weights = subgraph.findTensor(op.weights()); weights != nullptr && !weights->isConstant()) {
    return reject("constant_weights", "weights must be constant");
  }
  if (op.kernel) {
    const npu::Kernel& kernel = *op.kernel;
    if (kernel.width > kMaxKernel || kernel.height > kMaxKernel) {
      return reject("kernel_size", "kernels up to " + std::to_string(kMaxKernel) + "x" + std::to_string(kMaxKernel) +
                                       " are supported; this one is " + std::to_string(kernel.width) + "x" +
                                       std::to_string(kernel.height));
    }
    if (kernel.strideX > kMaxStride || kernel.strideY > kMaxStride) {
      return reject("stride", "strides up to " + std::to_string(kMaxStride) + " are supported; this one is " +
                                  std::to_string(kernel.strideX) + "x" + std::to_string(kernel.strideY));
    }
    if (kernel.dilationX != 1 || kernel.dilationY != 1) {
      return reject("dilation", "dilated kernels are not supported");
    }
  }
  if (npu::isBinaryElementwise(op.type) && subgraph.validTensorId(op.ifm2()) &&
      subgraph.ifmShape(op, 0) != subgraph.ifmShape(op, 1)) {
    return reject("broadcast", "both inputs of " + std::string(npu::nameOf(op.type)) + " must have the same shape");
  }
  return {};
}

std::vector<npu::SupportedOperatorType> Support::describe() const {
  const std::vector<npu::SupportConstraint> generic{
      {"int8_only", "feature maps must be int8"},
      {"constant_weights", "weights must be constant"},
      {"kernel_size", "kernels up to " + std::to_string(kMaxKernel) + "x" + std::to_string(kMaxKernel)},
      {"stride", "strides up to " + std::to_string(kMaxStride)},
      {"dilation", "no dilation"},
  };
  std::vector<npu::SupportedOperatorType> types;
  for (const npu::OpType type : kSupportedTypes) {
    npu::SupportedOperatorType entry{std::string(npu::nameOf(type)), generic};
    if (npu::isBinaryElementwise(type)) {
      entry.constraints.push_back({"broadcast", "both inputs must have the same shape"});
    }
    types.push_back(std::move(entry));
  }
  return types;
}

} // namespace acme
