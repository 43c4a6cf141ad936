// SPDX-License-Identifier: Apache-2.0
// Random layers of the supported-operator tables that only change a feature map's rank or stack its
// slices (UNPACK and PACK, SQUEEZE and EXPAND_DIMS), and PRELU with a constant alpha.
#include "random_layers.hpp"

#include <algorithm>

namespace npu::modelgen {

namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;

constexpr int kMostSlices = 8; ///< UNPACK writes one output per slice; keep the count small

} // namespace

std::optional<std::vector<Value>> emitUnpackPack(NetworkState& state, const Value& x) {
  if (x.rank() != 4) {
    return std::nullopt;
  }
  Random& random = state.random();
  const auto fits = [&](int axis) {
    return x.shape[static_cast<std::size_t>(axis)] >= 2 && x.shape[static_cast<std::size_t>(axis)] <= kMostSlices;
  };
  int axis = static_cast<int>(random.integer(1, 2));
  if (!fits(axis)) {
    axis = 3 - axis; // the other of H and W
  }
  if (!fits(axis)) {
    return std::nullopt;
  }
  const int count = x.shape[static_cast<std::size_t>(axis)];
  GraphWriter& w = state.writer();
  const std::string name = w.name("unpack");
  std::vector<int> sliceShape = x.shape;
  sliceShape.erase(sliceShape.begin() + axis);
  std::vector<Value> slices;
  std::vector<std::int32_t> sliceTensors;
  for (int i = 0; i < count; ++i) {
    slices.push_back(w.value(name + "_" + std::to_string(i), sliceShape, x.type, x.quantisation));
    sliceTensors.push_back(slices.back().tensor);
  }
  w.addOperator(BuiltinOperator::UNPACK, {x.tensor}, sliceTensors, BuiltinOptions::UnpackOptions,
                tflite::CreateUnpackOptions(w.flatbuffers(), count, axis).Union());
  // The slices stacked again in reverse order (a flip along the axis); sometimes one slice also leaves.
  std::reverse(sliceTensors.begin(), sliceTensors.end());
  Value out = w.value(w.name("pack"), x.shape, x.type, x.quantisation);
  w.addOperator(BuiltinOperator::PACK, sliceTensors, {out.tensor}, BuiltinOptions::PackOptions,
                tflite::CreatePackOptions(w.flatbuffers(), count, axis).Union());
  std::vector<Value> made{out};
  if (random.integer(0, 3) == 0) {
    made.push_back(slices.front());
  }
  return made;
}

std::optional<std::vector<Value>> emitSqueezeExpand(NetworkState& state, const Value& x) {
  GraphWriter& w = state.writer();
  if (x.rank() == 2) { // [1, C] -> EXPAND_DIMS -> [1, 1, C] -> EXPAND_DIMS -> [1, 1, 1, C]
    Value middle = w.value(w.name("expand_dims"), {1, 1, x.channels()}, x.type, x.quantisation);
    w.addOperator(BuiltinOperator::EXPAND_DIMS, {x.tensor, w.integers(w.name("axis"), {}, std::vector{1})},
                  {middle.tensor}, BuiltinOptions::ExpandDimsOptions,
                  tflite::CreateExpandDimsOptions(w.flatbuffers()).Union());
    Value out = w.value(w.name("expand_dims"), {1, 1, 1, x.channels()}, x.type, x.quantisation);
    w.addOperator(BuiltinOperator::EXPAND_DIMS, {middle.tensor, w.integers(w.name("axis"), {}, std::vector{-2})},
                  {out.tensor}, BuiltinOptions::ExpandDimsOptions,
                  tflite::CreateExpandDimsOptions(w.flatbuffers()).Union());
    return std::vector<Value>{out};
  }
  if (x.rank() != 4 || (x.height() != 1 && x.width() != 1)) {
    return std::nullopt;
  }
  // Squeeze a unit axis (H or W), then put one back at either of them: [1, 1, W, C] may become [1, W, 1, C].
  const int squeezed = x.height() == 1 ? 1 : 2;
  std::vector<int> middleShape = x.shape;
  middleShape.erase(middleShape.begin() + squeezed);
  Value middle = w.value(w.name("squeeze"), middleShape, x.type, x.quantisation);
  const std::vector<std::int32_t> squeezeAxes{squeezed};
  w.addOperator(BuiltinOperator::SQUEEZE, {x.tensor}, {middle.tensor}, BuiltinOptions::SqueezeOptions,
                tflite::CreateSqueezeOptionsDirect(w.flatbuffers(), &squeezeAxes).Union());
  const int expanded = static_cast<int>(state.random().integer(1, 2));
  std::vector<int> outShape = middleShape;
  outShape.insert(outShape.begin() + expanded, 1);
  Value out = w.value(w.name("expand_dims"), outShape, x.type, x.quantisation);
  w.addOperator(BuiltinOperator::EXPAND_DIMS, {middle.tensor, w.integers(w.name("axis"), {}, std::vector{expanded})},
                {out.tensor}, BuiltinOptions::ExpandDimsOptions,
                tflite::CreateExpandDimsOptions(w.flatbuffers()).Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitPrelu(NetworkState& state, const Value& x) {
  if (x.rank() != 4) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("prelu");
  // Alpha per channel (as Keras writes it, [1, 1, C]) or one value broadcast over everything.
  const std::vector<int> alphaShape =
      state.random().integer(0, 2) == 0 ? std::vector<int>{1, 1, 1} : std::vector<int>{1, 1, x.channels()};
  const Value alpha = w.constantOperand(name + "_alpha", alphaShape, x.type);
  Value out = w.value(name, x.shape, x.type, w.randomQuantisation(x.type));
  w.addOperator(BuiltinOperator::PRELU, {x.tensor, alpha.tensor}, {out.tensor});
  return std::vector<Value>{out};
}

} // namespace npu::modelgen
