// SPDX-License-Identifier: Apache-2.0
// Random layers that compute: convolutions, pooling, elementwise operators, activations, reductions.
#include "random_layers.hpp"

#include <algorithm>

namespace npu::modelgen {

namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;

struct Window {
  int kernelHeight = 1;
  int kernelWidth = 1;
  int stride = 1;
  int dilation = 1;
  bool same = true;
  int outHeight = 0;
  int outWidth = 0;
};

/// A kernel from `sizes`, strides 1-3 (mostly 1), dilation 2 now and then, SAME or VALID; nullopt when
/// it does not fit the input.
std::optional<Window> randomWindow(Random& random, const Value& x, std::initializer_list<int> sizes, bool dilations) {
  const std::vector<int> choices(sizes);
  Window window;
  window.kernelHeight = choices[static_cast<std::size_t>(random.integer(0, static_cast<int>(choices.size()) - 1))];
  window.kernelWidth = random.integer(0, 3) == 0
                           ? choices[static_cast<std::size_t>(random.integer(0, static_cast<int>(choices.size()) - 1))]
                           : window.kernelHeight;
  const std::int64_t strideDraw = random.integer(0, 19);
  window.stride = strideDraw < 12 ? 1 : strideDraw < 19 ? 2 : 3;
  window.dilation = dilations && window.stride == 1 && random.integer(0, 5) == 0 ? 2 : 1;
  window.same = random.integer(0, 9) < 7;
  window.outHeight = windowOutputSize(x.height(), window.kernelHeight, window.stride, window.dilation, window.same);
  window.outWidth = windowOutputSize(x.width(), window.kernelWidth, window.stride, window.dilation, window.same);
  if (window.outHeight < 1 || window.outWidth < 1) {
    return std::nullopt;
  }
  return window;
}

tflite::Padding paddingOf(const Window& window) {
  return window.same ? tflite::Padding::SAME : tflite::Padding::VALID;
}

/// The fused activations quantised TFLite kernels accept.
tflite::ActivationFunctionType randomFusedActivation(Random& random) {
  switch (random.integer(0, 9)) {
  case 0:
  case 1:
  case 2:
    return tflite::ActivationFunctionType::RELU;
  case 3:
  case 4:
    return tflite::ActivationFunctionType::RELU6;
  case 5:
    return tflite::ActivationFunctionType::RELU_N1_TO_1;
  default:
    return tflite::ActivationFunctionType::NONE;
  }
}

int randomChannels(NetworkState& state, int around) {
  const int most = std::max(8, 4 * state.maxChannels());
  const int low = std::max(1, around / 2);
  const int high = std::clamp(around * 2, low, most);
  return static_cast<int>(state.random().integer(low, high));
}

std::vector<float> repeated(const std::vector<float>& scales, int count) {
  return scales.size() == 1 ? std::vector<float>(static_cast<std::size_t>(count), scales.front()) : scales;
}

bool isFeatureMap(const Value& x) {
  return x.rank() == 4;
}

} // namespace

ValueQuantisation fixedOutputQuantisation(ElementType type, bool tanh) {
  switch (type) {
  case ElementType::Int16:
    return {1.0F / 32768.0F, 0};
  case ElementType::UInt8:
    return tanh ? ValueQuantisation{1.0F / 128.0F, 128} : ValueQuantisation{1.0F / 256.0F, 0};
  case ElementType::Int8:
    break;
  }
  return tanh ? ValueQuantisation{1.0F / 128.0F, 0} : ValueQuantisation{1.0F / 256.0F, -128};
}

Value pointwiseConvolution(NetworkState& state, const Value& x, int channels, bool relu) {
  GraphWriter& w = state.writer();
  const std::string name = w.name("pointwise");
  const WeightTensor weights = w.weights(name + "_weights", {channels, 1, 1, x.channels()}, 0, true, x.type);
  const std::int32_t bias = w.bias(name + "_bias", x.quantisation.scale, repeated(weights.scales, channels), x.type);
  Value out = w.value(name, {1, x.height(), x.width(), channels}, x.type, w.randomQuantisation(x.type));
  const auto activation = relu ? tflite::ActivationFunctionType::RELU : tflite::ActivationFunctionType::NONE;
  w.countMacs(std::int64_t{x.height()} * x.width() * channels * x.channels());
  w.addOperator(BuiltinOperator::CONV_2D, {x.tensor, weights.tensor, bias}, {out.tensor}, BuiltinOptions::Conv2DOptions,
                tflite::CreateConv2DOptions(w.flatbuffers(), tflite::Padding::SAME, 1, 1, activation).Union());
  return out;
}

