// SPDX-License-Identifier: Apache-2.0
// The model as Vela 3.10's tflite_writer.py serialises it (serialise_model): operator codes, the
// description, the subgraphs (tensors, inputs, outputs, operators), the buffers and the metadata, each
// laid out by the Python builder's rules (python_layout_builder.hpp) in the order Python creates them.

#include "frontend_tflite/model_writer.hpp"

#include "frontend_tflite/builtin_operators.hpp"
#include "frontend_tflite/model_reader.hpp"
#include "python_layout_builder.hpp"
#include "tensor_types.hpp"
#include "written_model.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <span>

namespace npu::tflite_frontend {

namespace {

using detail::PythonLayoutBuilder;
using flatbuffers::Offset;

constexpr std::uint32_t kSchemaVersion = 3;
constexpr std::int32_t kMaxDeprecatedBuiltinCode = 127;
constexpr std::size_t kBufferAlignment = 16;

/// One buffer of the model: bytes, or none (an empty Buffer table). The bytes are those of the graph's
/// tensor or metadata entry, which outlive the serialiser: they are copied once, into the flatbuffer.
using BufferContents = std::optional<std::span<const std::uint8_t>>;

/// Bytes the flatbuffer of `graph` is expected to take: its constants and metadata, and a generous
/// allowance for its tables. Starting the builder at this size spares copying a large model as the
/// builder grows (if the allowance is short, it grows as usual).
std::size_t expectedModelBytes(const Graph& graph, const ModelWriteOptions& options) {
  constexpr std::size_t kBytesPerObject = 512;
  std::size_t bytes = std::size_t{1} << 16;
  for (const Subgraph& subgraph : graph.subgraphs) {
    bytes += kBytesPerObject * (subgraph.tensors.size() + subgraph.operations.size());
    for (const Tensor& tensor : subgraph.tensors) {
      bytes += tensor.data ? tensor.data->size() + kBufferAlignment : 0;
    }
  }
  for (const auto* entries : {&graph.metadata, &options.appendedMetadata}) {
    for (const ModelMetadata& entry : *entries) {
      bytes += entry.bytes.size() + kBytesPerObject;
    }
  }
  return bytes;
}

/// A buffer whose data the serialised bytes leave unwritten: the graph's constant holds them.
struct ReferencedBuffer {
  std::uint32_t index = 0; ///< the model's buffer
  std::size_t fromEnd = 0; ///< where its data starts, counted from the end of the serialised bytes
  ConstantBuffer contents;
};

/// The flatbuffer as built: its bytes (in the builder's storage, which they keep alive) with the data of
/// the referenced buffers left unwritten.
struct SerialisedModel {
  std::shared_ptr<const std::uint8_t[]> storage;
  std::span<const std::uint8_t> bytes;
  std::vector<ReferencedBuffer> referenced;
};

class ModelSerialiser {
public:
  /// Constants of at least `referenceFrom` bytes (0: none) are referred to, not copied.
  ModelSerialiser(const Graph& graph, const ModelWriteOptions& options, std::size_t referenceFrom)
      : graph_(graph), options_(options), referenceFrom_(referenceFrom), codes_(graph),
        builder_(expectedModelBytes(graph, options), allocator_) {
    if (!options.sourceModel.empty()) {
      source_ = tflite::GetModel(options.sourceModel.data());
    }
  }

