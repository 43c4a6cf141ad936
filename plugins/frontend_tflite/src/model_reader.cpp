// SPDX-License-Identifier: Apache-2.0
#include "frontend_tflite/model_reader.hpp"

#include "builtin_operator_table.hpp"
#include "frontend_tflite/builtin_operators.hpp"
#include "operator_options.hpp"
#include "reader_context.hpp"
#include "tensor_reader.hpp"

#include "npu/core/input_file.hpp"
#include "npu/ir/graph_algorithms.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace npu::tflite_frontend {

namespace detail {
namespace {

constexpr std::size_t kIdentifierEnd = 8; // root offset (4 bytes) + file identifier (4 bytes)

struct OperatorCode {
  std::int32_t builtin = 0;
  std::int32_t version = 1;
  std::string customCode;
  BuiltinOperatorEntry entry;
  std::string sourceType;
};

[[noreturn]] void failFile(const std::string& path, std::string message, std::string hint = {}) {
  throwModelError(std::move(message), SourceLocation{path, 0, 0, {}}, std::move(hint));
}

std::string printable(std::span<const std::uint8_t> bytes) {
  std::string text;
  for (const std::uint8_t byte : bytes) {
    if (std::isprint(byte) != 0) {
      text += static_cast<char>(byte);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      text += escaped;
    }
  }
  return text;
}

/// The checks before anything is read: size, identifier, then the flatbuffers verifier (which proves
/// every offset, vector and string of the file lies inside it).
const tflite::Model& verifiedModel(std::span<const std::uint8_t> bytes, const std::string& path) {
  const std::string hint = "the file may be truncated or damaged; check that it is a complete .tflite file";
  if (bytes.empty()) {
    failFile(path, "the model file is empty", hint);
  }
  if (bytes.size() < kIdentifierEnd) {
    failFile(path, "the file is too small to be a TFLite model (" + std::to_string(bytes.size()) + " bytes)", hint);
  }
  if (!flatbuffers::BufferHasIdentifier(bytes.data(), tflite::ModelIdentifier())) {
    failFile(path,
             "not a TFLite model: the file identifier is '" + printable(bytes.subspan(4, 4)) + "', expected '" +
                 tflite::ModelIdentifier() + "'",
             "only TensorFlow Lite flatbuffers (.tflite) can be read by this frontend");
  }
  // Models above 2 GiB keep their constants after the flatbuffer, which itself stays below that size.
  const std::size_t flatbufferBytes = std::min<std::size_t>(bytes.size(), FLATBUFFERS_MAX_BUFFER_SIZE);
  const auto maxTables = static_cast<flatbuffers::uoffset_t>(std::max<std::size_t>(1'000'000, flatbufferBytes / 4));
  flatbuffers::Verifier verifier(bytes.data(), flatbufferBytes, /*max_depth=*/64, maxTables);
  if (!tflite::VerifyModelBuffer(verifier)) {
    failFile(path, "the TFLite flatbuffer is malformed (the flatbuffers verifier rejects it)", hint);
  }
  return *tflite::GetModel(bytes.data());
}

std::vector<OperatorCode> readOperatorCodes(const ReaderContext& context) {
  std::vector<OperatorCode> codes;
  const auto* source = context.model().operator_codes();
  if (source == nullptr) {
    return codes;
  }
  for (flatbuffers::uoffset_t i = 0; i < source->size(); ++i) {
    const tflite::OperatorCode& code = *source->Get(i);
    OperatorCode read;
    // Codes below 127 may sit in either field; TFLite's GetBuiltinCode takes the larger.
    read.builtin =
        std::max<std::int32_t>(code.deprecated_builtin_code(), static_cast<std::int32_t>(code.builtin_code()));
    if (read.builtin < 0) {
      context.fail("operator code " + std::to_string(i) + " has the invalid builtin code " +
                   std::to_string(read.builtin));
    }
    read.version = code.version();
    read.customCode = code.custom_code() == nullptr ? std::string() : code.custom_code()->str();
    read.entry = builtinOperatorEntry(read.builtin);
    read.sourceType = sourceTypeName(read.builtin, read.customCode);
    codes.push_back(std::move(read));
  }
  return codes;
}

/// Tensor indices of an operator or subgraph; -1 (an omitted optional tensor) only where allowed.
std::vector<TensorId> readTensorIndices(const ReaderContext& context, const flatbuffers::Vector<std::int32_t>* indices,
                                        std::size_t tensorCount, bool allowOmitted, const std::string& what,
                                        const std::string& who) {
  std::vector<TensorId> ids;
  if (indices == nullptr) {
    return ids;
  }
  for (flatbuffers::uoffset_t i = 0; i < indices->size(); ++i) {
    const std::int32_t index = indices->Get(i);
    if (index == -1 && allowOmitted) {
      ids.push_back(kNoTensor);
    } else if (index < 0 || static_cast<std::size_t>(index) >= tensorCount) {
      context.fail(what + " " + std::to_string(i) + " refers to tensor " + std::to_string(index) +
                       ", but the subgraph has " + std::to_string(tensorCount) + " tensors",
                   who);
    } else {
      ids.push_back(index);
    }
  }
  return ids;
}

/// Subgraph inputs/outputs without repeats (Vela drops duplicates with a warning, keeping the first).
std::vector<TensorId> withoutDuplicates(std::vector<TensorId> ids) {
  std::vector<TensorId> unique;
  for (const TensorId id : ids) {
    if (std::find(unique.begin(), unique.end(), id) == unique.end()) {
      unique.push_back(id);
    }
  }
  return unique;
}

Operation readOperator(ReaderContext& context, const std::vector<OperatorCode>& codes, const Subgraph& subgraph,
                       const tflite::Operator& source, std::size_t subgraphIndex, std::size_t index) {
  std::string who = describeOperator(subgraphIndex, index);
  if (source.opcode_index() >= codes.size()) {
    context.fail("opcode index " + std::to_string(source.opcode_index()) + " is out of range (the model has " +
                     std::to_string(codes.size()) + " operator codes)",
                 who);
  }
  const OperatorCode& code = codes[source.opcode_index()];
  const std::size_t tensorCount = subgraph.tensors.size();

  Operation operation;
  operation.type = code.entry.type;
  operation.sourceType = code.sourceType;
  operation.sourceIndex = static_cast<std::int32_t>(index);
  operation.inputs = readTensorIndices(context, source.inputs(), tensorCount, true, "input", who);
  operation.outputs = readTensorIndices(context, source.outputs(), tensorCount, false, "output", who);
  operation.intermediates = readTensorIndices(context, source.intermediates(), tensorCount, true, "intermediate", who);
  // Vela names an operation after its first output tensor; reports and parity checks match on it.
  operation.name = operation.outputs.empty() ? code.sourceType + "_" + std::to_string(index)
                                             : subgraph.tensor(operation.outputs.front()).name;
  who += " '" + operation.name + "' (" + code.sourceType + ")";

  operation.attributes.set("version", std::int64_t{code.version});
  const OperatorSource options{source, code.entry.options, who};
  if (code.builtin == kCustomOperatorCode) {
    readCustomOptions(context, options, code.customCode, operation);
  } else {
    readBuiltinOptions(context, options, subgraph.tensors, operation);
  }
  return operation;
}

Subgraph readSubgraph(ReaderContext& context, const std::vector<OperatorCode>& codes, std::size_t index) {
  const tflite::SubGraph& source = *context.model().subgraphs()->Get(static_cast<flatbuffers::uoffset_t>(index));
  Subgraph subgraph;
  // An unnamed subgraph keeps its empty name, as Vela does (its NPU subgraphs are then "_split_<n>").
  subgraph.name = source.name() != nullptr ? source.name()->str() : std::string();
  if (source.tensors() != nullptr) {
    subgraph.tensors.reserve(source.tensors()->size());
    for (flatbuffers::uoffset_t i = 0; i < source.tensors()->size(); ++i) {
      subgraph.tensors.push_back(readTensor(context, *source.tensors()->Get(i), index, i));
    }
  }
  const std::string who = "subgraph " + std::to_string(index) + " '" + subgraph.name + "'";
  const std::size_t tensorCount = subgraph.tensors.size();
  subgraph.inputs = withoutDuplicates(readTensorIndices(context, source.inputs(), tensorCount, false, "input", who));
  subgraph.outputs = withoutDuplicates(readTensorIndices(context, source.outputs(), tensorCount, false, "output", who));
  if (source.operators() != nullptr) {
    subgraph.operations.reserve(source.operators()->size());
    for (flatbuffers::uoffset_t i = 0; i < source.operators()->size(); ++i) {
      subgraph.operations.push_back(readOperator(context, codes, subgraph, *source.operators()->Get(i), index, i));
    }
  }
  return subgraph;
}

/// Indices in the model's side tables (signatures, metadata) that we do not read but must not be wrong.
void checkSideTables(const ReaderContext& context, const Graph& graph) {
  const tflite::Model& model = context.model();
  if (model.signature_defs() != nullptr) {
    for (flatbuffers::uoffset_t i = 0; i < model.signature_defs()->size(); ++i) {
      const tflite::SignatureDef& signature = *model.signature_defs()->Get(i);
      const std::string who = "signature " + std::to_string(i);
      if (signature.subgraph_index() >= graph.subgraphs.size()) {
        context.fail("subgraph index " + std::to_string(signature.subgraph_index()) +
                         " is out of range (the model has " + std::to_string(graph.subgraphs.size()) + " subgraphs)",
                     who);
      }
      const std::size_t tensorCount = graph.subgraphs[signature.subgraph_index()].tensors.size();
      for (const auto* maps : {signature.inputs(), signature.outputs()}) {
        for (flatbuffers::uoffset_t m = 0; maps != nullptr && m < maps->size(); ++m) {
          if (maps->Get(m)->tensor_index() >= tensorCount) {
            context.fail("tensor index " + std::to_string(maps->Get(m)->tensor_index()) +
                             " is out of range (the subgraph has " + std::to_string(tensorCount) + " tensors)",
                         who);
          }
        }
      }
    }
  }
  if (model.metadata() != nullptr) {
    for (flatbuffers::uoffset_t i = 0; i < model.metadata()->size(); ++i) {
      if (model.metadata()->Get(i)->buffer() >= context.bufferCount()) {
        context.fail("buffer index " + std::to_string(model.metadata()->Get(i)->buffer()) +
                         " is out of range (the model has " + std::to_string(context.bufferCount()) + " buffers)",
                     "metadata " + std::to_string(i));
      }
    }
  }
}

/// The named metadata entries, in file order (Vela's reader keeps these and drops unnamed ones).
std::vector<ModelMetadata> readMetadata(ReaderContext& context) {
  std::vector<ModelMetadata> metadata;
  const auto* entries = context.model().metadata();
  for (flatbuffers::uoffset_t i = 0; entries != nullptr && i < entries->size(); ++i) {
    const tflite::Metadata& entry = *entries->Get(i);
    if (entry.name() == nullptr) {
      continue;
    }
    const ConstantBuffer data = context.buffer(entry.buffer(), "metadata " + std::to_string(i));
    metadata.push_back({entry.name()->str(), data == nullptr ? std::vector<std::uint8_t>() : *data});
  }
  return metadata;
}

/// The structural checks every pass keeps (single producer, execution order, ...) and the shape
/// relations each operator implies, as Model errors: a file breaking them is malformed, not our bug.
void checkStructure(const ReaderContext& context, const Graph& graph) {
  std::vector<GraphIssue> issues = verifyGraph(graph);
  if (issues.empty()) {
    issues = verifyOperatorShapes(graph);
  }
  if (issues.empty()) {
    return;
  }
  std::string message = "the model is inconsistent: " + issues.front().message;
  if (issues.size() > 1) {
    message += " (and " + std::to_string(issues.size() - 1) + " more problems)";
  }
  context.fail(std::move(message), "subgraph '" + issues.front().subgraph + "'");
}

} // namespace
} // namespace detail

