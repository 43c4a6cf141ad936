// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model_generator/random_network.hpp"
#include "model_generator/tflite_model_builder.hpp"
#include "random.hpp"

#include <span>
#include <string>
#include <vector>

namespace npu::modelgen {

/// Affine quantisation of one feature map.
struct ValueQuantisation {
  float scale = 1.0F;
  std::int64_t zeroPoint = 0;
  friend bool operator==(const ValueQuantisation&, const ValueQuantisation&) = default;
};

/// A feature map of the network being generated.
struct Value {
  std::int32_t tensor = -1;
  std::vector<int> shape; ///< NHWC when rank 4
  ElementType type = ElementType::Int8;
  ValueQuantisation quantisation;

  [[nodiscard]] int rank() const { return static_cast<int>(shape.size()); }
  [[nodiscard]] int channels() const { return shape.back(); }
  [[nodiscard]] int height() const { return shape[1]; }
  [[nodiscard]] int width() const { return shape[2]; }
  [[nodiscard]] std::int64_t elements() const;
};

/// Per-channel (or per-tensor) weights as written, with the scales a bias needs.
struct WeightTensor {
  std::int32_t tensor = -1;
  std::vector<float> scales;
};

[[nodiscard]] tflite::TensorType tfliteType(ElementType type);
/// The range of an element type: [lowest, highest].
[[nodiscard]] std::pair<std::int64_t, std::int64_t> rangeOf(ElementType type);

/// Writes one subgraph of quantised tensors and operators the way the TFLite converter does: int8
/// weights (uint8 in uint8 networks), biases of int32 (int64 for int16 activations) scaled by input
/// scale x weight scale. Keeps the model's summary (operators by type, MACs, constant bytes).
class GraphWriter {
public:
  explicit GraphWriter(std::uint64_t seed);

  [[nodiscard]] Random& random() { return random_; }
  [[nodiscard]] flatbuffers::FlatBufferBuilder& flatbuffers() { return model_.flatbuffers(); }
  [[nodiscard]] ModelSummary& summary() { return summary_; }

  /// A unique tensor name: "<stem>_<n>".
  [[nodiscard]] std::string name(std::string_view stem);
  /// A plausible activation quantisation of `type` (int16: symmetric).
  [[nodiscard]] ValueQuantisation randomQuantisation(ElementType type);

  Value input(std::vector<int> shape, ElementType type);
  /// A feature map written by an operator added next.
  Value value(const std::string& name, std::vector<int> shape, ElementType type, ValueQuantisation quantisation);
  /// An int32 (or other integer) tensor without quantisation: shapes, axes, paddings, sizes.
  std::int32_t integers(const std::string& name, std::vector<int> shape, std::span<const std::int32_t> values);
  /// An int32 feature map without quantisation (ARG_MAX output, shape side chains).
  Value int32Value(const std::string& name, std::vector<int> shape);
  /// Weights of `shape` with output channels along `channelAxis`; per channel or one scale for all.
  WeightTensor weights(const std::string& name, const std::vector<int>& shape, int channelAxis, bool perChannel,
                       ElementType activations);
  /// A bias of weight scales x `inputScale`.
  std::int32_t bias(const std::string& name, float inputScale, std::span<const float> weightScales,
                    ElementType activations);
  /// A constant operand of an elementwise operator, quantised like a feature map.
  Value constantOperand(const std::string& name, std::vector<int> shape, ElementType type);

  void addOperator(tflite::BuiltinOperator code, std::vector<std::int32_t> inputs, std::vector<std::int32_t> outputs,
                   tflite::BuiltinOptions optionsType = tflite::BuiltinOptions::NONE,
                   flatbuffers::Offset<void> options = {});
  void countMacs(std::int64_t macs) { summary_.macs += macs; }

  /// Reuses weights by identity: the same tensor read by several operators.
  void rememberWeights(const std::vector<int>& shape, WeightTensor weights);
  [[nodiscard]] const WeightTensor* knownWeights(const std::vector<int>& shape) const;

  GeneratedModel finish(const std::vector<Value>& outputs, const std::string& description);

private:
  TfliteModelBuilder model_;
  Random random_;
  ModelSummary summary_;
  std::vector<std::int32_t> inputs_;
  std::vector<std::pair<std::vector<int>, WeightTensor>> knownWeights_;
  int names_ = 0;
};

/// Output size of a window over `input`: SAME ceil(input / stride), VALID ceil((input - dilated + 1) / stride);
/// 0 when VALID does not fit.
[[nodiscard]] int windowOutputSize(int input, int kernel, int stride, int dilation, bool same);

} // namespace npu::modelgen