  SerialisedModel serialise() {
    std::vector<Offset<tflite::OperatorCode>> codeOffsets;
    for (const detail::OperatorCodeKey& key : codes_.codes()) {
      codeOffsets.push_back(operatorCode(key));
    }
    const auto operatorCodes = builder_.offsetVector<tflite::OperatorCode>(codeOffsets);
    const auto description = builder_.string(options_.description.value_or(graph_.description));

    std::vector<ModelMetadata> metadata = graph_.metadata;
    metadata.insert(metadata.end(), options_.appendedMetadata.begin(), options_.appendedMetadata.end());

    buffers_.emplace_back(std::nullopt); // buffer 0: the empty buffer of every tensor without data
    std::vector<Offset<tflite::SubGraph>> subgraphOffsets;
    for (std::size_t s = 0; s < graph_.subgraphs.size(); ++s) {
      const auto name = builder_.string(graph_.subgraphs[s].name);
      subgraphOffsets.push_back(subgraph(s, name));
    }
    const auto subgraphs = builder_.offsetVector<tflite::SubGraph>(subgraphOffsets);

    const bool hasOfflineAllocation = std::any_of(metadata.begin(), metadata.end(), [](const ModelMetadata& entry) {
      return entry.name == kOfflineMemoryAllocationName;
    });
    if (options_.appendOfflineMemoryAllocation && !hasOfflineAllocation) {
      metadata.push_back(offlineMemoryAllocation());
    }
    std::vector<std::uint32_t> metadataBuffers;
    for (const ModelMetadata& entry : metadata) {
      metadataBuffers.push_back(static_cast<std::uint32_t>(buffers_.size()));
      // An empty buffer is read back as no data (Vela's parse_buffer), and written so.
      buffers_.emplace_back(entry.bytes.empty() ? BufferContents() : BufferContents(entry.bytes));
    }

    std::vector<Offset<tflite::Buffer>> bufferOffsets;
    for (std::size_t index = 0; index < buffers_.size(); ++index) {
      bufferOffsets.push_back(buffer(static_cast<std::uint32_t>(index)));
    }
    const auto buffers = builder_.offsetVector<tflite::Buffer>(bufferOffsets);
    std::vector<Offset<tflite::Metadata>> metadataOffsets;
    for (std::size_t i = 0; i < metadata.size(); ++i) {
      const auto name = builder_.string(metadata[i].name);
      tflite::MetadataBuilder table(builder_);
      table.add_name(name);
      table.add_buffer(metadataBuffers[i]);
      metadataOffsets.push_back(builder_.endTable(table));
    }
    const auto metadataVector = builder_.offsetVector<tflite::Metadata>(metadataOffsets);

    tflite::ModelBuilder model(builder_);
    model.add_version(kSchemaVersion);
    model.add_operator_codes(operatorCodes);
    model.add_subgraphs(subgraphs);
    model.add_description(description);
    model.add_buffers(buffers);
    model.add_metadata(metadataVector);
    builder_.Finish(builder_.endTable(model), tflite::ModelIdentifier());
    return {allocator_.storage(), {builder_.GetBufferPointer(), builder_.GetSize()}, std::move(referenced_)};
  }

  /// Per buffer of the written model, the graph's constant it was written from (null for the others).
  [[nodiscard]] const std::vector<ConstantBuffer>& bufferSources() const { return bufferSources_; }

private:
  Offset<tflite::OperatorCode> operatorCode(const detail::OperatorCodeKey& key) {
    const std::int32_t builtin = detail::builtinCodeOf(key.type);
    Offset<flatbuffers::String> customCode;
    if (key.type == OpType::Custom) {
      customCode = builder_.string(key.customCode);
    } else if (key.type == OpType::CustomNpuOp) {
      customCode = builder_.string("ethos-u");
    }
    tflite::OperatorCodeBuilder table(builder_);
    table.add_deprecated_builtin_code(static_cast<std::int8_t>(std::min(builtin, kMaxDeprecatedBuiltinCode)));
    table.add_builtin_code(static_cast<tflite::BuiltinOperator>(builtin));
    table.add_version(key.version);
    if (!customCode.IsNull()) {
      table.add_custom_code(customCode);
    }
    return builder_.endTable(table);
  }

  TensorPlacement placementOf(std::size_t subgraph, TensorId tensor) const {
    if (subgraph < options_.placements.size() && tensor >= 0 &&
        static_cast<std::size_t>(tensor) < options_.placements[subgraph].size()) {
      return options_.placements[subgraph][static_cast<std::size_t>(tensor)];
    }
    return {};
  }

