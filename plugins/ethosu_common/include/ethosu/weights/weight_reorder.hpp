// SPDX-License-Identifier: Apache-2.0
#pragma once

// The order in which an Ethos-U core reads the weights of one OFM depth range: OFM blocks, IFM blocks,
// sub-kernels of at most 8x8 (4x4 with dilation 2), then micro-blocks of OFM and IFM channels, padded
// with zeros where the hardware expects them (Vela 3.10: ethosu/mlw_codec/mlw_encode.c, reorder).

#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::weights {

/// Weights of a convolution-like operation in OHWI order (OFM channel, kernel row, kernel column, IFM
/// channel) with zero points already removed. A depthwise convolution has one IFM channel per OFM
/// channel (ifmDepth 1), a fully connected layer a 1x1 kernel.
struct WeightVolume {
  int ofmDepth = 0;
  int kernelHeight = 1;
  int kernelWidth = 1;
  int ifmDepth = 0;
  std::vector<std::int16_t> values;

  [[nodiscard]] std::int64_t elements() const {
    return std::int64_t{ofmDepth} * kernelHeight * kernelWidth * ifmDepth;
  }
  [[nodiscard]] std::int16_t at(int ofm, int y, int x, int ifm) const {
    return values[static_cast<std::size_t>(((std::int64_t{ofm} * kernelHeight + y) * kernelWidth + x) * ifmDepth + ifm)];
  }
};

/// How the core walks the kernel (Vela's NpuBlockTraversal, plus depthwise).
enum class WeightTraversal : std::uint8_t {
  DepthFirst,      ///< IFM depth innermost; convolutions with deep IFMs, fully connected layers
  PartKernelFirst, ///< kernel positions innermost; convolutions with shallow IFMs
  Depthwise,       ///< one IFM channel per OFM channel
};

struct ReorderParameters {
  int ofmBlockDepth = 16;      ///< OFM block depth of the block config, for this core
  int ofmMicroBlockDepth = 8;  ///< of the accelerator variant
  int ifmMicroBlockDepth = 8;
  WeightTraversal traversal = WeightTraversal::DepthFirst;
  int ifmBits = 8;             ///< 8 or 16: IFM element size
  int dilationX = 1;           ///< 1 or 2 (larger dilations are expanded into the kernel beforehand)
  int dilationY = 1;
  int subKernelMaxWidth = 8;
  int subKernelMaxHeight = 8;
};

/// The weights in hardware order, zero padding included: the input of encodeWeightStream.
[[nodiscard]] std::vector<std::int16_t> reorderWeights(const WeightVolume& weights, const ReorderParameters& parameters);

} // namespace ethosu::weights
