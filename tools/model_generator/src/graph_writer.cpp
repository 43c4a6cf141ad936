// SPDX-License-Identifier: Apache-2.0
#include "graph_writer.hpp"

#include <algorithm>

namespace npu::modelgen {

namespace {

QuantisationSpec perTensor(const ValueQuantisation& quantisation) {
  return {{quantisation.scale}, {quantisation.zeroPoint}, 0, {}, {}};
}

std::int64_t product(const std::vector<int>& shape) {
  std::int64_t elements = 1;
  for (const int dim : shape) {
    elements *= dim;
  }
  return elements;
}

template <typename T>
std::span<const std::uint8_t> bytesOf(const std::vector<T>& values) {
  return {reinterpret_cast<const std::uint8_t*>(values.data()), values.size() * sizeof(T)};
}

} // namespace

std::int64_t Value::elements() const {
  return product(shape);
}

tflite::TensorType tfliteType(ElementType type) {
  switch (type) {
  case ElementType::UInt8:
    return tflite::TensorType::UINT8;
  case ElementType::Int16:
    return tflite::TensorType::INT16;
  case ElementType::Int8:
    break;
  }
  return tflite::TensorType::INT8;
}

std::pair<std::int64_t, std::int64_t> rangeOf(ElementType type) {
  switch (type) {
  case ElementType::UInt8:
    return {0, 255};
  case ElementType::Int16:
    return {-32768, 32767};
  case ElementType::Int8:
    break;
  }
  return {-128, 127};
}

int windowOutputSize(int input, int kernel, int stride, int dilation, bool same) {
  if (same) {
    return (input + stride - 1) / stride;
  }
  const int dilated = (kernel - 1) * dilation + 1;
  return input < dilated ? 0 : (input - dilated) / stride + 1;
}

GraphWriter::GraphWriter(std::uint64_t seed) : random_(seed) {
  model_.addSubgraph("main");
}

std::string GraphWriter::name(std::string_view stem) {
  return std::string(stem) + "_" + std::to_string(names_++);
}

ValueQuantisation GraphWriter::randomQuantisation(ElementType type) {
  switch (type) {
  case ElementType::Int16: // the converter's 16x8 mode: symmetric activations
    return {static_cast<float>(random_.real(0.0002, 0.002)), 0};
  case ElementType::UInt8:
    return {static_cast<float>(random_.real(0.02, 0.2)), random_.integer(98, 158)};
  case ElementType::Int8:
    break;
  }
  return {static_cast<float>(random_.real(0.02, 0.2)), random_.integer(-30, 30)};
}

Value GraphWriter::input(std::vector<int> shape, ElementType type) {
  Value map = value(name("input"), std::move(shape), type, randomQuantisation(type));
  inputs_.push_back(map.tensor);
  if (summary_.inputShape.empty()) {
    summary_.inputShape = map.shape;
  }
  return map;
}

Value GraphWriter::value(const std::string& name, std::vector<int> shape, ElementType type,
                         ValueQuantisation quantisation) {
  Value map{-1, std::move(shape), type, quantisation};
  map.tensor = model_.addTensor(0, TensorSpec{name, map.shape, tfliteType(type), perTensor(quantisation), 0, false});
  return map;
}

std::int32_t GraphWriter::integers(const std::string& name, std::vector<int> shape,
                                   std::span<const std::int32_t> values) {
  summary_.constantBytes += static_cast<std::int64_t>(values.size_bytes());
  const std::uint32_t buffer = model_.addBufferOf(values);
  return model_.addTensor(0,
                          TensorSpec{name, std::move(shape), tflite::TensorType::INT32, std::nullopt, buffer, false});
}

Value GraphWriter::int32Value(const std::string& name, std::vector<int> shape) {
  Value map{-1, std::move(shape), ElementType::Int8, {}};
  map.tensor = model_.addTensor(0, TensorSpec{name, map.shape, tflite::TensorType::INT32, std::nullopt, 0, false});
  return map;
}

WeightTensor GraphWriter::weights(const std::string& name, const std::vector<int>& shape, int channelAxis,
                                  bool perChannel, ElementType activations) {
  const std::int64_t elements = product(shape);
  summary_.constantBytes += elements;
  const bool unsignedWeights = activations == ElementType::UInt8;
  // uint8 models have per-tensor asymmetric weights; int8 and 16x8 models symmetric int8 weights.
  const std::size_t channels =
      perChannel && !unsignedWeights ? static_cast<std::size_t>(shape[static_cast<std::size_t>(channelAxis)]) : 1;
  WeightTensor result;
  result.scales.resize(channels);
  for (float& scale : result.scales) {
    scale = static_cast<float>(random_.real(0.002, 0.02));
  }
  // A quarter of the layers have low-entropy weights, as pruned or small layers do (they encode smaller).
  const std::int64_t spread = random_.integer(0, 3) == 0 ? 7 : 127;
  std::vector<std::int64_t> zeroPoints(channels, 0);
  if (unsignedWeights) {
    zeroPoints[0] = random_.integer(110, 145);
  }
  std::vector<std::uint8_t> raw(static_cast<std::size_t>(elements));
  for (std::uint8_t& byte : raw) {
    const std::int64_t value = random_.integer(-spread, spread) + zeroPoints[0];
    byte = static_cast<std::uint8_t>(unsignedWeights ? std::clamp<std::int64_t>(value, 0, 255) : value);
  }
  const std::uint32_t buffer = model_.addBuffer(raw);
  result.tensor = model_.addTensor(
      0,
      TensorSpec{name, shape, unsignedWeights ? tflite::TensorType::UINT8 : tflite::TensorType::INT8,
                 QuantisationSpec{result.scales, zeroPoints, channels > 1 ? channelAxis : 0, {}, {}}, buffer, false});
  return result;
}

std::int32_t GraphWriter::bias(const std::string& name, float inputScale, std::span<const float> weightScales,
                               ElementType activations) {
  std::vector<float> scales;
  for (const float weightScale : weightScales) {
    scales.push_back(inputScale * weightScale);
  }
  const std::vector<std::int64_t> zeroPoints(scales.size(), 0);
  QuantisationSpec quantisation{scales, zeroPoints, 0, {}, {}};
  const auto count = static_cast<int>(weightScales.size());
  std::uint32_t buffer = 0;
  tflite::TensorType type = tflite::TensorType::INT32;
  if (activations == ElementType::Int16) { // 16x8 convolutions take int64 biases
    std::vector<std::int64_t> values(weightScales.size());
    for (auto& v : values) {
      v = random_.integer(-40000, 40000);
    }
    buffer = model_.addBuffer(bytesOf(values));
    type = tflite::TensorType::INT64;
    summary_.constantBytes += std::int64_t{8} * count;
  } else {
    std::vector<std::int32_t> values(weightScales.size());
    for (auto& v : values) {
      v = static_cast<std::int32_t>(random_.integer(-1000, 1000));
    }
    buffer = model_.addBuffer(bytesOf(values));
    summary_.constantBytes += std::int64_t{4} * count;
  }
  return model_.addTensor(0, TensorSpec{name, {count}, type, quantisation, buffer, false});
}

Value GraphWriter::constantOperand(const std::string& name, std::vector<int> shape, ElementType type) {
  const ValueQuantisation quantisation = randomQuantisation(type);
  const auto [low, high] = rangeOf(type);
  const std::int64_t elements = product(shape);
  std::uint32_t buffer = 0;
  if (type == ElementType::Int16) {
    std::vector<std::int16_t> values(static_cast<std::size_t>(elements));
    for (auto& v : values) {
      v = static_cast<std::int16_t>(random_.integer(low / 4, high / 4));
    }
    buffer = model_.addBuffer(bytesOf(values));
    summary_.constantBytes += elements * 2;
  } else {
    std::vector<std::uint8_t> values(static_cast<std::size_t>(elements));
    for (auto& v : values) {
      v = static_cast<std::uint8_t>(random_.integer(low, high));
    }
    buffer = model_.addBuffer(values);
    summary_.constantBytes += elements;
  }
  Value constant{-1, std::move(shape), type, quantisation};
  constant.tensor =
      model_.addTensor(0, TensorSpec{name, constant.shape, tfliteType(type), perTensor(quantisation), buffer, false});
  return constant;
}

void GraphWriter::addOperator(tflite::BuiltinOperator code, std::vector<std::int32_t> inputs,
                              std::vector<std::int32_t> outputs, tflite::BuiltinOptions optionsType,
                              flatbuffers::Offset<void> options) {
  ++summary_.operators;
  ++summary_.operatorCounts[tflite::EnumNameBuiltinOperator(code)];
  model_.addOperator(
      0,
      OperatorSpec{model_.addOperatorCode(code), std::move(inputs), std::move(outputs), {}, optionsType, options, {}});
}

void GraphWriter::rememberWeights(const std::vector<int>& shape, WeightTensor weights) {
  knownWeights_.emplace_back(shape, std::move(weights));
}

const WeightTensor* GraphWriter::knownWeights(const std::vector<int>& shape) const {
  for (const auto& [known, weights] : knownWeights_) {
    if (known == shape) {
      return &weights;
    }
  }
  return nullptr;
}

GeneratedModel GraphWriter::finish(const std::vector<Value>& outputs, const std::string& description) {
  std::vector<std::int32_t> tensors;
  for (const Value& output : outputs) {
    tensors.push_back(output.tensor);
  }
  if (!outputs.empty()) {
    summary_.outputShape = outputs.front().shape;
  }
  model_.setInputs(0, inputs_);
  model_.setOutputs(0, tensors);
  GeneratedModel generated;
  generated.summary = summary_;
  generated.bytes = model_.finish(description);
  return generated;
}

} // namespace npu::modelgen
