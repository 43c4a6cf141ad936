// SPDX-License-Identifier: Apache-2.0
// The random network: inputs, a sequence of drawn layers reading the values made so far, and the
// values nothing reads as outputs.
#include "model_generator/random_network.hpp"

#include "random_layers.hpp"

#include <algorithm>
#include <stdexcept>

namespace npu::modelgen {

namespace {

using tflite::BuiltinOperator;

constexpr int kMaxOperators = 500;
constexpr int kMaxInputs = 8;
constexpr int kMaxResolution = 1024;
constexpr int kMaxChannels = 1024;
/// Tries per drawn layer before giving the step up (a kind may not apply to the operand drawn).
constexpr int kAttempts = 8;

LayerKind unary(std::string_view name, int weight, BuiltinOperator code) {
  return {name, weight, false, [code](NetworkState& s, const Value& x) { return emitUnary(s, x, code); }};
}

LayerKind binary(std::string_view name, int weight, BuiltinOperator code) {
  return {name, weight, false, [code](NetworkState& s, const Value& x) { return emitBinary(s, x, code); }};
}

/// The operand of the next layer: mostly the newest value nothing has read yet (a chain with
/// branches), sometimes any value (a fork).
std::size_t pickOperand(NetworkState& state) {
  const auto& values = state.values();
  Random& random = state.random();
  if (random.integer(0, 4) != 0) {
    for (std::size_t i = values.size(); i-- > 0;) {
      if (!state.wasRead(i) && random.integer(0, 3) != 0) {
        return i;
      }
    }
  }
  return static_cast<std::size_t>(random.integer(0, static_cast<std::int64_t>(values.size()) - 1));
}

std::vector<const LayerKind*> enabledKinds(const RandomNetworkOptions& options) {
  std::vector<const LayerKind*> kinds;
  for (const LayerKind& kind : layerKinds()) {
    const bool named = options.kinds.empty() ||
                       std::find(options.kinds.begin(), options.kinds.end(), kind.name) != options.kinds.end();
    if (named && (options.cpuOperators || !kind.cpuOnly)) {
      kinds.push_back(&kind);
    }
  }
  return kinds;
}

const LayerKind& drawKind(Random& random, const std::vector<const LayerKind*>& kinds) {
  int total = 0;
  for (const LayerKind* kind : kinds) {
    total += kind->weight;
  }
  std::int64_t draw = random.integer(0, total - 1);
  for (const LayerKind* kind : kinds) {
    if (draw < kind->weight) {
      return *kind;
    }
    draw -= kind->weight;
  }
  return *kinds.back();
}

ElementType drawType(Random& random) {
  const std::int64_t draw = random.integer(0, 9);
  return draw < 6 ? ElementType::Int8 : draw < 8 ? ElementType::UInt8 : ElementType::Int16;
}

std::vector<int> drawInputShape(Random& random, const RandomNetworkOptions& options) {
  const int side = static_cast<int>(random.integer(1, options.maxResolution));
  // Square mostly; else an independent width (audio-like 1xN or Nx1 maps included).
  const std::int64_t form = random.integer(0, 9);
  const int width = form < 6 ? side : form < 8 ? static_cast<int>(random.integer(1, options.maxResolution)) : 1;
  return {1, side, width, static_cast<int>(random.integer(1, options.maxChannels))};
}

} // namespace

bool NetworkState::fits(const std::vector<int>& shape) const {
  std::int64_t elements = 1;
  for (const int dim : shape) {
    elements *= dim;
  }
  return elements <= maxElements_ && shape.back() <= std::max(8, 4 * maxChannels_);
}

void NetworkState::markRead(const Value& value) {
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (values_[i].tensor == value.tensor) {
      read_[i] = true;
    }
  }
}

std::optional<Value> NetworkState::partner(const Value& self, const std::function<bool(const Value&)>& accept) {
  std::optional<Value> anyMatch;
  for (std::size_t i = values_.size(); i-- > 0;) {
    if (values_[i].tensor == self.tensor || !accept(values_[i])) {
      continue;
    }
    if (!read_[i]) {
      return values_[i];
    }
    if (!anyMatch) {
      anyMatch = values_[i];
    }
  }
  return anyMatch;
}

