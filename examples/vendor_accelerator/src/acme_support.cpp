#include "acme_accelerator.hpp"

#include <string>

namespace acme {

namespace {

bool isSupportedType(npu::OpType type) {
  switch (type) {
  case npu::OpType::Conv2DBias:
  case npu::OpType::DepthwiseConv2DBias:
  case npu::OpType::FullyConnected:
  case npu::OpType::MaxPool:
  case npu::OpType::AvgPool:
  case npu::OpType::Add:
  case npu::OpType::Mul:
    return true;
  default:
    return false;
  }
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

} // namespace acme
