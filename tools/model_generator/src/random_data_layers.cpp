// SPDX-License-Identifier: Apache-2.0
// Random layers that move data: concatenation, splits, slices, padding, resizing, reshapes,
// transposes, and the CPU-only operators and shape side chains a converter leaves in a network.
#include "random_layers.hpp"

#include <algorithm>
#include <numeric>

namespace npu::modelgen {

namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;

bool isFeatureMap(const Value& x) {
  return x.rank() == 4;
}

/// The quantisation every input of a CONCATENATION needs: TFLite's int8 and int16 kernels copy without
/// rescaling, so the converter requantises the inputs to the output's; uint8 rescales itself.
bool concatenationRescales(ElementType type) {
  return type == ElementType::UInt8;
}

std::int32_t scalarAxis(GraphWriter& w, const std::string& name, int axis) {
  const std::vector<std::int32_t> value{axis};
  return w.integers(name, {}, value);
}

} // namespace

Value requantise(NetworkState& state, const Value& x, ValueQuantisation quantisation) {
  if (x.quantisation == quantisation) {
    return x;
  }
  GraphWriter& w = state.writer();
  Value out = w.value(w.name("requantised"), x.shape, x.type, quantisation);
  w.addOperator(BuiltinOperator::QUANTIZE, {x.tensor}, {out.tensor});
  return out;
}

Value reshapeTo(NetworkState& state, const Value& x, std::vector<int> shape) {
  GraphWriter& w = state.writer();
  const std::string name = w.name("reshape");
  const std::vector<std::int32_t> values(shape.begin(), shape.end());
  const std::int32_t shapeTensor = w.integers(name + "_shape", {static_cast<int>(shape.size())}, values);
  Value out = w.value(name, shape, x.type, x.quantisation);
  w.addOperator(BuiltinOperator::RESHAPE, {x.tensor, shapeTensor}, {out.tensor}, BuiltinOptions::ReshapeOptions,
                tflite::CreateReshapeOptions(w.flatbuffers(), w.flatbuffers().CreateVector(values)).Union());
  return out;
}

Value reshapeThroughShapeChain(NetworkState& state, const Value& x, std::vector<int> shape) {
  GraphWriter& w = state.writer();
  const std::string name = w.name("dynamic_reshape");
  Value dims = w.int32Value(name + "_shape_of_input", {x.rank()});
  w.addOperator(BuiltinOperator::SHAPE, {x.tensor}, {dims.tensor}, BuiltinOptions::ShapeOptions,
                tflite::CreateShapeOptions(w.flatbuffers(), tflite::TensorType::INT32).Union());
  const std::vector<std::int32_t> begin{0};
  const std::vector<std::int32_t> end{1};
  const std::vector<std::int32_t> strides{1};
  const std::int32_t beginTensor = w.integers(name + "_begin", {1}, begin);
  const std::int32_t endTensor = w.integers(name + "_end", {1}, end);
  const std::int32_t stridesTensor = w.integers(name + "_strides", {1}, strides);
  Value batch = w.int32Value(name + "_batch", {});
  w.addOperator(BuiltinOperator::STRIDED_SLICE, {dims.tensor, beginTensor, endTensor, stridesTensor}, {batch.tensor},
                BuiltinOptions::StridedSliceOptions,
                tflite::CreateStridedSliceOptions(w.flatbuffers(), 0, 0, 0, 0, 1).Union());
  std::vector<std::int32_t> packed{batch.tensor};
  for (std::size_t i = 1; i < shape.size(); ++i) {
    const std::vector<std::int32_t> dim{shape[i]};
    packed.push_back(w.integers(name + "_dim" + std::to_string(i), {}, dim));
  }
  Value newShape = w.int32Value(name + "_new_shape", {static_cast<int>(shape.size())});
  w.addOperator(BuiltinOperator::PACK, packed, {newShape.tensor}, BuiltinOptions::PackOptions,
                tflite::CreatePackOptions(w.flatbuffers(), static_cast<int>(packed.size()), 0).Union());
  Value out = w.value(name, std::move(shape), x.type, x.quantisation);
  w.addOperator(BuiltinOperator::RESHAPE, {x.tensor, newShape.tensor}, {out.tensor});
  return out;
}

