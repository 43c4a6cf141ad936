// SPDX-License-Identifier: Apache-2.0
#include "vela21_overwrite.hpp"

#include <vector>

namespace npu::dp {

namespace {

std::optional<TensorId> inputOverwrittenByOfm(const scheduling::SchedulingGraph& graph, int index,
                                              const scheduling::TensorFilter& considered, bool formatsDecided) {
  const Subgraph& subgraph = graph.subgraph();
  const Operation& op = graph.irOperation(index);
  if (!isElementwise(op.type) || op.type == OpType::SHL || op.type == OpType::SHR ||
      graph.operation(index).writesVariable) {
    return std::nullopt;
  }
  const auto inMemory = [&](TensorId tensor) {
    const Tensor* t = subgraph.findTensor(tensor);
    return t != nullptr && t->purpose != TensorPurpose::Virtual && (!considered || considered(tensor));
  };
  const TensorId ofm = op.ofm();
  if (!inMemory(ofm)) {
    return std::nullopt;
  }
  const auto hasShape = [&](TensorId tensor) {
    const Tensor* t = subgraph.findTensor(tensor);
    return t != nullptr && !t->shape.isScalar();
  };
  std::vector<TensorId> candidates;
  if (hasShape(op.ifm()) && inMemory(op.ifm())) {
    candidates.push_back(op.ifm());
  }
  if (hasShape(op.ifm2()) && inMemory(op.ifm2()) && inMemory(op.ifm())) {
    candidates.push_back(op.ifm2());
  }
  const Shape4 ofmShape = subgraph.ofmShape(op);
  const Tensor& out = subgraph.tensor(ofm);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const TensorId input = candidates[i];
    const scheduling::TensorUse& use = graph.use(input);
    if ((!formatsDecided || graph.format(input) == graph.format(ofm)) && subgraph.tensor(input).type == out.type &&
        subgraph.ifmShape(op, i) == ofmShape && use.consumers == 1 && use.producers <= 1) {
      return input;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<TensorId> vela21InputOverwrittenByOfm(const scheduling::SchedulingGraph& graph, int index,
                                                    const scheduling::TensorFilter& considered) {
  return inputOverwrittenByOfm(graph, index, considered, true);
}

std::optional<TensorId> vela21InputOverwrittenBeforeScheduling(const scheduling::SchedulingGraph& graph, int index,
                                                               const scheduling::TensorFilter& considered) {
  return inputOverwrittenByOfm(graph, index, considered, false);
}

} // namespace npu::dp
