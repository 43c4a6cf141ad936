// SPDX-License-Identifier: Apache-2.0
#include "inspect/model_inspection.hpp"

#include "checker/stream_check.hpp"
#include "decoder/command_decoder.hpp"

#include "codegen_ethosu/npu_operation.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>
#include <sstream>

namespace ethosu::codegen {

namespace {

constexpr std::size_t kFirstFeatureMapInput = 4; // command stream, flash, scratch, fast scratch

bool isEthosUOperator(const npu::Operation& op) {
  if (op.type != npu::OpType::Custom && op.type != npu::OpType::CustomNpuOp) {
    return false;
  }
  const auto code = op.attributes.get<std::string>("custom_code");
  return code && *code == "ethos-u";
}

/// The arena offsets of OfflineMemoryAllocation: per subgraph, one offset per tensor (-1: not in the
/// arena); empty when the model has none or it does not describe these subgraphs.
std::vector<std::vector<std::int32_t>> arenaOffsets(const npu::Graph& model) {
  for (const npu::ModelMetadata& entry : model.metadata) {
    if (entry.name != "OfflineMemoryAllocation" || entry.bytes.size() % 4 != 0 || entry.bytes.size() < 12) {
      continue;
    }
    std::vector<std::int32_t> values;
    for (const std::uint32_t word : littleEndianWords(entry.bytes)) {
      values.push_back(static_cast<std::int32_t>(word));
    }
    std::size_t total = 0;
    for (const npu::Subgraph& subgraph : model.subgraphs) {
      total += subgraph.tensors.size();
    }
    if (static_cast<std::size_t>(values[1]) != model.subgraphs.size() || static_cast<std::size_t>(values[2]) != total ||
        values.size() != 3 + total) {
      return {};
    }
    std::vector<std::vector<std::int32_t>> offsets;
    std::size_t at = 3;
    for (const npu::Subgraph& subgraph : model.subgraphs) {
      offsets.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(at),
                           values.begin() + static_cast<std::ptrdiff_t>(at + subgraph.tensors.size()));
      at += subgraph.tensors.size();
    }
    return offsets;
  }
  return {};
}

bool mentions(const std::vector<npu::TensorId>& tensors, npu::TensorId tensor) {
  return std::find(tensors.begin(), tensors.end(), tensor) != tensors.end();
}

/// Whether an ethos-u operator in [from, to) of the subgraph writes `tensor` (`reads` too: or reads it).
bool ethosUOperatorUses(const npu::Subgraph& subgraph, std::size_t from, std::size_t to, npu::TensorId tensor,
                        bool reads) {
  for (std::size_t other = from; other < to && other < subgraph.operations.size(); ++other) {
    const npu::Operation& op = subgraph.operations[other];
    if (isEthosUOperator(op) && (mentions(op.outputs, tensor) || (reads && mentions(op.inputs, tensor)))) {
      return true;
    }
  }
  return false;
}

std::int64_t tensorBytes(const npu::Subgraph& subgraph, npu::TensorId id) {
  return subgraph.validTensorId(id) ? subgraph.tensor(id).byteSize() : 0;
}

/// The memory an operator's stream runs against; nullopt offsets leave its inputs and outputs
/// unchecked (everything in scratch counts as written). The operators of a subgraph run in order on one
/// arena: an input an earlier operator wrote holds what that operator (and those between) wrote of it
/// (`earlierWrites`), as a concatenation may be written in parts by several operators. A tensor an
/// operator writes must be whole after the last operator that writes or reads it, not before.
StreamMemory memoryOf(const npu::Subgraph& subgraph, std::size_t index, const std::vector<std::int32_t>* offsets,
                      const std::vector<MemoryAccess>& earlierWrites) {
  const npu::Operation& op = subgraph.operations[index];
  StreamMemory memory;
  memory.regionBytes[region::kReadOnly] = tensorBytes(subgraph, op.inputs.at(1));
  memory.regionBytes[region::kScratch] = tensorBytes(subgraph, op.inputs.at(2));
  memory.regionBytes[region::kScratchFast] = tensorBytes(subgraph, op.inputs.at(3));
  if (offsets == nullptr) {
    memory.inputs.push_back({region::kScratch, 0, memory.regionBytes[region::kScratch], false});
    memory.inputs.push_back({region::kScratchFast, 0, memory.regionBytes[region::kScratchFast], false});
    return memory;
  }
  const auto offsetOf = [&](npu::TensorId id) -> std::optional<std::int64_t> {
    if (!subgraph.validTensorId(id) || static_cast<std::size_t>(id) >= offsets->size() ||
        (*offsets)[static_cast<std::size_t>(id)] < 0) {
      return std::nullopt;
    }
    return (*offsets)[static_cast<std::size_t>(id)];
  };
  const auto mustBeWhole = [&](npu::TensorId tensor, std::int64_t offset) {
    memory.outputs.push_back({region::kScratch, offset, offset + tensorBytes(subgraph, tensor), true});
  };
  for (std::size_t i = kFirstFeatureMapInput; i < op.inputs.size(); ++i) {
    const npu::TensorId input = op.inputs[i];
    const auto offset = offsetOf(input);
    if (!offset) {
      continue;
    }
    const std::int64_t end = *offset + tensorBytes(subgraph, input);
    if (!ethosUOperatorUses(subgraph, 0, index, input, false)) {
      memory.inputs.push_back({region::kScratch, *offset, end, false});
      continue;
    }
    // Written by earlier operators: only what they wrote, and the padding to the allocation unit.
    memory.inputs.push_back({region::kScratch, end, *offset + npu::roundUp(end - *offset, kAllocationUnit), false});
    if (!ethosUOperatorUses(subgraph, index + 1, subgraph.operations.size(), input, true)) {
      mustBeWhole(input, *offset);
    }
  }
  for (const MemoryAccess& write : earlierWrites) {
    memory.inputs.push_back({write.region, write.start, write.end, false});
  }
  for (const npu::TensorId output : op.outputs) {
    if (const auto offset = offsetOf(output);
        offset && !ethosUOperatorUses(subgraph, index + 1, subgraph.operations.size(), output, true)) {
      mustBeWhole(output, *offset);
    }
  }
  return memory;
}

std::string hexWord(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

} // namespace

npu::CodeInspection inspectModel(const npu::Graph& model) {
  npu::CodeInspection inspection;
  const auto offsets = arenaOffsets(model);
  std::ostringstream listing;
  for (std::size_t s = 0; s < model.subgraphs.size(); ++s) {
    const npu::Subgraph& subgraph = model.subgraphs[s];
    std::vector<MemoryAccess> arenaWrites; // by the operators checked so far, in execution order
    for (std::size_t index = 0; index < subgraph.operations.size(); ++index) {
      const npu::Operation& op = subgraph.operations[index];
      if (!isEthosUOperator(op)) {
        continue;
      }
      ++inspection.operators;
      const std::string who =
          "subgraph " + std::to_string(s) + ", operator " + std::to_string(index) + " ('" + op.name + "')";
      const npu::Tensor* stream =
          !op.inputs.empty() && subgraph.validTensorId(op.inputs[0]) ? &subgraph.tensor(op.inputs[0]) : nullptr;
      if (op.inputs.size() < kFirstFeatureMapInput || stream == nullptr || !stream->data) {
        inspection.problems.push_back(who + ": an ethos-u operator needs its command stream, flash, scratch and "
                                            "fast scratch tensors as its first four inputs");
        continue;
      }
      try {
        const DriverPayloadView view = readDriverPayload(*stream->data);
        listing << "ethos-u operator " << who << ": "
                << (view.variant != nullptr ? std::string(view.variant->name) : "unknown accelerator") << " (CONFIG "
                << hexWord(view.configWord) << ", ID " << hexWord(view.idWord) << "), " << stream->data->size()
                << " bytes of command stream\n";
        listing << "Register-Level Command Stream: Output\n"
                << formatCommands(decodeCommands(view.registerStream)) << "\n";
      } catch (const npu::Error& error) {
        inspection.problems.push_back(who + ": " + error.message());
        continue;
      }
      const auto* subgraphOffsets = s < offsets.size() ? &offsets[s] : nullptr;
      std::vector<MemoryAccess> written;
      for (const std::string& problem :
           checkCommandStream(*stream->data, memoryOf(subgraph, index, subgraphOffsets, arenaWrites), &written)) {
        inspection.problems.push_back(who + ": " + problem);
      }
      // Only the arena outlives an operator (the fast scratch area is each operator's own).
      std::copy_if(written.begin(), written.end(), std::back_inserter(arenaWrites),
                   [](const MemoryAccess& access) { return access.region == region::kScratch; });
    }
  }
  inspection.listing = listing.str();
  return inspection;
}

} // namespace ethosu::codegen