  Offset<tflite::SubGraph> subgraph(std::size_t index, Offset<flatbuffers::String> name) {
    const Subgraph& sg = graph_.subgraphs[index];
    const detail::WrittenTensors written = detail::selectTensors(sg);
    // assign_buffers_to_tensors: scratch-area tensors share the empty buffer, every other its own.
    std::vector<std::uint32_t> bufferOf;
    for (const TensorId id : written.order) {
      const TensorPlacement placement = placementOf(index, id);
      if (placement.inScratchArea) {
        if (sg.tensor(id).isConstant()) {
          throwInternalError("tensor '" + sg.tensor(id).name + "' holds data but is placed in the scratch area");
        }
        bufferOf.push_back(0);
      } else {
        bufferOf.push_back(static_cast<std::uint32_t>(buffers_.size()));
        buffers_.emplace_back(std::nullopt);
      }
    }
    std::vector<Offset<tflite::Tensor>> tensorOffsets;
    std::vector<std::int32_t> offlineOffsets;
    for (std::size_t i = 0; i < written.order.size(); ++i) {
      const Tensor& tensor = sg.tensor(written.order[i]);
      if (bufferOf[i] != 0 && tensor.data && !tensor.data->empty()) {
        buffers_[bufferOf[i]] = *tensor.data;
        bufferSources_.resize(std::max<std::size_t>(bufferSources_.size(), bufferOf[i] + 1));
        bufferSources_[bufferOf[i]] = tensor.data;
      }
      tensorOffsets.push_back(this->tensor(tensor, bufferOf[i]));
      offlineOffsets.push_back(placementOf(index, written.order[i]).offlineOffset);
    }
    offlineOffsets_.push_back(std::move(offlineOffsets));
    const auto tensors = builder_.offsetVector<tflite::Tensor>(tensorOffsets);
    const auto inputs = builder_.scalarVector<std::int32_t>(fileIndices(written, sg.inputs, false));
    const auto outputs = builder_.scalarVector<std::int32_t>(fileIndices(written, sg.outputs, false));
    std::vector<Offset<tflite::Operator>> operatorOffsets;
    for (std::size_t i = 0; i < sg.operations.size(); ++i) {
      operatorOffsets.push_back(operation(index, i, written));
    }
    const auto operators = builder_.offsetVector<tflite::Operator>(operatorOffsets);
    tflite::SubGraphBuilder table(builder_);
    table.add_tensors(tensors);
    table.add_inputs(inputs);
    table.add_outputs(outputs);
    table.add_operators(operators);
    table.add_name(name);
    return builder_.endTable(table);
  }

  /// File indices of tensors; an absent tensor is -1 when `keepAbsent`, else left out.
  static std::vector<std::int32_t> fileIndices(const detail::WrittenTensors& written, const std::vector<TensorId>& ids,
                                               bool keepAbsent) {
    std::vector<std::int32_t> indices;
    for (const TensorId id : ids) {
      const std::int32_t index = written.fileIndex(id);
      if (index >= 0 || keepAbsent) {
        indices.push_back(index);
      }
    }
    return indices;
  }

  // serialise_quantization_parameters: the vectors first (min, max, scale, zero point), then the table.
  Offset<tflite::QuantizationParameters> quantization(const Quantisation& quant) {
    if (quant.empty() && !quant.min && !quant.max) {
      return {};
    }
    Offset<flatbuffers::Vector<float>> min;
    Offset<flatbuffers::Vector<float>> max;
    Offset<flatbuffers::Vector<float>> scale;
    Offset<flatbuffers::Vector<std::int64_t>> zeroPoint;
    if (quant.min) {
      const std::vector<float> values{static_cast<float>(*quant.min)};
      min = builder_.scalarVector<float>(values);
    }
    if (quant.max) {
      const std::vector<float> values{static_cast<float>(*quant.max)};
      max = builder_.scalarVector<float>(values);
    }
    if (!quant.scale.empty()) {
      std::vector<float> values(quant.scale.begin(), quant.scale.end());
      scale = builder_.scalarVector<float>(values);
    }
    if (!quant.zeroPoint.empty()) {
      zeroPoint = builder_.scalarVector<std::int64_t>(quant.zeroPoint);
    }
    tflite::QuantizationParametersBuilder table(builder_);
    if (!min.IsNull()) {
      table.add_min(min);
    }
    if (!max.IsNull()) {
      table.add_max(max);
    }
    if (!scale.IsNull()) {
      table.add_scale(scale);
    }
    if (!zeroPoint.IsNull()) {
      table.add_zero_point(zeroPoint);
    }
    table.add_quantized_dimension(quant.axis);
    return builder_.endTable(table);
  }

  // serialise_tensor: shape, name and quantisation first, then the table's fields in Vela's order.
  Offset<tflite::Tensor> tensor(const Tensor& t, std::uint32_t bufferIndex) {
    const auto type = detail::tensorTypeOf(t.type);
    if (!type) {
      throwInternalError("tensor '" + t.name + "' has a type TFLite cannot hold");
    }
    std::vector<std::int32_t> dimensions;
    for (int axis = 0; axis < t.shape.rank(); ++axis) {
      dimensions.push_back(static_cast<std::int32_t>(t.shape[axis]));
    }
    const auto shape = builder_.scalarVector<std::int32_t>(dimensions);
    const auto name = builder_.string(t.name);
    const auto quant = quantization(t.quantisation);
    tflite::TensorBuilder table(builder_);
    table.add_shape(shape);
    table.add_type(*type);
    table.add_buffer(bufferIndex);
    table.add_name(name);
    if (!quant.IsNull()) {
      table.add_quantization(quant);
    }
    table.add_is_variable(t.isVariable);
    return builder_.endTable(table);
  }