Graph readModel(std::span<const std::uint8_t> bytes, const std::filesystem::path& sourcePath) {
  return readModel(bytes, sourcePath, {});
}

Graph readModel(std::span<const std::uint8_t> bytes, const std::filesystem::path& sourcePath,
                std::span<const ConstantBuffer> knownBuffers, std::span<const std::uint32_t> placeholders) {
  const std::string path = sourcePath.string();
  const tflite::Model& model = detail::verifiedModel(bytes, path);
  detail::ReaderContext context(bytes, path, model, knownBuffers, placeholders);
  if (context.subgraphCount() == 0) {
    context.fail("the model has no subgraphs");
  }
  const std::vector<detail::OperatorCode> codes = detail::readOperatorCodes(context);

  Graph graph;
  graph.name = sourcePath.stem().string();
  graph.sourcePath = path;
  graph.description = model.description() == nullptr ? std::string() : model.description()->str();
  graph.subgraphs.reserve(context.subgraphCount());
  for (std::size_t i = 0; i < context.subgraphCount(); ++i) {
    graph.subgraphs.push_back(detail::readSubgraph(context, codes, i));
  }
  detail::checkSideTables(context, graph);
  graph.metadata = detail::readMetadata(context);
  detail::checkStructure(context, graph);
  return graph;
}

Graph readModelFile(const std::filesystem::path& file) {
  const InputFileBytes bytes(file, kModelFile, InputFileBytes::Reading::Whole); // the graph copies what it keeps
  return readModel(bytes.bytes(), file);
}

} // namespace npu::tflite_frontend
