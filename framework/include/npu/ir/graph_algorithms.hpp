// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/ir/graph.hpp"

#include <optional>
#include <vector>

namespace npu {

/// Producer/consumer relations of a subgraph, computed once (on Boost.Graph) and then queried.
/// A snapshot: rebuild it after changing the subgraph.
class DataflowIndex {
public:
  explicit DataflowIndex(const Subgraph& subgraph);

  /// Operations writing the tensor (normally at most one).
  [[nodiscard]] const std::vector<OperationId>& producers(TensorId tensor) const;
  /// Operations reading the tensor, in operation order, each once.
  [[nodiscard]] const std::vector<OperationId>& consumers(TensorId tensor) const;
  /// Operations whose outputs the given operation reads, each once, ascending.
  [[nodiscard]] std::vector<OperationId> predecessors(OperationId op) const;
  /// Operations reading any output of the given operation, each once, ascending.
  [[nodiscard]] std::vector<OperationId> successors(OperationId op) const;

private:
  std::vector<std::vector<OperationId>> producers_;
  std::vector<std::vector<OperationId>> consumers_;
  const Subgraph* subgraph_;
};

/// Operations in a dependency-respecting order; ties keep the stored order, so the result is
/// deterministic. Empty optional when the operations form a cycle.
[[nodiscard]] std::optional<std::vector<OperationId>> topologicalOrder(const Subgraph& subgraph);

/// True when no operation depends, directly or indirectly, on its own output.
[[nodiscard]] bool isAcyclic(const Subgraph& subgraph);

/// A maximal run of consecutive operations (in execution order) with the same placement.
struct PlacementRegion {
  Placement placement = Placement::Unplaced;
  std::vector<OperationId> operations;
};

/// Splits the operations, in stored order, into runs of equal placement (Vela's NPU/CPU subgraphs).
[[nodiscard]] std::vector<PlacementRegion> partitionByPlacement(const Subgraph& subgraph);

/// Problems found by verifyGraph: empty when the graph is well formed.
struct GraphIssue {
  std::string subgraph;
  std::string message;
};

/// Structural checks every pass must keep: tensor indices in range, each tensor produced at most once
/// (or only by partial writes, each with a writeOffset),
/// operations in a valid execution order, inputs/outputs valid, constant data sizes matching shapes.
[[nodiscard]] std::vector<GraphIssue> verifyGraph(const Graph& graph);
/// Shape consistency of the operators of a model as a frontend reads it (before lowering): weights
/// against the OFM depth, bias lengths, batch, kernel against the IFM, per-channel quantisation against
/// the channels, broadcasts, concatenations, element counts of reshapes. Each issue names the operation.
[[nodiscard]] std::vector<GraphIssue> verifyOperatorShapes(const Graph& graph);
/// Throws an Internal error listing the issues when verifyGraph finds any; `after` names the pass.
void requireValidGraph(const Graph& graph, std::string_view after);

} // namespace npu