  /// The operator of the source model an operation was read from, if any.
  const tflite::Operator* sourceOperator(std::size_t subgraph, const Operation& op) const {
    if (source_ == nullptr || op.sourceIndex < 0 || source_->subgraphs() == nullptr ||
        subgraph >= source_->subgraphs()->size()) {
      return nullptr;
    }
    const auto* operators = source_->subgraphs()->Get(static_cast<flatbuffers::uoffset_t>(subgraph))->operators();
    if (operators == nullptr || static_cast<std::size_t>(op.sourceIndex) >= operators->size()) {
      return nullptr;
    }
    return operators->Get(static_cast<flatbuffers::uoffset_t>(op.sourceIndex));
  }

  /// A custom operator's options from its attribute (bytes as integers 0..255).
  std::vector<std::uint8_t> customOptionsOf(const Operation& op, const std::string& who) const {
    std::vector<std::uint8_t> bytes;
    if (const auto values = op.attributes.get<std::vector<std::int64_t>>("custom_options")) {
      for (const std::int64_t value : *values) {
        if (value < 0 || value > std::numeric_limits<std::uint8_t>::max()) {
          throwInternalError("cannot write " + who + ": custom option byte " + std::to_string(value) + " out of range");
        }
        bytes.push_back(static_cast<std::uint8_t>(value));
      }
    }
    return bytes;
  }

  // serialise_operator: the index vectors, then the options, then the (empty) mutating variable inputs.
  Offset<tflite::Operator> operation(std::size_t subgraph, std::size_t index, const detail::WrittenTensors& written) {
    const Operation& op = graph_.subgraphs[subgraph].operations[index];
    const std::string who = detail::describeWrittenOperator(subgraph, index, op);
    const auto inputs = builder_.scalarVector<std::int32_t>(fileIndices(written, op.inputs, true));
    const auto outputs = builder_.scalarVector<std::int32_t>(fileIndices(written, op.outputs, false));
    const auto intermediates = builder_.scalarVector<std::int32_t>(fileIndices(written, op.intermediates, false));

    const tflite::Operator* source = sourceOperator(subgraph, op);
    tflite::BuiltinOptions optionsType = tflite::BuiltinOptions::NONE;
    Offset<void> builtinOptions;
    Offset<flatbuffers::Vector<std::uint8_t>> customOptions;
    tflite::CustomOptionsFormat customFormat = tflite::CustomOptionsFormat::FLEXBUFFERS;
    const bool custom = op.type == OpType::Custom || op.type == OpType::CustomNpuOp;
    if (source != nullptr) {
      // The file's own options, whatever their table: copied through the object API.
      const std::unique_ptr<tflite::OperatorT> native(source->UnPack());
      if (native->builtin_options.type != tflite::BuiltinOptions::NONE) {
        optionsType = native->builtin_options.type;
        builtinOptions = native->builtin_options.Pack(builder_);
      }
      if (custom) {
        customOptions = builder_.scalarVector<std::uint8_t>(native->custom_options);
        customFormat = native->custom_options_format;
      }
    } else if (custom) {
      customOptions = builder_.scalarVector<std::uint8_t>(customOptionsOf(op, who));
    }
    const std::vector<std::uint8_t> noMutatingInputs;
    const auto mutating = builder_.scalarVector<std::uint8_t>(noMutatingInputs);

    tflite::OperatorBuilder table(builder_);
    table.add_opcode_index(codes_.indexOf(op, who));
    table.add_inputs(inputs);
    table.add_outputs(outputs);
    table.add_intermediates(intermediates);
    if (!builtinOptions.IsNull()) {
      table.add_builtin_options_type(optionsType);
      table.add_builtin_options(builtinOptions);
    }
    if (!customOptions.IsNull()) {
      table.add_custom_options(customOptions);
      table.add_custom_options_format(customFormat);
    }
    table.add_mutating_variable_inputs(mutating);
    return builder_.endTable(table);
  }

