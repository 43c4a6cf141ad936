// SPDX-License-Identifier: Apache-2.0
#pragma once
// The per-operator rewrites of Vela's op_rewrite_list (tflite_graph_optimiser.py), each returning the
// operations that replace one operation, or nullopt when it does not apply. rewriteOperators() runs
// them in Vela's order until none applies any more.
//
// Weights keep their TFLite layouts: OHWI for convolutions, [1, H, W, C*M] for depthwise convolutions,
// [O, I] for fully connected layers; weights created here follow the same layouts.

#include "npu/ir/graph.hpp"

#include <optional>
#include <vector>

namespace ethosu::lowering {

struct LoweringContext;

using RewriteResult = std::optional<std::vector<npu::Operation>>;

// activation_rewrites.cpp
RewriteResult convertOpsToLut(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertHardSwishToLut(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult fixupRelusWithDifferingScales(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertTanhSigmoidToLut(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertQuantize(npu::Subgraph& subgraph, const npu::Operation& op);

// conv_rewrites.cpp
RewriteResult convertDepthwiseToConv(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertConvToFullyConnected(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertAvgPoolToConv(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult fixupStridedConv(npu::Subgraph& subgraph, const npu::Operation& op);
/// Vela 2.1.1's optimise_strided_conv, in place of fixupStridedConv with the 2.1 operator set: the
/// network's first CONV_2D with horizontal stride 2, at most 4 IFM channels, an even IFM width and a
/// kernel at least 2 wide reads the IFM as [N, H, W/2, 2C] with stride 1 and the kernel padded on the
/// right to an even width, folded the same way (no filter padding for SAME, no stride-1 fixup).
/// Vela 2.1.1's convert_mean_to_depthwise_conv, in place of convertMeanToDepthwiseConv with the 2.1
/// operator set (pass_mean_vela21.cpp).
RewriteResult convertMeanVela21(npu::Subgraph& subgraph, const npu::Operation& op);
/// Vela 2.1.1's fixup_resizebilinear, in place of fixupResize with the 2.1 operator set: no half-pixel
/// centres, and an upscale of several 2x steps as that many 2x resizes (int16 intermediates), each then
/// lowered by fixupResize (pass_resize.cpp).
RewriteResult fixupResizeVela21(npu::Subgraph& subgraph, const npu::Operation& op);
/// convertQuantize with the name 2.1.1's pass packing gives the pass ("<name>_avgpool").
RewriteResult convertQuantizeVela21(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult optimiseStridedConvVela21(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult rewriteFullyConnectedInput(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult fixupTransposeConv(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult fixupBiasTensors(npu::Subgraph& subgraph, const npu::Operation& op);
/// Vela 2.1.1's fixup_bias_tensors, in place of fixupBiasTensors with the 2.1 operator set: the zero bias
/// is int32 for every IFM type (its type sets the bursts of the pass's scale read).
RewriteResult fixupBiasTensorsVela21(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult fixupDilation(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult fixupAsymmetricWeights(npu::Subgraph& subgraph, const npu::Operation& op);

// pass_mean.cpp
RewriteResult convertMeanToDepthwiseConv(npu::Subgraph& subgraph, const npu::Operation& op);
// pass_softmax.cpp
RewriteResult convertSoftmax(npu::Subgraph& subgraph, const npu::Operation& op);
/// convertSoftmax with 2.1.1's operand order (the rescaling ADD of the 8-bit graph takes its constant first).
RewriteResult convertSoftmaxVela21(npu::Subgraph& subgraph, const npu::Operation& op);
// pass_elementwise.cpp
RewriteResult convertSquaredDifference(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertPrelu(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertMulMaxToAbsOrLeakyRelu(npu::Subgraph& subgraph, const npu::Operation& op);
RewriteResult convertLeakyRelu(npu::Subgraph& subgraph, const npu::Operation& op);
// pass_lstm.cpp
/// Batches x time steps an LSTM may unroll into (18 NPU operations each); larger LSTMs stay on the CPU so
/// a small model cannot ask for unbounded compile time and memory (about 3 s and 250 MiB at the limit).
inline constexpr std::int64_t kMaxUnrolledLstmSteps = 2048;
RewriteResult convertLstm(npu::Subgraph& subgraph, const npu::Operation& op);
// pass_argmax.cpp
RewriteResult convertArgMax(npu::Subgraph& subgraph, const npu::Operation& op);
// pass_resize.cpp
RewriteResult fixupResize(npu::Subgraph& subgraph, const npu::Operation& op);
// pass_transpose.cpp
RewriteResult fixupTranspose(npu::Subgraph& subgraph, const npu::Operation& op);
// pass_padding.cpp
RewriteResult replacePadByHardwarePadding(npu::Subgraph& subgraph, const npu::Operation& op);

} // namespace ethosu::lowering