std::optional<std::vector<Value>> emitConvolution(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  const auto window = randomWindow(random, x, {1, 1, 3, 3, 3, 5, 2, 7}, true);
  if (!window) {
    return std::nullopt;
  }
  const int channels = randomChannels(state, x.channels());
  const std::vector<int> outShape{1, window->outHeight, window->outWidth, channels};
  if (!state.fits(outShape)) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("conv");
  const std::vector<int> weightShape{channels, window->kernelHeight, window->kernelWidth, x.channels()};
  // Now and then a layer reads the weights of an earlier one of the same shape (shared by identity).
  WeightTensor weights;
  if (const WeightTensor* known = w.knownWeights(weightShape); known != nullptr && random.integer(0, 2) == 0) {
    weights = *known;
  } else {
    weights = w.weights(name + "_weights", weightShape, 0, random.integer(0, 9) < 8, x.type);
    w.rememberWeights(weightShape, weights);
  }
  const std::int32_t bias = w.bias(name + "_bias", x.quantisation.scale, repeated(weights.scales, channels), x.type);
  Value out = w.value(name, outShape, x.type, w.randomQuantisation(x.type));
  w.countMacs(std::int64_t{window->outHeight} * window->outWidth * channels * window->kernelHeight *
              window->kernelWidth * x.channels());
  w.addOperator(BuiltinOperator::CONV_2D, {x.tensor, weights.tensor, bias}, {out.tensor}, BuiltinOptions::Conv2DOptions,
                tflite::CreateConv2DOptions(w.flatbuffers(), paddingOf(*window), window->stride, window->stride,
                                            randomFusedActivation(random), window->dilation, window->dilation)
                    .Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitDepthwise(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  const auto window = randomWindow(random, x, {3, 3, 3, 5, 2, 1}, true);
  if (!window) {
    return std::nullopt;
  }
  // Depth multipliers above 1 as Vela runs them (one input channel), and rarely otherwise (CPU).
  int multiplier = 1;
  if (x.channels() == 1 || random.integer(0, 24) == 0) {
    multiplier = static_cast<int>(random.integer(1, 4));
  }
  const int channels = x.channels() * multiplier;
  const std::vector<int> outShape{1, window->outHeight, window->outWidth, channels};
  if (!state.fits(outShape)) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("depthwise");
  const WeightTensor weights = w.weights(name + "_weights", {1, window->kernelHeight, window->kernelWidth, channels}, 3,
                                         random.integer(0, 9) < 8, x.type);
  const std::int32_t bias = w.bias(name + "_bias", x.quantisation.scale, repeated(weights.scales, channels), x.type);
  Value out = w.value(name, outShape, x.type, w.randomQuantisation(x.type));
  w.countMacs(std::int64_t{window->outHeight} * window->outWidth * channels * window->kernelHeight *
              window->kernelWidth);
  w.addOperator(BuiltinOperator::DEPTHWISE_CONV_2D, {x.tensor, weights.tensor, bias}, {out.tensor},
                BuiltinOptions::DepthwiseConv2DOptions,
                tflite::CreateDepthwiseConv2DOptions(w.flatbuffers(), paddingOf(*window), window->stride,
                                                     window->stride, multiplier, randomFusedActivation(random),
                                                     window->dilation, window->dilation)
                    .Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitTransposeConvolution(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  // Vela runs stride 2 with OFM = IFM x 2 (SAME) or IFM x 2 + kernel - 2 (VALID).
  const int kernel = static_cast<int>(random.integer(2, 4));
  const bool same = random.integer(0, 2) != 0;
  const int outHeight = same ? x.height() * 2 : (x.height() - 1) * 2 + kernel;
  const int outWidth = same ? x.width() * 2 : (x.width() - 1) * 2 + kernel;
  const int channels = randomChannels(state, x.channels());
  const std::vector<int> outShape{1, outHeight, outWidth, channels};
  if (!state.fits(outShape)) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("transpose_conv");
  const std::vector<std::int32_t> shapeValues{1, outHeight, outWidth, channels};
  const std::int32_t outputShape = w.integers(name + "_output_shape", {4}, shapeValues);
  const WeightTensor weights =
      w.weights(name + "_weights", {channels, kernel, kernel, x.channels()}, 0, random.integer(0, 9) < 8, x.type);
  std::vector<std::int32_t> inputs{outputShape, weights.tensor, x.tensor};
  if (random.integer(0, 3) != 0) {
    inputs.push_back(w.bias(name + "_bias", x.quantisation.scale, repeated(weights.scales, channels), x.type));
  }
  Value out = w.value(name, outShape, x.type, w.randomQuantisation(x.type));
  w.countMacs(std::int64_t{x.height()} * x.width() * channels * kernel * kernel * x.channels());
  w.addOperator(
      BuiltinOperator::TRANSPOSE_CONV, std::move(inputs), {out.tensor}, BuiltinOptions::TransposeConvOptions,
      tflite::CreateTransposeConvOptions(w.flatbuffers(), same ? tflite::Padding::SAME : tflite::Padding::VALID, 2, 2)
          .Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitFullyConnected(NetworkState& state, const Value& x) {
  constexpr std::int64_t kMostInputs = 4096;
  if (x.elements() > kMostInputs || (x.rank() != 4 && x.rank() != 2)) {
    return std::nullopt;
  }
  Random& random = state.random();
  GraphWriter& w = state.writer();
  // The converter flattens with a RESHAPE, or leaves it to the operator (keep_num_dims false).
  Value input = x;
  if (x.rank() == 4 && random.integer(0, 1) == 0) {
    input = reshapeTo(state, x, {1, static_cast<int>(x.elements())});
  }
  const auto inputs = static_cast<int>(x.elements());
  const int outputs = static_cast<int>(random.integer(1, std::max(8, 4 * state.maxChannels())));
  const std::string name = w.name("fully_connected");
  // Per-tensor weights mostly (per channel, Vela runs them on the CPU).
  const WeightTensor weights = w.weights(name + "_weights", {outputs, inputs}, 0, random.integer(0, 9) == 0, x.type);
  std::vector<std::int32_t> operands{input.tensor, weights.tensor};
  if (random.integer(0, 4) != 0) {
    operands.push_back(w.bias(name + "_bias", x.quantisation.scale, repeated(weights.scales, outputs), x.type));
  }
  Value out = w.value(name, {1, outputs}, x.type, w.randomQuantisation(x.type));
  w.countMacs(std::int64_t{inputs} * outputs);
  w.addOperator(BuiltinOperator::FULLY_CONNECTED, std::move(operands), {out.tensor},
                BuiltinOptions::FullyConnectedOptions,
                tflite::CreateFullyConnectedOptions(w.flatbuffers(), randomFusedActivation(random)).Union());
  if (random.integer(0, 1) == 0) {
    return std::vector<Value>{reshapeTo(state, out, {1, 1, 1, outputs})};
  }
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitPool(NetworkState& state, const Value& x, bool average) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  std::optional<Window> window;
  if (average && random.integer(0, 3) == 0) { // global average pooling
    window = Window{x.height(), x.width(), 1, 1, false, 1, 1};
  } else {
    window = randomWindow(random, x, {2, 2, 3, 3, 5, 1}, false);
  }
  if (!window) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  // TFLite's quantised pooling keeps the input's quantisation.
  Value out = w.value(w.name(average ? "avgpool" : "maxpool"), {1, window->outHeight, window->outWidth, x.channels()},
                      x.type, x.quantisation);
  w.addOperator(average ? BuiltinOperator::AVERAGE_POOL_2D : BuiltinOperator::MAX_POOL_2D, {x.tensor}, {out.tensor},
                BuiltinOptions::Pool2DOptions,
                tflite::CreatePool2DOptions(w.flatbuffers(), paddingOf(*window), window->stride, window->stride,
                                            window->kernelWidth, window->kernelHeight, randomFusedActivation(random))
                    .Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitBinary(NetworkState& state, const Value& x, BuiltinOperator code) {
  Random& random = state.random();
  GraphWriter& w = state.writer();
  const bool minMax = code == BuiltinOperator::MINIMUM || code == BuiltinOperator::MAXIMUM;
  // The other operand: a residual (a value of the same shape), a broadcast channel vector or spatial
  // map, a scalar, or a constant of the same shape.
  std::optional<Value> other;
  const std::int64_t choice = random.integer(0, 9);
  if (choice < 4) {
    other = state.partner(x, [&](const Value& v) { return v.shape == x.shape && v.type == x.type; });
  }
  if (!other && choice < 6 && x.rank() == 4) {
    other = state.partner(x, [&](const Value& v) {
      return v.type == x.type && v.shape == std::vector<int>{1, 1, 1, x.channels()};
    });
  }
  if (other) {
    state.markRead(*other);
  } else {
    std::vector<int> shape = x.shape;
    if (x.rank() == 4) {
      const std::int64_t form = random.integer(0, 3);
      shape = form == 0   ? std::vector<int>{1, 1, 1, x.channels()}
              : form == 1 ? std::vector<int>{1, x.height(), x.width(), 1}
              : form == 2 ? std::vector<int>{1}
                          : x.shape;
    }
    other = w.constantOperand(w.name("constant"), shape, x.type);
  }
  ValueQuantisation outQuantisation = w.randomQuantisation(x.type);
  if (minMax) { // TFLite compares without rescaling: both inputs and the output share the quantisation
    other = requantise(state, *other, x.quantisation);
    outQuantisation = x.quantisation;
  }
  std::vector<int> outShape = x.shape.size() >= other->shape.size() ? x.shape : other->shape;
  if (x.elements() < other->elements()) {
    outShape = other->shape;
  }
  Value out = w.value(w.name(tflite::EnumNameBuiltinOperator(code)), outShape, x.type, outQuantisation);
  // Now and then the broadcast operand comes first.
  std::vector<std::int32_t> inputs{x.tensor, other->tensor};
  if (random.integer(0, 4) == 0) {
    std::swap(inputs[0], inputs[1]);
  }
  const auto activation = minMax ? tflite::ActivationFunctionType::NONE : randomFusedActivation(random);
  auto& fb = w.flatbuffers();
  switch (code) {
  case BuiltinOperator::ADD:
    w.addOperator(code, inputs, {out.tensor}, BuiltinOptions::AddOptions,
                  tflite::CreateAddOptions(fb, activation).Union());
    break;
  case BuiltinOperator::SUB:
    w.addOperator(code, inputs, {out.tensor}, BuiltinOptions::SubOptions,
                  tflite::CreateSubOptions(fb, activation).Union());
    break;
  case BuiltinOperator::MUL:
    w.addOperator(code, inputs, {out.tensor}, BuiltinOptions::MulOptions,
                  tflite::CreateMulOptions(fb, activation).Union());
    break;
  case BuiltinOperator::SQUARED_DIFFERENCE:
    w.addOperator(code, inputs, {out.tensor}, BuiltinOptions::SquaredDifferenceOptions,
                  tflite::CreateSquaredDifferenceOptions(fb).Union());
    break;
  default:
    w.addOperator(code, inputs, {out.tensor}, BuiltinOptions::MaximumMinimumOptions,
                  tflite::CreateMaximumMinimumOptions(fb).Union());
    break;
  }
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitUnary(NetworkState& state, const Value& x, BuiltinOperator code) {
  Random& random = state.random();
  GraphWriter& w = state.writer();
  ValueQuantisation quantisation = w.randomQuantisation(x.type);
  if ((code == BuiltinOperator::RELU || code == BuiltinOperator::RELU6 || code == BuiltinOperator::RELU_N1_TO_1) &&
      random.integer(0, 1) == 0) {
    quantisation = x.quantisation;
  } else if (code == BuiltinOperator::TANH || code == BuiltinOperator::LOGISTIC) {
    quantisation = fixedOutputQuantisation(x.type, code == BuiltinOperator::TANH);
  }
  Value out = w.value(w.name(tflite::EnumNameBuiltinOperator(code)), x.shape, x.type, quantisation);
  if (code == BuiltinOperator::LEAKY_RELU) {
    const auto alpha = static_cast<float>(random.real(0.01, 0.4));
    w.addOperator(code, {x.tensor}, {out.tensor}, BuiltinOptions::LeakyReluOptions,
                  tflite::CreateLeakyReluOptions(w.flatbuffers(), alpha).Union());
  } else {
    w.addOperator(code, {x.tensor}, {out.tensor});
  }
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitSoftmax(NetworkState& state, const Value& x) {
  GraphWriter& w = state.writer();
  Value out = w.value(w.name("softmax"), x.shape, x.type, fixedOutputQuantisation(x.type, false));
  const auto beta = static_cast<float>(state.random().integer(0, 2) == 0 ? state.random().real(0.5, 2.0) : 1.0);
  w.addOperator(BuiltinOperator::SOFTMAX, {x.tensor}, {out.tensor}, BuiltinOptions::SoftmaxOptions,
                tflite::CreateSoftmaxOptions(w.flatbuffers(), beta).Union());
  return std::vector<Value>{out};
}

namespace {

/// MEAN of `x` over `axes`; keeping the dimensions or not.
Value mean(NetworkState& state, const Value& x, const std::vector<std::int32_t>& axes, bool keepDims,
           ValueQuantisation quantisation) {
  GraphWriter& w = state.writer();
  const std::string name = w.name("mean");
  std::vector<int> shape;
  for (int axis = 0; axis < x.rank(); ++axis) {
    const bool reduced = std::find(axes.begin(), axes.end(), axis) != axes.end();
    if (!reduced) {
      shape.push_back(x.shape[static_cast<std::size_t>(axis)]);
    } else if (keepDims) {
      shape.push_back(1);
    }
  }
  const std::int32_t axesTensor = w.integers(name + "_axes", {static_cast<int>(axes.size())}, axes);
  Value out = w.value(name, shape, x.type, quantisation);
  w.addOperator(BuiltinOperator::MEAN, {x.tensor, axesTensor}, {out.tensor}, BuiltinOptions::ReducerOptions,
                tflite::CreateReducerOptions(w.flatbuffers(), keepDims).Union());
  return out;
}

} // namespace

std::optional<std::vector<Value>> emitMean(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  Random& random = state.random();
  const std::int64_t form = random.integer(0, 9);
  const std::vector<std::int32_t> axes = form < 7    ? std::vector<std::int32_t>{1, 2}
                                         : form == 7 ? std::vector<std::int32_t>{1}
                                         : form == 8 ? std::vector<std::int32_t>{2}
                                                     : std::vector<std::int32_t>{3};
  const bool keepDims = random.integer(0, 4) < 3;
  const ValueQuantisation quantisation =
      random.integer(0, 1) == 0 ? x.quantisation : state.writer().randomQuantisation(x.type);
  Value out = mean(state, x, axes, keepDims, quantisation);
  if (out.rank() == 4) {
    return std::vector<Value>{out};
  }
  // Back to a feature map for the layers that follow.
  std::vector<int> shape = out.shape;
  while (shape.size() < 4) {
    shape.insert(shape.begin() + 1, 1);
  }
  return std::vector<Value>{reshapeTo(state, out, shape)};
}

std::optional<std::vector<Value>> emitSqueezeExcite(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x) || x.height() * x.width() < 2) {
    return std::nullopt;
  }
  Random& random = state.random();
  const int channels = x.channels();
  // EfficientNet's block: a global average (MEAN, from Keras often without kept dimensions and a
  // RESHAPE computed by a SHAPE side chain), reduce, expand, gate and scale.
  const bool keepDims = random.integer(0, 1) == 0;
  Value squeezed = mean(state, x, {1, 2}, keepDims, state.writer().randomQuantisation(x.type));
  if (!keepDims) {
    squeezed = state.cpuOperators() && random.integer(0, 1) == 0
                   ? reshapeThroughShapeChain(state, squeezed, {1, 1, 1, channels})
                   : reshapeTo(state, squeezed, {1, 1, 1, channels});
  }
  const Value reduced = pointwiseConvolution(state, squeezed, std::max(1, channels / 4), true);
  const Value expanded = pointwiseConvolution(state, reduced, channels, false);
  const auto gateCode = random.integer(0, 3) == 0 ? BuiltinOperator::HARD_SWISH : BuiltinOperator::LOGISTIC;
  const Value gate = emitUnary(state, expanded, gateCode)->front();
  GraphWriter& w = state.writer();
  Value out = w.value(w.name("excite"), x.shape, x.type, w.randomQuantisation(x.type));
  w.addOperator(BuiltinOperator::MUL, {x.tensor, gate.tensor}, {out.tensor}, BuiltinOptions::MulOptions,
                tflite::CreateMulOptions(w.flatbuffers()).Union());
  return std::vector<Value>{out};
}

std::optional<std::vector<Value>> emitArgMax(NetworkState& state, const Value& x) {
  if (!isFeatureMap(x)) {
    return std::nullopt;
  }
  GraphWriter& w = state.writer();
  const std::string name = w.name("arg_max");
  const std::vector<std::int32_t> axis{3};
  const std::int32_t axisTensor = w.integers(name + "_axis", {1}, axis);
  Value out = w.int32Value(name, {1, x.height(), x.width()});
  w.addOperator(BuiltinOperator::ARG_MAX, {x.tensor, axisTensor}, {out.tensor}, BuiltinOptions::ArgMaxOptions,
                tflite::CreateArgMaxOptions(w.flatbuffers(), tflite::TensorType::INT32).Union());
  state.addTerminal(out);
  return std::vector<Value>{};
}

} // namespace npu::modelgen
