// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <tflite/tflite_schema_generated.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace npu::modelgen {

/// Affine quantisation of a tensor as TFLite stores it (per tensor, or per axis with several scales).
struct QuantisationSpec {
  std::vector<float> scale;
  std::vector<std::int64_t> zeroPoint;
  std::int32_t quantizedDimension = 0;
  std::optional<float> min;
  std::optional<float> max;
};

struct TensorSpec {
  std::string name;
  std::vector<std::int32_t> shape;
  tflite::TensorType type = tflite::TensorType::INT8;
  std::optional<QuantisationSpec> quantisation;
  std::uint32_t buffer = 0; ///< index from addBuffer(); 0 is the empty sentinel (no data)
  bool isVariable = false;
  /// Writes SparsityParameters (every dimension dense, in order), marking the data as sparse-encoded.
  bool sparse = false;
};

struct OperatorSpec {
  std::uint32_t opcodeIndex = 0;    ///< from addOperatorCode() / addCustomOperatorCode()
  std::vector<std::int32_t> inputs; ///< tensor indices; -1 for an omitted optional input
  std::vector<std::int32_t> outputs;
  std::vector<std::int32_t> intermediates;
  tflite::BuiltinOptions optionsType = tflite::BuiltinOptions::NONE;
  flatbuffers::Offset<void> options; ///< an options table made beforehand with flatbuffers()
  std::vector<std::uint8_t> customOptions;
};

/// Writes TFLite flatbuffers through the project's schema. It writes what it is given and checks
/// nothing, so tests can build malformed models as easily as valid ones; validation is the reader's
/// job. The same sequence of calls always gives the same bytes.
///
/// Options tables are created with flatbuffers() (e.g. tflite::CreateConv2DOptions) before the
/// operator that uses them is added; everything else is assembled by finish().
class TfliteModelBuilder {
public:
  TfliteModelBuilder(); ///< starts with buffer 0, the empty sentinel every TFLite file has
  TfliteModelBuilder(const TfliteModelBuilder&) = delete;
  TfliteModelBuilder& operator=(const TfliteModelBuilder&) = delete;

  [[nodiscard]] flatbuffers::FlatBufferBuilder& flatbuffers() { return builder_; }

  /// A buffer holding `bytes` (16-byte aligned, as TFLite writes constant data); returns its index.
  std::uint32_t addBuffer(std::span<const std::uint8_t> bytes);
  template <typename T>
  std::uint32_t addBufferOf(std::span<const T> values) { // little-endian hosts, like TFLite itself
    return addBuffer(
        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(values.data()), values.size_bytes()));
  }
  /// A buffer whose data lies outside the flatbuffer at a file offset (how models above 2 GiB are stored).
  std::uint32_t addExternalBuffer(std::uint64_t offset, std::uint64_t size);

  /// The index of the operator code for a builtin, added on first use. Both code fields are written,
  /// as current converters do.
  std::uint32_t addOperatorCode(tflite::BuiltinOperator code, std::int32_t version = 1);
  std::uint32_t addCustomOperatorCode(const std::string& customCode);
  /// An operator code as files written before TensorFlow 2.4 store it: only deprecated_builtin_code
  /// (the code must be below 127), builtin_code left 0.
  std::uint32_t addLegacyOperatorCode(tflite::BuiltinOperator code);

  /// Adds a subgraph and returns its index; subgraph 0 is the model's entry point.
  std::uint32_t addSubgraph(std::string name);
  /// Adds a tensor to a subgraph and returns its index.
  std::int32_t addTensor(std::uint32_t subgraph, TensorSpec tensor);
  void addOperator(std::uint32_t subgraph, OperatorSpec op);
  void setInputs(std::uint32_t subgraph, std::vector<std::int32_t> tensors);
  void setOutputs(std::uint32_t subgraph, std::vector<std::int32_t> tensors);

  /// Serialises the model with file identifier "TFL3". The builder cannot be used afterwards.
  [[nodiscard]] std::vector<std::uint8_t> finish(const std::string& description);

private:
  struct Subgraph {
    std::string name;
    std::vector<TensorSpec> tensors;
    std::vector<OperatorSpec> operators;
    std::vector<std::int32_t> inputs;
    std::vector<std::int32_t> outputs;
  };
  struct OperatorCode {
    tflite::BuiltinOperator code = tflite::BuiltinOperator::ADD;
    std::int32_t version = 1;
    std::string customCode;
    bool legacy = false;
  };

  Subgraph& subgraph(std::uint32_t index);

  flatbuffers::FlatBufferBuilder builder_;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers_;
  std::vector<OperatorCode> operatorCodes_;
  std::vector<Subgraph> subgraphs_;
  bool finished_ = false;
};

} // namespace npu::modelgen
