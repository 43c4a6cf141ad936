// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model_generator/model_generator.hpp"
#include "model_generator/tflite_model_builder.hpp"
#include "random.hpp"

#include <array>
#include <memory>
#include <string>

namespace npu::modelgen {

/// An int8 feature map of the network being built (NHWC, or [1, N] after flattening).
struct FeatureMap {
  std::int32_t tensor = -1;
  std::vector<int> shape;
  float scale = 1.0F;
  std::int64_t zeroPoint = 0;

  [[nodiscard]] int channels() const { return shape.back(); }
};

enum class Activation { None, Relu6 };

/// Builds an int8 network layer by layer the way the TFLite converter writes one: per-channel
/// symmetric weights, int32 biases scaled by input scale x weight scale, plausible activation ranges,
/// SAME padding. Counts operators and MACs as it goes. In planning mode (no file) it only counts, so the
/// summary of a 10,000-layer network costs nothing.
class NetworkBuilder {
public:
  enum class Mode { Plan, Write };
  NetworkBuilder(Mode mode, std::uint64_t seed);

  FeatureMap input(const std::string& name, std::vector<int> shape);
  FeatureMap conv2d(const std::string& name, const FeatureMap& in, int outChannels, int kernel, int stride,
                    Activation activation);
  FeatureMap depthwiseConv2d(const std::string& name, const FeatureMap& in, int kernel, int stride,
                             Activation activation);
  FeatureMap add(const std::string& name, const FeatureMap& a, const FeatureMap& b);
  /// Average over the whole spatial extent (a pooling window as large as the input).
  FeatureMap globalAveragePool(const std::string& name, const FeatureMap& in);
  FeatureMap reshape(const std::string& name, const FeatureMap& in, std::vector<int> shape);
  FeatureMap fullyConnected(const std::string& name, const FeatureMap& in, int outputs);
  FeatureMap softmax(const std::string& name, const FeatureMap& in);

  /// Marks the output, finishes the summary and, in Write mode, the file.
  GeneratedModel finish(const FeatureMap& output, const std::string& description);

  [[nodiscard]] const ModelSummary& summary() const { return summary_; }

private:
  struct Quantisation {
    float scale;
    std::int64_t zeroPoint;
  };
  [[nodiscard]] bool writing() const { return model_ != nullptr; }
  Quantisation outputQuantisation(Activation activation);
  FeatureMap featureMap(const std::string& name, std::vector<int> shape, Quantisation quantisation);
  /// Per-output-channel int8 weights of `shape`, channel along `channelAxis`; returns the tensor and scales.
  std::pair<std::int32_t, std::vector<float>> weights(const std::string& name, const std::vector<int>& shape,
                                                      int channelAxis);
  std::int32_t bias(const std::string& name, float inputScale, const std::vector<float>& weightScales);
  void addOperator(tflite::BuiltinOperator code, std::vector<std::int32_t> inputs, const FeatureMap& output,
                   tflite::BuiltinOptions optionsType = tflite::BuiltinOptions::NONE,
                   flatbuffers::Offset<void> options = {});

  std::unique_ptr<TfliteModelBuilder> model_;
  Random random_;
  ModelSummary summary_;
  std::vector<std::int32_t> inputs_;
};

/// Output size of a SAME-padded window: ceil(input / stride).
[[nodiscard]] constexpr int sameOutputSize(int input, int stride) {
  return (input + stride - 1) / stride;
}

} // namespace npu::modelgen
