// SPDX-License-Identifier: Apache-2.0
#include "vela21_overwrite.hpp"

#include <vector>

namespace npu::dp {

namespace {

/// The shape 2.1.1's operation has for an operand: the tensor's own shape when 2.1.1 made the operation
/// after remove_reshapes (set_ifm_ofm_shapes; the 2.1 lowering's "vela21_*_shape"), else the view.
Shape4 vela21Shape(const Operation& op, const char* key, Shape4 view) {
  if (const auto own = op.attributes.get<std::vector<std::int64_t>>(key); own && own->size() == 4) {
    return Shape4{static_cast<int>((*own)[0]), static_cast<int>((*own)[1]), static_cast<int>((*own)[2]),
                  static_cast<int>((*own)[3])};
  }
  return view;
}

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
  const Shape4 ofmShape = vela21Shape(op, "vela21_ofm_shape", subgraph.ofmShape(op));
  const Tensor& out = subgraph.tensor(ofm);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const TensorId input = candidates[i];
    const scheduling::TensorUse& use = graph.use(input);
    if ((!formatsDecided || graph.format(input) == graph.format(ofm)) && subgraph.tensor(input).type == out.type &&
        vela21Shape(op, i == 0 ? "vela21_ifm_shape" : "vela21_ifm2_shape", subgraph.ifmShape(op, i)) == ofmShape &&
        use.consumers == 1 && use.producers <= 1) {
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
