// SPDX-License-Identifier: Apache-2.0
// Memory-only operators on the NPU (Vela graph_optimiser_util.py bypass_memory_only_ops): the producer
// writes the operator's output directly, or, when the input must be kept (other readers, produced by
// the CPU, a graph input or a constant), the operator becomes a Memcpy.
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

namespace ethosu::lowering {

using namespace npu;

namespace {

bool isMemoryOnly(OpType type) {
  return type == OpType::Reshape || type == OpType::QuantizedReshape || type == OpType::Squeeze ||
         type == OpType::ExpandDims || type == OpType::Identity;
}

bool inputMustBeKept(const Subgraph& subgraph, TensorId ifm) {
  if (consumerCount(subgraph, ifm) > 1 || isSubgraphInput(subgraph, ifm) || subgraph.tensor(ifm).isConstant()) {
    return true;
  }
  const auto producers = producersOf(subgraph, ifm);
  if (producers.empty()) {
    return true; // Vela: read from a Placeholder, which never runs on the NPU
  }
  for (OperationId producer : producers) {
    if (subgraph.operation(producer).placement != Placement::Npu) {
      return true;
    }
  }
  return false;
}

} // namespace

void bypassMemoryOnlyOperations(Subgraph& subgraph, const LoweringContext& /*context*/) {
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    Operation& op = subgraph.operations[i];
    if (op.placement != Placement::Npu || !isMemoryOnly(op.type) || op.inputs.empty()) {
      continue;
    }
    const TensorId ifm = op.inputs[0];
    const TensorId ofm = op.ofm();
    if (inputMustBeKept(subgraph, ifm)) {
      // The copy keeps every input, as Vela's Memcpy pass does: a RESHAPE's shape constant stays an
      // input and is laid out in the read-only area like any other constant a pass reads.
      op.type = OpType::Memcpy;
      setDefaultShapes(subgraph, op);
      continue;
    }
    for (OperationId producer : producersOf(subgraph, ifm)) {
      for (TensorId& output : subgraph.operation(producer).outputs) {
        if (output == ifm) {
          output = ofm;
        }
      }
    }
    subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
  }
}

void removePassThroughOperations(Subgraph& subgraph, const LoweringContext& /*context*/) {
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation op = subgraph.operations[i];
    if (op.type != OpType::Identity || op.inputs.empty() || op.outputs.size() != 1) {
      continue;
    }
    subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
    replaceTensorReads(subgraph, op.ofm(), op.ifm());
  }
}

} // namespace ethosu::lowering
