// SPDX-License-Identifier: Apache-2.0
#include "npu/core/diagnostics.hpp"
#include "npu/ir/graph_algorithms.hpp"

#include <set>

namespace npu {

namespace {
bool isEthosUProgram(const Operation& op) {
  const auto code = op.attributes.get<std::string>("custom_code");
  return (op.type == OpType::Custom || op.type == OpType::CustomNpuOp) && code && *code == "ethos-u";
}

std::int64_t expectedConstantBytes(const Tensor& tensor) {
  if (tensor.type == DataType::Int4) {
    return (tensor.elements() + 1) / 2;
  }
  return tensor.elements() * bytesOf(tensor.type);
}

void verifySubgraph(const Subgraph& subgraph, std::vector<GraphIssue>& issues) {
  const auto report = [&](std::string message) { issues.push_back({subgraph.name, std::move(message)}); };
  for (TensorId id : subgraph.inputs) {
    if (!subgraph.validTensorId(id)) {
      report("subgraph input " + std::to_string(id) + " is not a tensor of the subgraph");
    }
  }
  for (TensorId id : subgraph.outputs) {
    if (!subgraph.validTensorId(id)) {
      report("subgraph output " + std::to_string(id) + " is not a tensor of the subgraph");
    }
  }
  for (const Tensor& tensor : subgraph.tensors) {
    if (tensor.isConstant() && bytesOf(tensor.type) > 0 &&
        static_cast<std::int64_t>(tensor.data->size()) != expectedConstantBytes(tensor)) {
      report("constant tensor '" + tensor.name + "' holds " + std::to_string(tensor.data->size()) +
             " bytes but its shape " + tensor.shape.str() + " and type need " +
             std::to_string(expectedConstantBytes(tensor)));
    }
  }
  std::vector<int> producedBy(subgraph.tensors.size(), -1);
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation& op = subgraph.operations[i];
    const auto opId = static_cast<OperationId>(i);
    for (TensorId output : op.outputs) {
      if (!subgraph.validTensorId(output)) {
        report(subgraph.describe(opId) + " writes tensor index " + std::to_string(output) + ", which does not exist");
        continue;
      }
      auto& producer = producedBy[static_cast<std::size_t>(output)];
      // Several operations may write one tensor when each writes only a part of it (concatenation by
      // offset: writeOffset/writeShape set on every writer).
      // An ethos-u operator (an NPU program) writes whatever its command stream writes: Vela's output
      // model may have two of them write parts of one tensor (a concatenation completed by a later one).
      const Operation* earlier = producer >= 0 ? &subgraph.operations[static_cast<std::size_t>(producer)] : nullptr;
      const bool partialWrites =
          earlier != nullptr && ((op.writeOffset.has_value() && earlier->writeOffset.has_value()) ||
                                 (isEthosUProgram(op) && isEthosUProgram(*earlier)));
      if (producer >= 0 && !partialWrites) {
        report("tensor '" + subgraph.tensor(output).name + "' is written by both " + subgraph.describe(producer) +
               " and " + subgraph.describe(opId));
      }
      producer = opId;
    }
    for (TensorId input : op.inputs) {
      if (input != kNoTensor && !subgraph.validTensorId(input)) {
        report(subgraph.describe(opId) + " reads tensor index " + std::to_string(input) + ", which does not exist");
      }
    }
  }
  // Execution order: an operation may only read what is produced before it (or is not produced).
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    for (TensorId input : subgraph.operations[i].inputs) {
      if (!subgraph.validTensorId(input)) {
        continue;
      }
      const int producer = producedBy[static_cast<std::size_t>(input)];
      if (producer >= static_cast<int>(i) && !subgraph.tensor(input).isVariable) {
        report(subgraph.describe(static_cast<OperationId>(i)) + " reads tensor '" + subgraph.tensor(input).name +
               "' before " + subgraph.describe(producer) + " writes it");
      }
    }
  }
}
} // namespace

std::vector<GraphIssue> verifyGraph(const Graph& graph) {
  std::vector<GraphIssue> issues;
  for (const Subgraph& subgraph : graph.subgraphs) {
    verifySubgraph(subgraph, issues);
  }
  return issues;
}

void requireValidGraph(const Graph& graph, std::string_view after) {
  const auto issues = verifyGraph(graph);
  if (issues.empty()) {
    return;
  }
  std::string message = "the graph is invalid after " + std::string(after) + ":";
  for (const auto& issue : issues) {
    message += "\n  subgraph '" + issue.subgraph + "': " + issue.message;
  }
  throwInternalError(message);
}

} // namespace npu
