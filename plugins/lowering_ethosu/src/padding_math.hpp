// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hardware padding of kernels (Vela tflite_graph_optimiser.py calc_padding_and_skirt,
// calc_upscaled_padding_and_skirt; graph_optimiser_util.py needed_total_padding, calc_explicit_padding)
// and the strided-convolution reshape (fixup_strided_conv, utils.py calc_resize_factor).

#include "npu/ir/graph.hpp"

#include <optional>
#include <utility>

namespace ethosu::lowering {

struct HardwarePadding {
  npu::ExplicitPadding padding;
  npu::ExplicitPadding skirt;
};

[[nodiscard]] int neededTotalPadding(int inputSize, int stride, int filterSize);
/// The padding the hardware applies for the operation's kind of padding and its IFM shape.
[[nodiscard]] HardwarePadding hardwarePadding(const npu::Operation& op, const npu::Shape4& ifmShape);
/// Transpose convolution with upscaling (Vela calc_upscaled_padding_and_skirt).
[[nodiscard]] HardwarePadding upscaledPadding(const npu::Operation& op, const npu::Shape4& ifmShape, int upscaleY,
                                              int upscaleX);

/// Resize factor and the stride left after folding width into depth (Vela calc_resize_factor).
[[nodiscard]] std::pair<int, int> stridedConvResizeFactor(int ifmWidth, int strideX);
/// The convolution with its IFM seen as [N, H, W / f, C * f] and weights reshaped to match, or nullopt
/// when Vela would not change it.
[[nodiscard]] std::optional<npu::Operation> reshapeStridedWeights(npu::Subgraph& subgraph, const npu::Operation& op,
                                                                  int resizeFactor, int finalStride);

} // namespace ethosu::lowering
