// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/tensor_placement.hpp"

namespace npu::scheduling {

TensorPlacement::TensorPlacement(const Subgraph& subgraph, const MemorySystem& memory)
    : subgraph_(&subgraph), constantArea_(memory.constantArea), featureMapArea_(memory.featureMapArea) {}

Placement TensorPlacement::of(TensorId tensor) const {
  const auto it = placements_.find(tensor);
  if (it != placements_.end()) {
    return it->second;
  }
  const Tensor* t = subgraph_->findTensor(tensor);
  if (t != nullptr && t->isConstant()) {
    return {constantArea_, Residency::Permanent};
  }
  return {featureMapArea_, Residency::Scratch};
}

} // namespace npu::scheduling