std::vector<Value> NetworkState::unread() const {
  std::vector<Value> result;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (!read_[i]) {
      result.push_back(values_[i]);
    }
  }
  return result;
}

const std::vector<LayerKind>& layerKinds() {
  using B = BuiltinOperator;
  static const std::vector<LayerKind> kinds{
      {"conv", 14, false, emitConvolution},
      {"depthwise", 8, false, emitDepthwise},
      {"transpose-conv", 2, false, emitTransposeConvolution},
      {"fully-connected", 3, false, emitFullyConnected},
      {"avgpool", 3, false, [](NetworkState& s, const Value& x) { return emitPool(s, x, true); }},
      {"maxpool", 3, false, [](NetworkState& s, const Value& x) { return emitPool(s, x, false); }},
      binary("add", 8, B::ADD),
      binary("sub", 2, B::SUB),
      binary("mul", 3, B::MUL),
      binary("minimum", 1, B::MINIMUM),
      binary("maximum", 1, B::MAXIMUM),
      binary("squared-difference", 1, B::SQUARED_DIFFERENCE),
      unary("relu", 2, B::RELU),
      unary("relu6", 2, B::RELU6),
      unary("relu-n1-to-1", 1, B::RELU_N1_TO_1),
      unary("leaky-relu", 2, B::LEAKY_RELU),
      unary("tanh", 1, B::TANH),
      unary("logistic", 2, B::LOGISTIC),
      unary("hard-swish", 2, B::HARD_SWISH),
      unary("abs", 1, B::ABS),
      unary("exp", 1, B::EXP),
      unary("rsqrt", 1, B::RSQRT),
      {"prelu", 1, false, emitPrelu},
      {"quantize", 1, false,
       [](NetworkState& s, const Value& x) {
         return std::optional{std::vector<Value>{requantise(s, x, s.writer().randomQuantisation(x.type))}};
       }},
      {"softmax", 2, false, emitSoftmax},
      {"mean", 3, false, emitMean},
      {"squeeze-excite", 3, false, emitSqueezeExcite},
      {"concat", 5, false, emitConcatenation},
      {"split", 2, false, [](NetworkState& s, const Value& x) { return emitSplit(s, x, false); }},
      {"split-v", 1, false, [](NetworkState& s, const Value& x) { return emitSplit(s, x, true); }},
      {"strided-slice", 2, false, emitStridedSlice},
      {"slice", 1, false, emitSlice},
      {"pad", 3, false, emitPad},
      {"resize-bilinear", 2, false, [](NetworkState& s, const Value& x) { return emitResize(s, x, true); }},
      {"resize-nearest", 1, false, [](NetworkState& s, const Value& x) { return emitResize(s, x, false); }},
      {"reshape", 2, false, emitReshape},
      {"transpose", 1, false, emitTranspose},
      {"arg-max", 1, false, emitArgMax},
      {"unpack-pack", 1, false, emitUnpackPack},
      {"squeeze-expand", 1, false, emitSqueezeExpand},
      {"space-to-depth", 1, true, [](NetworkState& s, const Value& x) { return emitSpaceDepth(s, x, true); }},
      {"depth-to-space", 1, true, [](NetworkState& s, const Value& x) { return emitSpaceDepth(s, x, false); }},
      {"dynamic-reshape", 2, true, emitDynamicReshape},
  };
  return kinds;
}

std::string_view nameOf(ElementType type) {
  switch (type) {
  case ElementType::UInt8:
    return "uint8";
  case ElementType::Int16:
    return "int16";
  case ElementType::Int8:
    break;
  }
  return "int8";
}

std::optional<ElementType> elementTypeFromName(std::string_view name) {
  for (const ElementType type : {ElementType::Int8, ElementType::UInt8, ElementType::Int16}) {
    if (nameOf(type) == name) {
      return type;
    }
  }
  return std::nullopt;
}

