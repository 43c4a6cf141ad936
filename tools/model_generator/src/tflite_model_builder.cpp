// SPDX-License-Identifier: Apache-2.0
#include "model_generator/tflite_model_builder.hpp"

#include <algorithm>
#include <stdexcept>

namespace npu::modelgen {

namespace {
constexpr std::size_t kConstantAlignment = 16;    // Buffer.data is force_align: 16 in the schema
constexpr std::int32_t kLastDeprecatedCode = 127; // PLACEHOLDER_FOR_GREATER_OP_CODES
} // namespace

TfliteModelBuilder::TfliteModelBuilder() {
  buffers_.push_back(tflite::CreateBuffer(builder_));
}

std::uint32_t TfliteModelBuilder::addBuffer(std::span<const std::uint8_t> bytes) {
  builder_.ForceVectorAlignment(bytes.size(), sizeof(std::uint8_t), kConstantAlignment);
  const auto data = builder_.CreateVector(bytes.data(), bytes.size());
  buffers_.push_back(tflite::CreateBuffer(builder_, data));
  return static_cast<std::uint32_t>(buffers_.size() - 1);
}

std::uint32_t TfliteModelBuilder::addExternalBuffer(std::uint64_t offset, std::uint64_t size) {
  buffers_.push_back(tflite::CreateBuffer(builder_, 0, offset, size));
  return static_cast<std::uint32_t>(buffers_.size() - 1);
}

std::uint32_t TfliteModelBuilder::addOperatorCode(tflite::BuiltinOperator code, std::int32_t version) {
  const auto same = [&](const OperatorCode& known) {
    return known.code == code && known.version == version && known.customCode.empty() && !known.legacy;
  };
  if (const auto it = std::find_if(operatorCodes_.begin(), operatorCodes_.end(), same); it != operatorCodes_.end()) {
    return static_cast<std::uint32_t>(it - operatorCodes_.begin());
  }
  operatorCodes_.push_back({code, version, {}, false});
  return static_cast<std::uint32_t>(operatorCodes_.size() - 1);
}

std::uint32_t TfliteModelBuilder::addCustomOperatorCode(const std::string& customCode) {
  const auto same = [&](const OperatorCode& known) { return known.customCode == customCode; };
  if (const auto it = std::find_if(operatorCodes_.begin(), operatorCodes_.end(), same); it != operatorCodes_.end()) {
    return static_cast<std::uint32_t>(it - operatorCodes_.begin());
  }
  operatorCodes_.push_back({tflite::BuiltinOperator::CUSTOM, 1, customCode, false});
  return static_cast<std::uint32_t>(operatorCodes_.size() - 1);
}

std::uint32_t TfliteModelBuilder::addLegacyOperatorCode(tflite::BuiltinOperator code) {
  operatorCodes_.push_back({code, 1, {}, true});
  return static_cast<std::uint32_t>(operatorCodes_.size() - 1);
}

std::uint32_t TfliteModelBuilder::addSubgraph(std::string name) {
  subgraphs_.push_back(Subgraph{std::move(name), {}, {}, {}, {}});
  return static_cast<std::uint32_t>(subgraphs_.size() - 1);
}

TfliteModelBuilder::Subgraph& TfliteModelBuilder::subgraph(std::uint32_t index) {
  if (index >= subgraphs_.size()) {
    throw std::out_of_range("TfliteModelBuilder: no subgraph " + std::to_string(index));
  }
  return subgraphs_[index];
}

std::int32_t TfliteModelBuilder::addTensor(std::uint32_t subgraphIndex, TensorSpec tensor) {
  Subgraph& target = subgraph(subgraphIndex);
  target.tensors.push_back(std::move(tensor));
  return static_cast<std::int32_t>(target.tensors.size() - 1);
}

void TfliteModelBuilder::addOperator(std::uint32_t subgraphIndex, OperatorSpec op) {
  subgraph(subgraphIndex).operators.push_back(std::move(op));
}

void TfliteModelBuilder::setInputs(std::uint32_t subgraphIndex, std::vector<std::int32_t> tensors) {
  subgraph(subgraphIndex).inputs = std::move(tensors);
}

void TfliteModelBuilder::setOutputs(std::uint32_t subgraphIndex, std::vector<std::int32_t> tensors) {
  subgraph(subgraphIndex).outputs = std::move(tensors);
}

std::vector<std::uint8_t> TfliteModelBuilder::finish(const std::string& description) {
  if (finished_) {
    throw std::logic_error("TfliteModelBuilder::finish called twice");
  }
  finished_ = true;
  auto& b = builder_;

  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes;
  for (const OperatorCode& code : operatorCodes_) {
    const auto builtin = static_cast<std::int32_t>(code.code);
    codes.push_back(tflite::CreateOperatorCode(b, static_cast<std::int8_t>(std::min(builtin, kLastDeprecatedCode)),
                                               code.customCode.empty() ? 0 : b.CreateString(code.customCode),
                                               code.version, code.legacy ? tflite::BuiltinOperator::ADD : code.code));
  }

  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs;
  for (const Subgraph& subgraph : subgraphs_) {
    std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
    for (const TensorSpec& tensor : subgraph.tensors) {
      flatbuffers::Offset<tflite::QuantizationParameters> quantisation;
      if (tensor.quantisation) {
        const QuantisationSpec& q = *tensor.quantisation;
        const auto single = [&](const std::optional<float>& value) {
          return value ? b.CreateVector(std::vector<float>{*value}) : flatbuffers::Offset<flatbuffers::Vector<float>>();
        };
        quantisation = tflite::CreateQuantizationParameters(b, single(q.min), single(q.max), b.CreateVector(q.scale),
                                                            b.CreateVector(q.zeroPoint),
                                                            tflite::QuantizationDetails::NONE, 0, q.quantizedDimension);
      }
      flatbuffers::Offset<tflite::SparsityParameters> sparsity;
      if (tensor.sparse) {
        std::vector<std::int32_t> order(tensor.shape.size());
        std::vector<flatbuffers::Offset<tflite::DimensionMetadata>> dimensions;
        for (std::size_t i = 0; i < order.size(); ++i) {
          order[i] = static_cast<std::int32_t>(i);
          dimensions.push_back(tflite::CreateDimensionMetadata(b, tflite::DimensionType::DENSE, tensor.shape[i]));
        }
        sparsity = tflite::CreateSparsityParameters(b, b.CreateVector(order), 0, b.CreateVector(dimensions));
      }
      tensors.push_back(tflite::CreateTensor(b, b.CreateVector(tensor.shape), tensor.type, tensor.buffer,
                                             b.CreateString(tensor.name), quantisation, tensor.isVariable, sparsity));
    }
    std::vector<flatbuffers::Offset<tflite::Operator>> operators;
    for (const OperatorSpec& op : subgraph.operators) {
      const auto intermediates = op.intermediates.empty() ? 0 : b.CreateVector(op.intermediates);
      const auto customOptions = op.customOptions.empty() ? 0 : b.CreateVector(op.customOptions);
      operators.push_back(tflite::CreateOperator(b, op.opcodeIndex, b.CreateVector(op.inputs),
                                                 b.CreateVector(op.outputs), op.optionsType, op.options, customOptions,
                                                 tflite::CustomOptionsFormat::FLEXBUFFERS, 0, intermediates));
    }
    subgraphs.push_back(tflite::CreateSubGraph(b, b.CreateVector(tensors), b.CreateVector(subgraph.inputs),
                                               b.CreateVector(subgraph.outputs), b.CreateVector(operators),
                                               b.CreateString(subgraph.name)));
  }

  constexpr std::uint32_t kSchemaVersion = 3;
  const auto model = tflite::CreateModel(b, kSchemaVersion, b.CreateVector(codes), b.CreateVector(subgraphs),
                                         b.CreateString(description), b.CreateVector(buffers_));
  tflite::FinishModelBuffer(b, model);
  return std::vector<std::uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

} // namespace npu::modelgen