  Offset<tflite::Buffer> buffer(std::uint32_t index) {
    const BufferContents& contents = buffers_[index];
    const ConstantBuffer source = index < bufferSources_.size() ? bufferSources_[index] : nullptr;
    Offset<flatbuffers::Vector<std::uint8_t>> data;
    if (contents && source != nullptr && referenceFrom_ > 0 && contents->size() >= referenceFrom_) {
      const auto [vector, fromEnd] = builder_.reservedBytes(contents->size(), kBufferAlignment);
      data = vector;
      referenced_.push_back({index, fromEnd, source});
    } else if (contents) {
      data = builder_.alignedBytes(*contents, kBufferAlignment);
    }
    tflite::BufferBuilder table(builder_);
    if (!data.IsNull()) {
      table.add_data(data);
    }
    return builder_.endTable(table);
  }

  /// int32 little endian: version 0, subgraph count, tensor count, then each written tensor's offset.
  ModelMetadata offlineMemoryAllocation() const {
    std::vector<std::int32_t> values{0, static_cast<std::int32_t>(offlineOffsets_.size()), 0};
    for (const auto& offsets : offlineOffsets_) {
      values[2] += static_cast<std::int32_t>(offsets.size());
    }
    for (const auto& offsets : offlineOffsets_) {
      values.insert(values.end(), offsets.begin(), offsets.end());
    }
    ModelMetadata entry{kOfflineMemoryAllocationName, {}};
    for (const std::int32_t value : values) {
      for (int shift = 0; shift < 32; shift += 8) {
        entry.bytes.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(value) >> shift));
      }
    }
    return entry;
  }

  const Graph& graph_;
  const ModelWriteOptions& options_;
  const std::size_t referenceFrom_;
  const tflite::Model* source_ = nullptr;
  detail::OperatorCodeTable codes_;
  detail::SharedStorageAllocator allocator_; // before the builder, which uses it
  PythonLayoutBuilder builder_;
  std::vector<BufferContents> buffers_;
  std::vector<ConstantBuffer> bufferSources_;
  std::vector<ReferencedBuffer> referenced_;
  std::vector<std::vector<std::int32_t>> offlineOffsets_;
};

} // namespace

ModelWriteOptions velaWriteOptions() {
  ModelWriteOptions options;
  options.description = std::string("Vela ") + kVelaVersion + " Optimised";
  const std::string version = kVelaVersion;
  options.appendedMetadata.push_back({"vela_version", std::vector<std::uint8_t>(version.begin(), version.end())});
  options.appendOfflineMemoryAllocation = true;
  return options;
}

ModelWriteOptions unchangedWriteOptions() {
  return ModelWriteOptions{};
}

FileBytes writeModelPieces(const Graph& graph, const ModelWriteOptions& options, std::size_t referenceFrom) {
  ModelSerialiser serialiser(graph, options, referenceFrom);
  SerialisedModel model = serialiser.serialise();
  flatbuffers::Verifier verifier(model.bytes.data(), model.bytes.size());
  if (!tflite::VerifyModelBuffer(verifier)) {
    throwInternalError("the written model '" + graph.name + "' fails the flatbuffers verifier");
  }
  // The referenced buffers' data, in file order, between the serialised bytes around them.
  std::sort(model.referenced.begin(), model.referenced.end(),
            [](const ReferencedBuffer& a, const ReferencedBuffer& b) { return a.fromEnd > b.fromEnd; });
  std::vector<std::uint32_t> placeholders;
  FileBytes file;
  std::size_t position = 0;
  for (const ReferencedBuffer& buffer : model.referenced) {
    const std::size_t start = model.bytes.size() - buffer.fromEnd;
    file.append(model.bytes.subspan(position, start - position), model.storage);
    file.append(*buffer.contents, buffer.contents);
    position = start + buffer.contents->size();
    placeholders.push_back(buffer.index);
  }
  file.append(model.bytes.subspan(position), model.storage);
  std::sort(placeholders.begin(), placeholders.end());
  try {
    // Read back sharing the graph's constants where the bytes read equal them, not copying them again
    // (the referenced buffers, unwritten in these bytes, are the graph's by construction).
    static_cast<void>(readModel(model.bytes, graph.sourcePath, serialiser.bufferSources(), placeholders));
  } catch (const Error& error) {
    throwInternalError("the written model '" + graph.name + "' cannot be read back: " + error.message());
  }
  return file;
}

std::vector<std::uint8_t> writeModel(const Graph& graph, const ModelWriteOptions& options) {
  return writeModelPieces(graph, options, 0).joined();
}

} // namespace npu::tflite_frontend
