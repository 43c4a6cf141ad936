// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/graph_algorithms.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/topological_sort.hpp>

#include <algorithm>
#include <functional>
#include <queue>
#include <set>

namespace npu {

namespace {
using OperationGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

/// Producer -> consumer edges between operations, one per (producer, consumer) pair.
OperationGraph buildOperationGraph(const Subgraph& subgraph, const DataflowIndex& index) {
  OperationGraph graph(subgraph.operations.size());
  for (std::size_t op = 0; op < subgraph.operations.size(); ++op) {
    for (OperationId successor : index.successors(static_cast<OperationId>(op))) {
      boost::add_edge(op, static_cast<std::size_t>(successor), graph);
    }
  }
  return graph;
}

/// Operations are added in ascending order, so a repeat can only be the last entry: checking it keeps
/// building the index linear even for a constant read by thousands of operations.
void addUnique(std::vector<OperationId>& list, OperationId op) {
  if (list.empty() || list.back() != op) {
    list.push_back(op);
  }
}
} // namespace

DataflowIndex::DataflowIndex(const Subgraph& subgraph)
    : producers_(subgraph.tensors.size()), consumers_(subgraph.tensors.size()), subgraph_(&subgraph) {
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const auto op = static_cast<OperationId>(i);
    const Operation& operation = subgraph.operations[i];
    for (TensorId input : operation.inputs) {
      if (subgraph.validTensorId(input)) {
        addUnique(consumers_[static_cast<std::size_t>(input)], op);
      }
    }
    for (TensorId output : operation.outputs) {
      if (subgraph.validTensorId(output)) {
        addUnique(producers_[static_cast<std::size_t>(output)], op);
      }
    }
  }
}

const std::vector<OperationId>& DataflowIndex::producers(TensorId tensor) const {
  require(subgraph_->validTensorId(tensor), "producers() of an invalid tensor");
  return producers_[static_cast<std::size_t>(tensor)];
}

const std::vector<OperationId>& DataflowIndex::consumers(TensorId tensor) const {
  require(subgraph_->validTensorId(tensor), "consumers() of an invalid tensor");
  return consumers_[static_cast<std::size_t>(tensor)];
}

std::vector<OperationId> DataflowIndex::predecessors(OperationId op) const {
  std::set<OperationId> result;
  for (TensorId input : subgraph_->operation(op).inputs) {
    if (subgraph_->validTensorId(input)) {
      const auto& list = producers_[static_cast<std::size_t>(input)];
      result.insert(list.begin(), list.end());
    }
  }
  return {result.begin(), result.end()};
}

std::vector<OperationId> DataflowIndex::successors(OperationId op) const {
  std::set<OperationId> result;
  for (TensorId output : subgraph_->operation(op).outputs) {
    if (subgraph_->validTensorId(output)) {
      const auto& list = consumers_[static_cast<std::size_t>(output)];
      result.insert(list.begin(), list.end());
    }
  }
  return {result.begin(), result.end()};
}

bool isAcyclic(const Subgraph& subgraph) {
  const DataflowIndex index(subgraph);
  const OperationGraph graph = buildOperationGraph(subgraph, index);
  std::vector<std::size_t> order;
  try {
    boost::topological_sort(graph, std::back_inserter(order));
  } catch (const boost::not_a_dag&) {
    return false;
  }
  return true;
}

std::optional<std::vector<OperationId>> topologicalOrder(const Subgraph& subgraph) {
  const DataflowIndex index(subgraph);
  const OperationGraph graph = buildOperationGraph(subgraph, index);
  const std::size_t count = boost::num_vertices(graph);
  std::vector<std::size_t> pendingInputs(count);
  for (std::size_t v = 0; v < count; ++v) {
    pendingInputs[v] = boost::in_degree(v, graph);
  }
  // Kahn's algorithm, always taking the lowest stored index that is ready: stable and deterministic.
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t v = 0; v < count; ++v) {
    if (pendingInputs[v] == 0) {
      ready.push(v);
    }
  }
  std::vector<OperationId> order;
  order.reserve(count);
  while (!ready.empty()) {
    const std::size_t v = ready.top();
    ready.pop();
    order.push_back(static_cast<OperationId>(v));
    for (auto [edge, last] = boost::out_edges(v, graph); edge != last; ++edge) {
      const std::size_t target = boost::target(*edge, graph);
      if (--pendingInputs[target] == 0) {
        ready.push(target);
      }
    }
  }
  if (order.size() != count) {
    return std::nullopt;
  }
  return order;
}

std::vector<PlacementRegion> partitionByPlacement(const Subgraph& subgraph) {
  std::vector<PlacementRegion> regions;
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Placement placement = subgraph.operations[i].placement;
    if (regions.empty() || regions.back().placement != placement) {
      regions.push_back(PlacementRegion{placement, {}});
    }
    regions.back().operations.push_back(static_cast<OperationId>(i));
  }
  return regions;
}

} // namespace npu
