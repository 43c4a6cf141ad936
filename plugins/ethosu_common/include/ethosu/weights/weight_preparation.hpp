// SPDX-License-Identifier: Apache-2.0
#pragma once

// From an IR operation to the input of the weight stream: weights in the hardware's OHWI order with
// zero points removed, the traversal, and quantised per-channel scales with biases. Follows what Vela
// 3.10 does to a TFLite operator's weights before encoding them (tflite_reader.py, the weight rewrites
// of tflite_graph_optimiser.py, weight_compressor.py _prepare_scale_and_bias).
//
// Accepted operations and weight layouts (TFLite's):
//   Conv2D, Conv2DBias, QuantizedConv2D            OHWI
//   Conv2DBackpropInput(SwitchedBias)              OHWI, flipped in H and W (transpose convolution)
//   DepthwiseConv2DBias                            [1, H, W, C]; with a depth multiplier above 1 only
//                                                  when the IFM has one channel (encoded as a convolution)
//   FullyConnected, QuantizedMatMul                [O, I] (or [O, 1, 1, I])
// Weights must be 8-bit (int8/uint8) and constant; IFMs uint8, int8 or int16. Dilations above 2 are
// expanded into the kernel; a 1x1 convolution over a 1x1 IFM is traversed like a fully connected layer.
// Anything else raises npu::Error naming the operation.

#include "ethosu/weights/weight_stream.hpp"

#include "npu/ir/graph.hpp"

#include <optional>

namespace ethosu::weights {

/// The stream input of `op`, or nullopt when the operation has no weights. The weight volume's values
/// are written into `storage` (its contents are dropped, its capacity reused): an encoder that prepares
/// large volumes again and again can hand the buffer of the last one back instead of touching fresh
/// memory each time.
[[nodiscard]] std::optional<WeightStreamInput>
prepareWeightStream(const npu::Subgraph& subgraph, const npu::Operation& op, std::vector<std::int16_t> storage = {});

} // namespace ethosu::weights