std::vector<std::string_view> randomOperatorKinds() {
  std::vector<std::string_view> names;
  for (const LayerKind& kind : layerKinds()) {
    names.push_back(kind.name);
  }
  return names;
}

std::optional<std::string> validate(const RandomNetworkOptions& options) {
  if (options.operators < 1 || options.operators > kMaxOperators) {
    return "operators must be between 1 and " + std::to_string(kMaxOperators);
  }
  if (options.maxInputs < 1 || options.maxInputs > kMaxInputs) {
    return "inputs must be between 1 and " + std::to_string(kMaxInputs);
  }
  if (options.maxResolution < 1 || options.maxResolution > kMaxResolution) {
    return "resolution must be between 1 and " + std::to_string(kMaxResolution);
  }
  if (options.maxChannels < 1 || options.maxChannels > kMaxChannels) {
    return "channels must be between 1 and " + std::to_string(kMaxChannels);
  }
  const auto known = randomOperatorKinds();
  for (const std::string& kind : options.kinds) {
    if (std::find(known.begin(), known.end(), kind) == known.end()) {
      return "unknown operator kind '" + kind + "'";
    }
  }
  if (enabledKinds(options).empty()) {
    return "no operator kind is left (the kinds named are all CPU-only and CPU operators are off)";
  }
  return std::nullopt;
}

GeneratedModel generateRandomNetwork(const RandomNetworkOptions& options) {
  if (const auto problem = validate(options)) {
    throw std::invalid_argument(*problem);
  }
  GraphWriter writer(options.seed);
  Random& random = writer.random();
  const ElementType type = options.type.value_or(drawType(random));
  const std::int64_t maxElements = std::max<std::int64_t>(
      std::int64_t{4} * options.maxResolution * options.maxResolution * options.maxChannels, 4096);
  NetworkState state(writer, type, options.maxChannels, maxElements, options.cpuOperators);
  const auto inputCount = static_cast<int>(random.integer(1, options.maxInputs));
  for (int i = 0; i < inputCount; ++i) {
    state.add(writer.input(drawInputShape(random, options), type));
  }
  const std::vector<const LayerKind*> kinds = enabledKinds(options);
  for (int step = 0; step < options.operators; ++step) {
    // Every input is read first, so none is left unused.
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      const std::size_t index = step < inputCount ? static_cast<std::size_t>(step) : pickOperand(state);
      const Value operand = state.values()[index];
      const LayerKind& kind = drawKind(random, kinds);
      std::optional<std::vector<Value>> made = kind.emit(state, operand);
      if (!made && step < inputCount && attempt + 1 == kAttempts) { // an input is never left unread
        made = emitUnary(state, operand, BuiltinOperator::RELU);
      }
      if (made) {
        state.markRead(operand);
        for (Value& value : *made) {
          state.add(std::move(value));
        }
        break;
      }
    }
  }
  std::vector<Value> outputs = state.unread();
  outputs.insert(outputs.end(), state.terminals().begin(), state.terminals().end());
  if (outputs.empty()) {
    outputs.push_back(state.values().back());
  }
  GeneratedModel model = writer.finish(outputs, describe(options));
  model.summary.blocks = options.operators;
  return model;
}

std::string describe(const RandomNetworkOptions& options) {
  std::string text =
      "npu-model-gen random seed=" + std::to_string(options.seed) + " operators=" + std::to_string(options.operators) +
      " type=" + std::string(options.type ? nameOf(*options.type) : "drawn") +
      " inputs=" + std::to_string(options.maxInputs) + " resolution=" + std::to_string(options.maxResolution) +
      " channels=" + std::to_string(options.maxChannels) + " cpu=" + (options.cpuOperators ? "yes" : "no");
  if (!options.kinds.empty()) {
    text += " kinds=";
    for (std::size_t i = 0; i < options.kinds.size(); ++i) {
      text += (i == 0 ? "" : ",") + options.kinds[i];
    }
  }
  return text;
}

} // namespace npu::modelgen
