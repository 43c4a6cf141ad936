// SPDX-License-Identifier: Apache-2.0
#include "ethosu/architecture/operation_traits.hpp"

namespace ethosu {

namespace {

bool isQuantised(const npu::Tensor* tensor) {
  return tensor == nullptr || !tensor->quantisation.empty();
}

bool readsLookupTable(const npu::Subgraph& subgraph, const npu::Operation& op) {
  if (op.activation && op.activation->lut != npu::kNoTensor) {
    return true;
  }
  for (const npu::TensorId input : op.inputs) {
    const npu::Tensor* tensor = subgraph.findTensor(input);
    if (tensor != nullptr && tensor->purpose == npu::TensorPurpose::Lut) {
      return true;
    }
  }
  return false;
}

} // namespace

bool primaryInputIsIfm2(const npu::Subgraph& subgraph, const npu::Operation& op) {
  if (!isBinaryElementwise(op.type)) {
    return false;
  }
  const npu::Tensor* ifm = subgraph.findTensor(op.ifm());
  const npu::Tensor* ifm2 = subgraph.findTensor(op.ifm2());
  const npu::Tensor* ofm = subgraph.findTensor(op.ofm());
  if (ifm == nullptr || ifm2 == nullptr || ofm == nullptr) {
    return false;
  }
  const auto isScalar = [](const npu::Tensor& tensor) { return tensor.shape.isScalar(); };
  const bool ifmCanSwap = ifm->isConstant() || isScalar(*ifm);
  const bool ifm2CanBePrimary = !(ifm2->isConstant() || isScalar(*ifm2) || ifm2->shape != ofm->shape);
  return ifmCanSwap && ifm2CanBePrimary;
}

OperationTraits traitsOf(const npu::Subgraph& subgraph, const npu::Operation& op) {
  OperationTraits traits;
  traits.type = op.type;
  traits.blockType = npuBlockTypeOf(op.type);
  traits.kernel = op.kernel.value_or(npu::Kernel{});
  if (op.activation) {
    traits.activation = op.activation->type;
  }
  traits.usesLookupTable = readsLookupTable(subgraph, op);
  traits.resampling = op.ifmResampling;

  const npu::Tensor* ifm = subgraph.findTensor(op.ifm());
  const npu::Tensor* ifm2 = subgraph.findTensor(op.ifm2());
  const npu::Tensor* ofm = subgraph.findTensor(op.ofm());
  traits.scaled = isQuantised(ifm) && isQuantised(ifm2) && isQuantised(ofm);
  traits.usesScalar = ifm2 != nullptr && ((ifm != nullptr && ifm->shape.isScalar()) || ifm2->shape.isScalar());
  traits.primaryIsIfm2 = primaryInputIsIfm2(subgraph, op);
  const npu::Tensor* primary = traits.primaryIsIfm2 ? ifm2 : ifm;
  const npu::Tensor* secondary = traits.primaryIsIfm2 ? ifm : ifm2;
  if (primary != nullptr) {
    traits.ifmType = primary->type;
  }
  if (secondary != nullptr) {
    traits.ifm2Type = secondary->type;
  }
  if (ofm != nullptr) {
    traits.ofmType = ofm->type;
  }
  traits.hasBias = subgraph.findTensor(op.bias()) != nullptr;
  if (const npu::Tensor* weights = subgraph.findTensor(op.weights())) {
    traits.originalWeightElements = weights->elements();
  }
  return traits;
}

} // namespace ethosu
