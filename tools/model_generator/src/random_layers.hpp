// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "graph_writer.hpp"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace npu::modelgen {

/// The feature maps a random network has made so far and which of them still wait for a reader.
class NetworkState {
public:
  NetworkState(GraphWriter& writer, ElementType type, int maxChannels, std::int64_t maxElements, bool cpuOperators)
      : writer_(writer), type_(type), maxChannels_(maxChannels), maxElements_(maxElements),
        cpuOperators_(cpuOperators) {}

  [[nodiscard]] GraphWriter& writer() { return writer_; }
  [[nodiscard]] Random& random() { return writer_.random(); }
  [[nodiscard]] ElementType type() const { return type_; }
  [[nodiscard]] int maxChannels() const { return maxChannels_; }
  [[nodiscard]] bool cpuOperators() const { return cpuOperators_; }
  /// Whether a feature map of `shape` stays within the network's size budget.
  [[nodiscard]] bool fits(const std::vector<int>& shape) const;

  void add(Value value) {
    values_.push_back(std::move(value));
    read_.push_back(false);
  }
  /// A value only a subgraph output may read (e.g. ARG_MAX's int32 indices).
  void addTerminal(Value value) { terminals_.push_back(std::move(value)); }
  void markRead(const Value& value);
  [[nodiscard]] const std::vector<Value>& values() const { return values_; }
  [[nodiscard]] bool wasRead(std::size_t index) const { return read_[index]; }
  /// Another value (not `self`) satisfying `accept`, preferring those no operator has read yet.
  [[nodiscard]] std::optional<Value> partner(const Value& self, const std::function<bool(const Value&)>& accept);
  /// Values nothing reads: with the terminals, the subgraph outputs.
  [[nodiscard]] std::vector<Value> unread() const;
  [[nodiscard]] const std::vector<Value>& terminals() const { return terminals_; }

private:
  GraphWriter& writer_;
  ElementType type_;
  int maxChannels_;
  std::int64_t maxElements_;
  bool cpuOperators_;
  std::vector<Value> values_;
  std::vector<bool> read_;
  std::vector<Value> terminals_;
};

/// One kind of operator (or small block) a random network draws. `emit` writes it reading `operand`
/// (and possibly other values of the state) and returns what it made, or nullopt when it does not apply
/// to the operand (wrong rank, too small, too large); it then writes nothing.
struct LayerKind {
  std::string_view name;
  int weight;   ///< relative frequency
  bool cpuOnly; ///< Vela places it on the CPU (left out when CPU operators are disabled)
  std::function<std::optional<std::vector<Value>>(NetworkState&, const Value&)> emit;
};

/// Every kind, in a stable order.
[[nodiscard]] const std::vector<LayerKind>& layerKinds();

// The kinds' emitters, by family (random_compute_layers.cpp, random_data_layers.cpp).
std::optional<std::vector<Value>> emitConvolution(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitDepthwise(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitTransposeConvolution(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitFullyConnected(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitPool(NetworkState& state, const Value& x, bool average);
std::optional<std::vector<Value>> emitBinary(NetworkState& state, const Value& x, tflite::BuiltinOperator code);
std::optional<std::vector<Value>> emitUnary(NetworkState& state, const Value& x, tflite::BuiltinOperator code);
std::optional<std::vector<Value>> emitSoftmax(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitMean(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitSqueezeExcite(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitArgMax(NetworkState& state, const Value& x);

std::optional<std::vector<Value>> emitConcatenation(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitSplit(NetworkState& state, const Value& x, bool sizes);
std::optional<std::vector<Value>> emitStridedSlice(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitSlice(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitPad(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitResize(NetworkState& state, const Value& x, bool bilinear);
std::optional<std::vector<Value>> emitReshape(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitTranspose(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitSpaceDepth(NetworkState& state, const Value& x, bool toDepth);
std::optional<std::vector<Value>> emitDynamicReshape(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitUnpackPack(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitSqueezeExpand(NetworkState& state, const Value& x);
std::optional<std::vector<Value>> emitPrelu(NetworkState& state, const Value& x);

// Helpers the families share.
/// `x` requantised to `quantisation` with a QUANTIZE operator (what the converter inserts where an
/// operator needs equal quantisation on its inputs); `x` itself when it already has it.
Value requantise(NetworkState& state, const Value& x, ValueQuantisation quantisation);
/// RESHAPE of `x` to `shape` with a constant shape tensor (and new_shape).
Value reshapeTo(NetworkState& state, const Value& x, std::vector<int> shape);
/// RESHAPE of `x` to `shape` through the side chain Keras writes for a dynamic batch: SHAPE, a
/// STRIDED_SLICE taking the batch, a PACK with the other dimensions, all on the CPU.
Value reshapeThroughShapeChain(NetworkState& state, const Value& x, std::vector<int> shape);
/// A 1x1 convolution of `x` to `channels` with an optional fused ReLU.
Value pointwiseConvolution(NetworkState& state, const Value& x, int channels, bool relu);
/// The quantisation a LOGISTIC or SOFTMAX output has (TFLite requires it), or TANH's.
ValueQuantisation fixedOutputQuantisation(ElementType type, bool tanh);

} // namespace npu::modelgen
