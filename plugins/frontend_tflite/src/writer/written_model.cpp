// SPDX-License-Identifier: Apache-2.0
#include "written_model.hpp"

#include "frontend_tflite/builtin_operators.hpp"

#include "npu/core/diagnostics.hpp"

#include <tflite/tflite_schema_generated.h>

#include <algorithm>
#include <array>
#include <limits>
#include <set>

namespace npu::tflite_frontend::detail {

namespace {

constexpr std::size_t kOpTypeCount = static_cast<std::size_t>(OpType::Unknown) + 1;

/// The reader's operator mapping, inverted (it maps every builtin Vela knows to its own type).
std::array<std::int32_t, kOpTypeCount> builtinCodesByType() {
  std::array<std::int32_t, kOpTypeCount> codes{};
  codes.fill(-1);
  for (const tflite::BuiltinOperator builtin : tflite::EnumValuesBuiltinOperator()) {
    const auto code = static_cast<std::int32_t>(builtin);
    const OpType type = opTypeOfBuiltin(code);
    if (type != OpType::Unknown) {
      codes[static_cast<std::size_t>(type)] = code;
    }
  }
  codes[static_cast<std::size_t>(OpType::CustomNpuOp)] = kCustomOperatorCode;
  return codes;
}

} // namespace

std::int32_t builtinCodeOf(OpType type) {
  static const std::array<std::int32_t, kOpTypeCount> codes = builtinCodesByType();
  return codes[static_cast<std::size_t>(type)];
}

std::string describeWrittenOperator(std::size_t subgraph, std::size_t index, const Operation& op) {
  return "subgraph " + std::to_string(subgraph) + ", operator " + std::to_string(index) + " '" + op.name + "' (" +
         (op.sourceType.empty() ? std::string(nameOf(op.type)) : op.sourceType) + ")";
}

// The tensor set and sort of tflite_writer.py (serialise_subgraph).
WrittenTensors selectTensors(const Subgraph& subgraph) {
  std::vector<bool> written(subgraph.tensors.size(), false);
  const auto mark = [&](TensorId id) {
    if (subgraph.validTensorId(id)) {
      written[static_cast<std::size_t>(id)] = true;
    }
  };
  std::for_each(subgraph.inputs.begin(), subgraph.inputs.end(), mark);
  for (const Operation& op : subgraph.operations) {
    std::for_each(op.inputs.begin(), op.inputs.end(), mark);
    std::for_each(op.outputs.begin(), op.outputs.end(), mark);
    std::for_each(op.intermediates.begin(), op.intermediates.end(), mark);
  }

  WrittenTensors tensors;
  for (std::size_t id = 0; id < written.size(); ++id) {
    if (written[id]) {
      tensors.order.push_back(static_cast<TensorId>(id));
    }
  }
  // Stable: equal names keep the graph's order (Vela's order for them is that of a Python set).
  std::stable_sort(tensors.order.begin(), tensors.order.end(),
                   [&](TensorId a, TensorId b) { return subgraph.tensor(a).name < subgraph.tensor(b).name; });
  tensors.fileIndexOf.assign(subgraph.tensors.size(), -1);
  for (std::size_t index = 0; index < tensors.order.size(); ++index) {
    tensors.fileIndexOf[static_cast<std::size_t>(tensors.order[index])] = static_cast<std::int32_t>(index);
  }
  return tensors;
}

OperatorCodeKey operatorCodeKeyOf(const Operation& op, const std::string& who) {
  if (builtinCodeOf(op.type) < 0) {
    throwModelError("the operator cannot be written to a TFLite model: operation type " + std::string(nameOf(op.type)) +
                        " has no TFLite operator code",
                    SourceLocation{{}, 0, 0, who},
                    "only operators of the TFLite schema that Vela maps can be written (StableHLO operators "
                    "and codes newer than the schema cannot)");
  }
  OperatorCodeKey key;
  key.type = op.type;
  if (op.type == OpType::Custom) {
    const auto code = op.attributes.get<std::string>("custom_code");
    if (!code) {
      throwInternalError("cannot write the custom operator: it has no \"custom_code\" string attribute",
                         SourceLocation{{}, 0, 0, who});
    }
    key.customCode = *code;
  }
  if (const AttributeValue* version = op.attributes.find("version")) {
    const auto* value = std::get_if<std::int64_t>(version);
    if (value == nullptr || *value < std::numeric_limits<std::int32_t>::min() ||
        *value > std::numeric_limits<std::int32_t>::max()) {
      throwInternalError("cannot write the operator: attribute 'version' is not a 32-bit integer",
                         SourceLocation{{}, 0, 0, who});
    }
    key.version = static_cast<std::int32_t>(*value);
  }
  return key;
}

// tflite_writer.py: the sorted set of (type, custom code, version) of all operations; the map from an
// operation to its entry is keyed by type (and custom code), so the last entry of a type wins.
OperatorCodeTable::OperatorCodeTable(const Graph& graph) {
  std::set<OperatorCodeKey> keys;
  for (std::size_t s = 0; s < graph.subgraphs.size(); ++s) {
    const Subgraph& subgraph = graph.subgraphs[s];
    for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
      keys.insert(operatorCodeKeyOf(subgraph.operations[i], describeWrittenOperator(s, i, subgraph.operations[i])));
    }
  }
  codes_.assign(keys.begin(), keys.end());
  for (std::size_t index = 0; index < codes_.size(); ++index) {
    lastIndex_[{codes_[index].type, codes_[index].customCode}] = static_cast<std::uint32_t>(index);
  }
}

std::uint32_t OperatorCodeTable::indexOf(const Operation& op, const std::string& who) const {
  const OperatorCodeKey key = operatorCodeKeyOf(op, who);
  const auto entry = lastIndex_.find({key.type, key.customCode});
  require(entry != lastIndex_.end(), "every written operation has an operator code");
  return entry->second;
}

} // namespace npu::tflite_frontend::detail
