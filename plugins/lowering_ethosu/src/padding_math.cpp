// SPDX-License-Identifier: Apache-2.0
#include "padding_math.hpp"

#include "ethosu_lowering/rewrite_support.hpp"

#include <algorithm>
#include <cstdint>

namespace ethosu::lowering {

using namespace npu;

int neededTotalPadding(int inputSize, int stride, int filterSize) {
  if (inputSize % stride == 0) {
    return std::max(filterSize - stride, 0);
  }
  return std::max(filterSize - (inputSize % stride), 0);
}

namespace {
/// Vela calc_explicit_padding: the trailing padding may shrink to what the stride actually reads.
std::pair<int, int> explicitPadding(int inputSize, int stride, int filterSize, int before, int after) {
  const int totalMinusBefore = neededTotalPadding(inputSize, stride, filterSize) - before;
  int outputAfter = after;
  while (outputAfter > 0 && outputAfter % stride != ((totalMinusBefore % stride) + stride) % stride) {
    --outputAfter;
  }
  return {before, outputAfter};
}
} // namespace

HardwarePadding hardwarePadding(const Operation& op, const Shape4& ifmShape) {
  const Kernel kernel = op.kernel.value_or(Kernel{});
  const int kernelWidth = kernel.areaWidth();
  const int kernelHeight = kernel.areaHeight();
  const int yPad = neededTotalPadding(ifmShape.height, kernel.strideY, kernelHeight);
  const int xPad = neededTotalPadding(ifmShape.width, kernel.strideX, kernelWidth);
  ExplicitPadding padding;
  switch (op.padding) {
  case Padding::Same:
    padding = {yPad / 2, xPad / 2, (yPad + 1) / 2, (xPad + 1) / 2};
    break;
  case Padding::Valid:
    break;
  case Padding::Explicit: {
    const auto [top, bottom] = explicitPadding(ifmShape.height, kernel.strideY, kernelHeight, op.explicitPadding.top,
                                               op.explicitPadding.bottom);
    const auto [left, right] =
        explicitPadding(ifmShape.width, kernel.strideX, kernelWidth, op.explicitPadding.left, op.explicitPadding.right);
    padding = {top, left, bottom, right};
    break;
  }
  case Padding::Tile:
    padding = op.explicitPadding;
    break;
  }
  const ExplicitPadding skirt{padding.top, padding.left, yPad - padding.top, xPad - padding.left};
  return {padding, skirt};
}

HardwarePadding upscaledPadding(const Operation& op, const Shape4& ifmShape, int upscaleY, int upscaleX) {
  const Kernel kernel = op.kernel.value_or(Kernel{});
  ExplicitPadding padding;
  if (op.padding == Padding::Same) {
    const int yPad = neededTotalPadding(ifmShape.height * upscaleY, kernel.strideY, kernel.height);
    const int xPad = neededTotalPadding(ifmShape.width * upscaleX, kernel.strideX, kernel.width);
    padding.right = std::max((xPad + 1) / upscaleX - 1, 0);
    padding.bottom = std::max((yPad + 1) / upscaleY - 1, 0);
    padding.left = std::max(kernel.width - 1 - padding.right, 0);
    padding.top = std::max(kernel.height - 1 - padding.bottom, 0);
  } else {
    padding.right = std::max(kernel.width - 2, 0);
    padding.bottom = std::max(kernel.height - 2, 0);
    padding.left = kernel.width - 1;
    padding.top = kernel.height - 1;
  }
  return {padding, padding};
}

std::pair<int, int> stridedConvResizeFactor(int ifmWidth, int strideX) {
  int resizeFactor = strideX;
  if (ifmWidth % resizeFactor != 0) {
    int divisor = 1;
    for (const int hardwareStride : {2, 3}) {
      if (resizeFactor % hardwareStride == 0 && ifmWidth % (strideX / hardwareStride) == 0) {
        divisor = hardwareStride;
        break;
      }
    }
    const int newFactor = resizeFactor / divisor;
    resizeFactor = newFactor != resizeFactor ? newFactor : 1;
  }
  return {resizeFactor, strideX / resizeFactor};
}

namespace {
/// Vela fixup_strided_conv calc_filter_padding: zero columns added to the filter (left, right).
std::pair<int, int> filterPadding(Padding paddingType, int currentPaddingX, int postStride, int factor, int filterWidth,
                                  int ifmWidth) {
  int size = 0;
  std::pair<int, int> padding{0, 0};
  if (paddingType != Padding::Valid) {
    const int preStride = postStride * factor;
    const int widthAfter = ifmWidth / factor;
    const int expected =
        ifmWidth % preStride == 0 ? currentPaddingX + postStride : currentPaddingX + (widthAfter % postStride);
    size = expected * factor - filterWidth;
    const int left = currentPaddingX == 0 ? size / 2 : size / currentPaddingX * (currentPaddingX / 2);
    padding = {left, size - left};
  }
  if (filterWidth % factor != 0 && (size == 0 || currentPaddingX == 0)) {
    padding = {0, factor - (filterWidth % factor)};
  }
  return padding;
}
} // namespace

std::optional<Operation> reshapeStridedWeights(Subgraph& subgraph, const Operation& op, int resizeFactor,
                                               int finalStride) {
  const Kernel kernel = *op.kernel;
  const Shape4 ifmShape = op.ifmShapes[0];
  // The folded IFM must stay one the NPU runs (dimensions up to 65535). Vela folds regardless, into an
  // operation no NPU runs; a 65535-deep IFM folded 65535 times overflowed an int (and padded 2^32 weights).
  constexpr std::int64_t kMaxDimension = 65535;
  if (std::int64_t{ifmShape.depth} * resizeFactor > kMaxDimension) {
    return std::nullopt;
  }
  const int currentPaddingX = neededTotalPadding(ifmShape.width, kernel.strideX, kernel.width);
  const auto [leftPad, rightPad] =
      filterPadding(op.padding, currentPaddingX, finalStride, resizeFactor, kernel.width, ifmShape.width);
  if (op.padding == Padding::Same) {
    const int optimised = neededTotalPadding(ifmShape.width / resizeFactor, finalStride,
                                             (kernel.width + 1 + leftPad + rightPad) / resizeFactor);
    if (optimised != currentPaddingX) {
      return std::nullopt;
    }
  }
  // OHWI weights: pad W, then fold W into I by the resize factor.
  const Tensor& weights = subgraph.tensor(op.weights());
  const int outputs = weights.shape[0];
  const int height = weights.shape[1];
  const int width = weights.shape[2];
  const int inputs = weights.shape[3];
  const int paddedWidth = width + leftPad + rightPad;
  if (paddedWidth % resizeFactor != 0) {
    return std::nullopt;
  }
  const std::int64_t fill = weights.quantisation.zeroPoint.size() == 1 ? weights.quantisation.zeroPoint[0] : 0;
  const auto values = weights.integerValues();
  std::vector<std::int64_t> padded(static_cast<std::size_t>(outputs) * height * paddedWidth * inputs, fill);
  for (int o = 0; o < outputs; ++o) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        for (int i = 0; i < inputs; ++i) {
          padded[static_cast<std::size_t>(((o * height + y) * paddedWidth + x + leftPad) * inputs + i)] =
              values[static_cast<std::size_t>(((o * height + y) * width + x) * inputs + i)];
        }
      }
    }
  }
  Operation result = op;
  result.ifmShapes[0] =
      Shape4{ifmShape.batch, ifmShape.height, ifmShape.width / resizeFactor, ifmShape.depth * resizeFactor};
  const Shape newShape{outputs, height, paddedWidth / resizeFactor, inputs * resizeFactor};
  const TensorId reshaped =
      addConstant(subgraph, weights.name, newShape, weights.type, padded, weights.quantisation, weights.purpose);
  result.inputs[1] = reshaped;
  result.kernel->width = paddedWidth / resizeFactor;
  result.kernel->strideX = finalStride;
  return result;
}

} // namespace ethosu::lowering
