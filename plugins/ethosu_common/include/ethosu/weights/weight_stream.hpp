// SPDX-License-Identifier: Apache-2.0
#pragma once

// Layout of the complete weight stream of one operation, as Vela 3.10 writes it
// (ethosu/vela/weight_compressor.py, encode_weight_and_scale_tensor): for each OFM depth slice, for
// each core, the core's scales and biases padded to 16 bytes, then the core's compressed weights
// (already a multiple of 16 bytes). Cores take OFM channels round robin.

#include "ethosu/weights/stream_cache.hpp"
#include "ethosu/weights/scale_encoding.hpp"
#include "ethosu/weights/weight_reorder.hpp"

#include "npu/plugin/accelerator.hpp"

#include <array>
#include <span>
#include <vector>

namespace ethosu::weights {

/// What the weight encoding needs to know about the accelerator variant. The architecture code fills
/// it from the variant tables (VariantSpec: cores, ofmMicroBlock.depth, ifmMicroBlock.depth).
struct WeightEncoderConfig {
  int cores = 1;               ///< Ethos-U65-512 has 2; every other variant 1
  int ofmMicroBlockDepth = 8;  ///< 4 on Ethos-U55-32, else 8
  int ifmMicroBlockDepth = 8;
  int subKernelMaxWidth = 8;   ///< ArchitectureFeatures.SubKernelMax
  int subKernelMaxHeight = 8;
};

/// Everything of one operation that goes into its stream, in hardware terms.
struct WeightStreamInput {
  WeightVolume weights; ///< OHWI, zero points removed, dilation at most 2 (see weight_reorder.hpp)
  WeightTraversal traversal = WeightTraversal::DepthFirst;
  int ifmBits = 8;
  int dilationX = 1;
  int dilationY = 1;
  std::vector<std::int64_t> biases;    ///< one per OFM channel
  std::vector<QuantisedScale> scales;  ///< one per OFM channel, or one for all
};

/// Encodes `input` for an OFM block depth and depth slicing (boundaries, e.g. {0, 16, 32}). Each slice
/// reports per core the bytes it occupies in the stream and, of those, the scale bytes with their
/// padding; totalBytes and scaleBytes sum them. originalBytes is left to the caller. With a cache, every
/// stream is encoded (not only sized) once and remembered, so that a later request for the same streams
/// with keepStream costs no second parameter search.
[[nodiscard]] npu::EncodedWeights encodeWeightsAndScales(const WeightStreamInput& input,
                                                         const WeightEncoderConfig& config, int ofmBlockDepth,
                                                         std::span<const int> depthSlices, bool keepStream,
                                                         StreamCache* cache = nullptr);

/// Bytes a double buffer needs for each of its two halves: the largest even-numbered and the largest
/// odd-numbered slice (weight_compressor.py: NpuWeightTensor.double_buffer_sizes).
[[nodiscard]] std::array<std::int64_t, 2> doubleBufferSizes(const npu::EncodedWeights& encoded);

/// The traversal Vela picks for a convolution's weights: part-kernel-first when it uses the
/// multipliers at least as well as depth-first, or when the IFM has at most 8 channels
/// (weight_compressor.py, encode_weight_and_scale_tensor).
[[nodiscard]] WeightTraversal chooseConvolutionTraversal(int kernelHeight, int kernelWidth, int ifmDepth, int ifmBits);

} // namespace ethosu::weights
