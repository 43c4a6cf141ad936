// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the writer writes and in which order, decided before any byte is laid out: the tensors of each
// subgraph and the operator code table.

#include "npu/ir/graph.hpp"

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::tflite_frontend::detail {

/// The tensors of one subgraph that are written, in file order.
struct WrittenTensors {
  std::vector<TensorId> order;           ///< file index -> the graph's tensor id
  std::vector<std::int32_t> fileIndexOf; ///< the graph's tensor id -> file index, -1 when not written

  [[nodiscard]] std::int32_t fileIndex(TensorId id) const {
    return id >= 0 && static_cast<std::size_t>(id) < fileIndexOf.size() ? fileIndexOf[id] : -1;
  }
};

/// Vela's tensor selection and order (tflite_writer.py, serialise_subgraph): the subgraph's inputs and
/// every tensor an operation uses, sorted by name; equal names keep the graph's order.
[[nodiscard]] WrittenTensors selectTensors(const Subgraph& subgraph);

/// One entry of the operator code table, in Vela's sort order: operation type (OpType follows Vela's Op
/// enum), then custom code, then version.
struct OperatorCodeKey {
  OpType type = OpType::Unknown;
  std::string customCode; ///< only third-party custom operators (OpType::Custom) have one
  std::int32_t version = 1;
  auto operator<=>(const OperatorCodeKey&) const = default;
};

/// The TFLite builtin code an operation is written with (CUSTOM for both custom types); -1 for types
/// without one (OpType::Unknown, and the NPU-internal types lowering creates).
[[nodiscard]] std::int32_t builtinCodeOf(OpType type);

/// The key of an operation; `who` names it in errors (an operation type without a builtin code, a
/// version attribute that is not a positive 32-bit integer).
[[nodiscard]] OperatorCodeKey operatorCodeKeyOf(const Operation& op, const std::string& who);

/// The operator code table of a graph and the entry every operation refers to.
class OperatorCodeTable {
public:
  explicit OperatorCodeTable(const Graph& graph);

  [[nodiscard]] const std::vector<OperatorCodeKey>& codes() const { return codes_; }
  /// The index an operation's opcode_index refers to. As in Vela, all operations of one builtin type
  /// (or one custom code) refer to the last entry of that type, whatever their own version.
  [[nodiscard]] std::uint32_t indexOf(const Operation& op, const std::string& who) const;

private:
  std::vector<OperatorCodeKey> codes_;
  std::map<std::pair<OpType, std::string>, std::uint32_t> lastIndex_;
};

/// "subgraph 0, operator 3 'name' (CONV_2D)" for messages.
[[nodiscard]] std::string describeWrittenOperator(std::size_t subgraph, std::size_t index, const Operation& op);

} // namespace npu::tflite_frontend::detail