std::optional<std::vector<Value>> emitConcatenation(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  GraphWriter& w = state.writer();
  const std::int64_t axisDraw = random.integer(0, 9);
  const int axis = axisDraw < 7 ? 3 : axisDraw < 9 ? 1 : 2;
  const auto compatible = [&](const Value& v) {
    if (v.rank() != 4 || v.type != x.type) {
      return false;
    }
    for (int d = 0; d < 4; ++d) {
      if (d != axis && v.shape[static_cast<std::size_t>(d)] != x.shape[static_cast<std::size_t>(d)]) {
        return false;
      }
    }
    return true;
  };
  std::vector<Value> parts{x};
  const int count = random.integer(0, 3) == 0 ? 3 : 2;
  while (static_cast<int>(parts.size()) < count) {
    std::optional<Value> other = state.partner(parts.back(), compatible);
    if (other && std::none_of(parts.begin(), parts.end(), [&](const Value& p) { return p.tensor == other->tensor; })) {
      state.markRead(*other);
      parts.push_back(*other);
    } else { // a branch of its own: a 1x1 convolution of the input
      parts.push_back(pointwiseConvolution(state, x, axis == 3 ? std::max(1, x.channels() / 2) : x.channels(), false));
    }
  }
  std::vector<int> shape = x.shape;
  shape[static_cast<std::size_t>(axis)] = 0;
  for (const Value& part : parts) {
    shape[static_cast<std::size_t>(axis)] += part.shape[static_cast<std::size_t>(axis)];
  }
  if (!state.fits(shape)) {
    return std::nullopt;
  }
  const ValueQuantisation quantisation = concatenationRescales(x.type) ? w.randomQuantisation(x.type) : x.quantisation;
  std::vector<std::int32_t> inputs;
  for (const Value& part : parts) {
    inputs.push_back(concatenationRescales(x.type) ? part.tensor : requantise(state, part, quantisation).tensor);
  }
  Value out = w.value(w.name("concatenation"), shape, x.type, quantisation);
  const int written = axis == 3 && random.integer(0, 3) == 0 ? -1 : axis; // the converter writes -1 too
  w.addOperator(BuiltinOperator::CONCATENATION, inputs, {out.tensor}, BuiltinOptions::ConcatenationOptions,
                tflite::CreateConcatenationOptions(w.flatbuffers(), written).Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitSplit(NetworkState& state, const Value& x, bool sizes) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  const int axis = random.integer(0, 3) == 0 ? static_cast<int>(random.integer(1, 2)) : 3;
  const int extent = x.shape[static_cast<std::size_t>(axis)];
  std::vector<int> parts;
  if (sizes) {
    if (extent < 2) {
      return std::nullopt;
    }
    const int first = static_cast<int>(random.integer(1, extent - 1));
    parts = {first, extent - first};
  } else {
    for (const int count : {2, 3, 4}) {
      if (extent % count == 0 && (parts.empty() || random.integer(0, 1) == 0)) {
        parts.assign(static_cast<std::size_t>(count), extent / count);
      }
    }
    if (parts.empty()) {
      return std::nullopt;
    }
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name(sizes ? "split_v" : "split");
  std::vector<Value> outputs;
  std::vector<std::int32_t> outputTensors;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::vector<int> shape = x.shape;
    shape[static_cast<std::size_t>(axis)] = parts[i];
    outputs.push_back(w.value(name + "_" + std::to_string(i), shape, x.type, x.quantisation));
    outputTensors.push_back(outputs.back().tensor);
  }
  const auto count = static_cast<int>(parts.size());
  if (sizes) {
    const std::vector<std::int32_t> sizeValues(parts.begin(), parts.end());
    const std::int32_t sizeTensor = w.integers(name + "_sizes", {count}, sizeValues);
    w.addOperator(BuiltinOperator::SPLIT_V, {x.tensor, sizeTensor, scalarAxis(w, name + "_axis", axis)}, outputTensors,
                  BuiltinOptions::SplitVOptions, tflite::CreateSplitVOptions(w.flatbuffers(), count).Union());
  } else {
    w.addOperator(BuiltinOperator::SPLIT, {scalarAxis(w, name + "_axis", axis), x.tensor}, outputTensors,
                  BuiltinOptions::SplitOptions, tflite::CreateSplitOptions(w.flatbuffers(), count).Union());
  }
  return outputs;
}

namespace {

/// A sub-box of `x`: begin and size along one axis (H, W or C), the rest whole; nullopt when too small.
std::optional<std::pair<std::vector<std::int32_t>, std::vector<int>>> randomBox(Random& random, const Value& x) {
  const int axis = static_cast<int>(random.integer(1, 3));
  const int extent = x.shape[static_cast<std::size_t>(axis)];
  if (extent < 2) {
    return std::nullopt;
  }
  const int size = static_cast<int>(random.integer(1, extent - 1));
  const int begin = static_cast<int>(random.integer(0, extent - size));
  std::vector<std::int32_t> begins(4, 0);
  begins[static_cast<std::size_t>(axis)] = begin;
  std::vector<int> shape = x.shape;
  shape[static_cast<std::size_t>(axis)] = size;
  return std::pair{begins, shape};
}

} // namespace

std::optional<std::vector<Value>> emitStridedSlice(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  const auto box = randomBox(state.random(), x);
  if (!box) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("strided_slice");
  const auto& [begins, shape] = *box;
  std::vector<std::int32_t> ends(4);
  for (std::size_t d = 0; d < 4; ++d) {
    ends[d] = begins[d] + shape[d];
  }
  const std::vector<std::int32_t> strides(4, 1);
  const std::int32_t beginTensor = w.integers(name + "_begin", {4}, begins);
  const std::int32_t endTensor = w.integers(name + "_end", {4}, ends);
  const std::int32_t strideTensor = w.integers(name + "_strides", {4}, strides);
  Value out = w.value(name, shape, x.type, x.quantisation);
  w.addOperator(BuiltinOperator::STRIDED_SLICE, {x.tensor, beginTensor, endTensor, strideTensor}, {out.tensor},
                BuiltinOptions::StridedSliceOptions, tflite::CreateStridedSliceOptions(w.flatbuffers()).Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitSlice(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  const auto box = randomBox(state.random(), x);
  if (!box) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("slice");
  const auto& [begins, shape] = *box;
  const std::vector<std::int32_t> sizes(shape.begin(), shape.end());
  const std::int32_t beginTensor = w.integers(name + "_begin", {4}, begins);
  const std::int32_t sizeTensor = w.integers(name + "_size", {4}, sizes);
  Value out = w.value(name, shape, x.type, x.quantisation);
  w.addOperator(BuiltinOperator::SLICE, {x.tensor, beginTensor, sizeTensor}, {out.tensor}, BuiltinOptions::SliceOptions,
                tflite::CreateSliceOptions(w.flatbuffers()).Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitPad(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  std::vector<std::int32_t> paddings(8, 0);
  for (std::size_t d = 1; d < 3; ++d) {
    paddings[2 * d] = static_cast<std::int32_t>(random.integer(0, 2));
    paddings[2 * d + 1] = static_cast<std::int32_t>(random.integer(0, 2));
  }
  if (random.integer(0, 9) == 0) { // channel padding: Vela leaves it to the CPU
    paddings[7] = static_cast<std::int32_t>(random.integer(1, 4));
  }
  std::vector<int> shape = x.shape;
  for (std::size_t d = 0; d < 4; ++d) {
    shape[d] += paddings[2 * d] + paddings[2 * d + 1];
  }
  if (!state.fits(shape)) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("pad");
  const std::int32_t paddingTensor = w.integers(name + "_paddings", {4, 2}, paddings);
  Value out = w.value(name, shape, x.type, x.quantisation);
  w.addOperator(BuiltinOperator::PAD, {x.tensor, paddingTensor}, {out.tensor}, BuiltinOptions::PadOptions,
                tflite::CreatePadOptions(w.flatbuffers()).Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitResize(NetworkState& state, const Value& x, bool bilinear) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  // Upscaling by 2 mostly (what Vela runs), sometimes by 4 or to the same size.
  const std::int64_t draw = random.integer(0, 9);
  const int factor = draw < 7 ? 2 : draw < 9 ? 4 : 1;
  const std::vector<int> shape{1, x.height() * factor, x.width() * factor, x.channels()};
  if (!state.fits(shape)) {
    return std::nullopt;
  }
  const std::int64_t mode = random.integer(0, 2); // 0 neither, 1 align corners, 2 half pixel centres
  GraphWriter& w = state.writer();
  const std::string name = w.name(bilinear ? "resize_bilinear" : "resize_nearest");
  const std::vector<std::int32_t> size{shape[1], shape[2]};
  const std::int32_t sizeTensor = w.integers(name + "_size", {2}, size);
  Value out = w.value(name, shape, x.type, x.quantisation);
  if (bilinear) {
    w.addOperator(BuiltinOperator::RESIZE_BILINEAR, {x.tensor, sizeTensor}, {out.tensor},
                  BuiltinOptions::ResizeBilinearOptions,
                  tflite::CreateResizeBilinearOptions(w.flatbuffers(), mode == 1, mode == 2).Union());
  } else {
    w.addOperator(BuiltinOperator::RESIZE_NEAREST_NEIGHBOR, {x.tensor, sizeTensor}, {out.tensor},
                  BuiltinOptions::ResizeNearestNeighborOptions,
                  tflite::CreateResizeNearestNeighborOptions(w.flatbuffers(), mode == 1, mode == 2).Union());
  }
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitReshape(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return x.rank() == 2 ? std::optional{std::vector<Value>{reshapeTo(state, x, {1, 1, 1, x.channels()})}}
                         : std::nullopt;
  }
  const int area = x.height() * x.width();
  const std::int64_t form = state.random().integer(0, 2);
  const std::vector<int> shape = form == 0   ? std::vector<int>{1, area, 1, x.channels()}
                                 : form == 1 ? std::vector<int>{1, 1, area, x.channels()}
                                             : std::vector<int>{1, x.width(), x.height(), x.channels()};
  return std::vector<Value>{reshapeTo(state, x, shape)};
}

std::optional<std::vector<Value>> emitTranspose(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  const std::vector<std::int32_t> permutation =
      state.random().integer(0, 2) == 0 ? std::vector<std::int32_t>{0, 2, 1, 3} : std::vector<std::int32_t>{0, 1, 3, 2};
  std::vector<int> shape(4);
  for (std::size_t d = 0; d < 4; ++d) {
    shape[d] = x.shape[static_cast<std::size_t>(permutation[d])];
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("transpose");
  const std::int32_t permutationTensor = w.integers(name + "_perm", {4}, permutation);
  Value out = w.value(name, shape, x.type, x.quantisation);
  w.addOperator(BuiltinOperator::TRANSPOSE, {x.tensor, permutationTensor}, {out.tensor},
                BuiltinOptions::TransposeOptions, tflite::CreateTransposeOptions(w.flatbuffers()).Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitSpaceDepth(NetworkState& state, const Value& x, bool toDepth) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  constexpr int kBlock = 2;
  const bool fits =
      toDepth ? x.height() % kBlock == 0 && x.width() % kBlock == 0 : x.channels() % (kBlock * kBlock) == 0;
  if (!fits) {
    return std::nullopt;
  }
  const std::vector<int> shape =
      toDepth ? std::vector<int>{1, x.height() / kBlock, x.width() / kBlock, x.channels() * kBlock * kBlock}
              : std::vector<int>{1, x.height() * kBlock, x.width() * kBlock, x.channels() / (kBlock * kBlock)};
  GraphWriter& w = state.writer();
  Value out = w.value(w.name(toDepth ? "space_to_depth" : "depth_to_space"), shape, x.type, x.quantisation);
  if (toDepth) {
    w.addOperator(BuiltinOperator::SPACE_TO_DEPTH, {x.tensor}, {out.tensor}, BuiltinOptions::SpaceToDepthOptions,
                  tflite::CreateSpaceToDepthOptions(w.flatbuffers(), kBlock).Union());
  } else {
    w.addOperator(BuiltinOperator::DEPTH_TO_SPACE, {x.tensor}, {out.tensor}, BuiltinOptions::DepthToSpaceOptions,
                  tflite::CreateDepthToSpaceOptions(w.flatbuffers(), kBlock).Union());
  }
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitDynamicReshape(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  return std::vector<Value>{reshapeThroughShapeChain(state, x, {1, x.height() * x.width(), 1, x.channels()})};
}

} // namespace npu::modelgen
