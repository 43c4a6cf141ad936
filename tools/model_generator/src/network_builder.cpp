// SPDX-License-Identifier: Apache-2.0
#include "network_builder.hpp"

#include <algorithm>

namespace npu::modelgen {

namespace {

using tflite::BuiltinOperator;

// Typical converter output: inputs in [-1, 1], ReLU6 outputs in [0, 6] over the full int8 range,
// softmax outputs in [0, 1) with scale 1/256.
constexpr float kInputScale = 2.0F / 255.0F;
constexpr std::int64_t kInputZeroPoint = -1;
constexpr float kRelu6Scale = 6.0F / 255.0F;
constexpr std::int64_t kRelu6ZeroPoint = -128;
constexpr float kSoftmaxScale = 1.0F / 256.0F;
constexpr std::int64_t kSoftmaxZeroPoint = -128;

QuantisationSpec perTensor(float scale, std::int64_t zeroPoint) {
  return {{scale}, {zeroPoint}, 0, {}, {}};
}

std::int64_t product(const std::vector<int>& shape) {
  std::int64_t elements = 1;
  for (const int dim : shape) {
    elements *= dim;
  }
  return elements;
}

tflite::ActivationFunctionType fused(Activation activation) {
  return activation == Activation::Relu6 ? tflite::ActivationFunctionType::RELU6 : tflite::ActivationFunctionType::NONE;
}

} // namespace

NetworkBuilder::NetworkBuilder(Mode mode, std::uint64_t seed) : random_(seed) {
  if (mode == Mode::Write) {
    model_ = std::make_unique<TfliteModelBuilder>();
    model_->addSubgraph("main");
  }
}

NetworkBuilder::Quantisation NetworkBuilder::outputQuantisation(Activation activation) {
  if (activation == Activation::Relu6) {
    return {kRelu6Scale, kRelu6ZeroPoint};
  }
  // A linear output (projection, logits): a symmetric-ish range of a few units.
  return {static_cast<float>(random_.real(0.05, 0.25)), random_.integer(-16, 16)};
}

FeatureMap NetworkBuilder::featureMap(const std::string& name, std::vector<int> shape, Quantisation quantisation) {
  FeatureMap map{-1, std::move(shape), quantisation.scale, quantisation.zeroPoint};
  if (writing()) {
    map.tensor = model_->addTensor(
        0, TensorSpec{name, map.shape, tflite::TensorType::INT8, perTensor(map.scale, map.zeroPoint), 0, false});
  }
  return map;
}

std::pair<std::int32_t, std::vector<float>> NetworkBuilder::weights(const std::string& name,
                                                                    const std::vector<int>& shape, int channelAxis) {
  const std::int64_t elements = product(shape);
  summary_.constantBytes += elements;
  if (!writing()) {
    return {-1, {}};
  }
  // channelAxis < 0: one scale for the whole tensor (fully connected layers, as Vela needs them).
  const std::size_t channels =
      channelAxis < 0 ? 1 : static_cast<std::size_t>(shape[static_cast<std::size_t>(channelAxis)]);
  std::vector<float> scales(channels);
  for (float& scale : scales) {
    scale = static_cast<float>(random_.real(0.002, 0.02));
  }
  std::vector<std::int8_t> values(static_cast<std::size_t>(elements));
  for (std::int8_t& value : values) {
    value = static_cast<std::int8_t>(random_.integer(-127, 127));
  }
  const std::uint32_t buffer = model_->addBufferOf(std::span<const std::int8_t>(values));
  const std::int32_t tensor = model_->addTensor(
      0, TensorSpec{name, shape, tflite::TensorType::INT8,
                    QuantisationSpec{scales, std::vector<std::int64_t>(channels, 0), std::max(channelAxis, 0), {}, {}},
                    buffer, false});
  return {tensor, scales};
}

std::int32_t NetworkBuilder::bias(const std::string& name, float inputScale, const std::vector<float>& weightScales) {
  const auto channels = static_cast<int>(weightScales.size());
  if (!writing()) {
    return -1;
  }
  std::vector<float> scales;
  for (const float weightScale : weightScales) {
    scales.push_back(inputScale * weightScale);
  }
  std::vector<std::int32_t> values(static_cast<std::size_t>(channels));
  for (std::int32_t& value : values) {
    value = static_cast<std::int32_t>(random_.integer(-512, 512));
  }
  const std::uint32_t buffer = model_->addBufferOf(std::span<const std::int32_t>(values));
  return model_->addTensor(0,
                           TensorSpec{name,
                                      {channels},
                                      tflite::TensorType::INT32,
                                      QuantisationSpec{scales, std::vector<std::int64_t>(scales.size(), 0), 0, {}, {}},
                                      buffer,
                                      false});
}

void NetworkBuilder::addOperator(BuiltinOperator code, std::vector<std::int32_t> inputs, const FeatureMap& output,
                                 tflite::BuiltinOptions optionsType, flatbuffers::Offset<void> options) {
  ++summary_.operators;
  ++summary_.operatorCounts[tflite::EnumNameBuiltinOperator(code)];
  if (writing()) {
    model_->addOperator(
        0,
        OperatorSpec{model_->addOperatorCode(code), std::move(inputs), {output.tensor}, {}, optionsType, options, {}});
  }
}

FeatureMap NetworkBuilder::input(const std::string& name, std::vector<int> shape) {
  summary_.inputShape = shape;
  FeatureMap map = featureMap(name, std::move(shape), {kInputScale, kInputZeroPoint});
  inputs_.push_back(map.tensor);
  return map;
}

FeatureMap NetworkBuilder::conv2d(const std::string& name, const FeatureMap& in, int outChannels, int kernel,
                                  int stride, Activation activation) {
  const int height = sameOutputSize(in.shape[1], stride);
  const int width = sameOutputSize(in.shape[2], stride);
  summary_.macs += std::int64_t{height} * width * outChannels * kernel * kernel * in.channels();
  summary_.constantBytes += std::int64_t{4} * outChannels;
  const auto [weightTensor, weightScales] = weights(name + "/weights", {outChannels, kernel, kernel, in.channels()}, 0);
  const std::int32_t biasTensor = bias(name + "/bias", in.scale, weightScales);
  FeatureMap out = featureMap(name, {1, height, width, outChannels}, outputQuantisation(activation));
  flatbuffers::Offset<void> options;
  if (writing()) {
    options =
        tflite::CreateConv2DOptions(model_->flatbuffers(), tflite::Padding::SAME, stride, stride, fused(activation))
            .Union();
  }
  addOperator(BuiltinOperator::CONV_2D, {in.tensor, weightTensor, biasTensor}, out,
              tflite::BuiltinOptions::Conv2DOptions, options);
  return out;
}

FeatureMap NetworkBuilder::depthwiseConv2d(const std::string& name, const FeatureMap& in, int kernel, int stride,
                                           Activation activation) {
  const int height = sameOutputSize(in.shape[1], stride);
  const int width = sameOutputSize(in.shape[2], stride);
  const int channels = in.channels();
  summary_.macs += std::int64_t{height} * width * channels * kernel * kernel;
  summary_.constantBytes += std::int64_t{4} * channels;
  const auto [weightTensor, weightScales] = weights(name + "/weights", {1, kernel, kernel, channels}, 3);
  const std::int32_t biasTensor = bias(name + "/bias", in.scale, weightScales);
  FeatureMap out = featureMap(name, {1, height, width, channels}, outputQuantisation(activation));
  flatbuffers::Offset<void> options;
  if (writing()) {
    options = tflite::CreateDepthwiseConv2DOptions(model_->flatbuffers(), tflite::Padding::SAME, stride, stride, 1,
                                                   fused(activation))
                  .Union();
  }
  addOperator(BuiltinOperator::DEPTHWISE_CONV_2D, {in.tensor, weightTensor, biasTensor}, out,
              tflite::BuiltinOptions::DepthwiseConv2DOptions, options);
  return out;
}

FeatureMap NetworkBuilder::add(const std::string& name, const FeatureMap& a, const FeatureMap& b) {
  const Quantisation quantisation{std::max(a.scale, b.scale) * static_cast<float>(random_.real(1.0, 1.5)),
                                  random_.integer(-16, 16)};
  FeatureMap out = featureMap(name, a.shape, quantisation);
  flatbuffers::Offset<void> options;
  if (writing()) {
    options = tflite::CreateAddOptions(model_->flatbuffers()).Union();
  }
  addOperator(BuiltinOperator::ADD, {a.tensor, b.tensor}, out, tflite::BuiltinOptions::AddOptions, options);
  return out;
}

FeatureMap NetworkBuilder::globalAveragePool(const std::string& name, const FeatureMap& in) {
  FeatureMap out = featureMap(name, {1, 1, 1, in.channels()}, {in.scale, in.zeroPoint});
  flatbuffers::Offset<void> options;
  if (writing()) {
    options = tflite::CreatePool2DOptions(model_->flatbuffers(), tflite::Padding::VALID, 1, 1, in.shape[2], in.shape[1])
                  .Union();
  }
  addOperator(BuiltinOperator::AVERAGE_POOL_2D, {in.tensor}, out, tflite::BuiltinOptions::Pool2DOptions, options);
  return out;
}

FeatureMap NetworkBuilder::reshape(const std::string& name, const FeatureMap& in, std::vector<int> shape) {
  FeatureMap out = featureMap(name, shape, {in.scale, in.zeroPoint});
  std::int32_t shapeTensor = -1;
  flatbuffers::Offset<void> options;
  summary_.constantBytes += std::int64_t{4} * static_cast<std::int64_t>(shape.size());
  if (writing()) {
    const std::uint32_t buffer = model_->addBufferOf(std::span<const int>(shape));
    shapeTensor = model_->addTensor(
        0,
        TensorSpec{
            name + "/shape", {static_cast<int>(shape.size())}, tflite::TensorType::INT32, std::nullopt, buffer, false});
    options = tflite::CreateReshapeOptions(model_->flatbuffers(), model_->flatbuffers().CreateVector(shape)).Union();
  }
  addOperator(BuiltinOperator::RESHAPE, {in.tensor, shapeTensor}, out, tflite::BuiltinOptions::ReshapeOptions, options);
  return out;
}

FeatureMap NetworkBuilder::fullyConnected(const std::string& name, const FeatureMap& in, int outputs) {
  const int inputs = in.channels();
  summary_.macs += std::int64_t{inputs} * outputs;
  summary_.constantBytes += std::int64_t{4} * outputs;
  const auto [weightTensor, weightScales] = weights(name + "/weights", {outputs, inputs}, -1);
  const std::int32_t biasTensor =
      writing()
          ? bias(name + "/bias", in.scale, std::vector<float>(static_cast<std::size_t>(outputs), weightScales.front()))
          : -1;
  FeatureMap out = featureMap(name, {1, outputs}, outputQuantisation(Activation::None));
  flatbuffers::Offset<void> options;
  if (writing()) {
    options = tflite::CreateFullyConnectedOptions(model_->flatbuffers()).Union();
  }
  addOperator(BuiltinOperator::FULLY_CONNECTED, {in.tensor, weightTensor, biasTensor}, out,
              tflite::BuiltinOptions::FullyConnectedOptions, options);
  return out;
}

FeatureMap NetworkBuilder::softmax(const std::string& name, const FeatureMap& in) {
  FeatureMap out = featureMap(name, in.shape, {kSoftmaxScale, kSoftmaxZeroPoint});
  flatbuffers::Offset<void> options;
  if (writing()) {
    options = tflite::CreateSoftmaxOptions(model_->flatbuffers(), 1.0F).Union();
  }
  addOperator(BuiltinOperator::SOFTMAX, {in.tensor}, out, tflite::BuiltinOptions::SoftmaxOptions, options);
  return out;
}

GeneratedModel NetworkBuilder::finish(const FeatureMap& output, const std::string& description) {
  summary_.outputShape = output.shape;
  GeneratedModel generated;
  generated.summary = summary_;
  if (writing()) {
    model_->setInputs(0, inputs_);
    model_->setOutputs(0, {output.tensor});
    generated.bytes = model_->finish(description);
  }
  return generated;
}

} // namespace npu::modelgen
