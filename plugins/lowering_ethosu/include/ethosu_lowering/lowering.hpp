// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ethos-U lowering: what Arm Vela 3.10's graph optimiser, tensor marking and pass packing make of a
// TFLite graph, expressed in the npu IR.
//
// INPUT: the graph of the TFLite frontend (OpType mapped like Vela's reader, Operation::sourceType = the
// TFLite operator name, operation named after its first output tensor, options as snake_case
// Attributes, kernel/stride/dilation/padding/fused activation as Operation fields).
//
// OUTPUT CONVENTIONS (schedulers, cost model and reports rely on them):
// - Every NPU operation is exactly one Vela pass, i.e. one row of Vela's per-layer CSV. Fused
//   activations (ReLU clamps, LUTs) live on the operation (Operation::activation); nothing that Vela's
//   pass packing merges stays a separate operation. When pass packing merged a further graph operation
//   into a pass (a stand-alone ReLU after its producer) the attribute "packed_operations" (int) counts
//   them, so Vela's "NPU operators = N" is the number of NPU operations plus these counts.
// - Operation::type is Vela's internal op type (Conv2DBias, FullyConnected, AvgPool, SHR, Memcpy, ...);
//   Operation::sourceType stays the TFLite operator the operation came from; Operation::name is Vela's
//   (e.g. "Identity_int8_sub1", "concat0_avgpool", "MeanMean_conv_0").
// - Operands follow npu::operandLayoutOf(type): ifm at 0, ifm2 or weights at 1, bias at 2. Constants
//   carry purposes Weights, ScalesBiases or Lut; every other tensor is a FeatureMap. A LUT activation
//   references its table through Activation::lut (type OpType::LUT); LUT tables are not operands.
// - Operation::ifmShapes/ofmShapes hold the 4D shapes the operation works on; readOffsets/readShapes
//   describe partial reads (split, slice, mean in chunks), writeOffset/writeShape partial writes
//   (concatenation by offset: several operations then write one tensor, each a part of it).
//   ifmResampling holds upscaling (Nearest for resize, Transpose for transpose convolution). Padding::Tile
//   (half-pixel resize) replicates edge values; explicitPadding then holds the directions (0 or 1 per side).
// - Operations with a kernel carry the hardware padding: `padding` keeps the TFLite kind (Same/Valid) or
//   Explicit after folding a PAD, and `explicitPadding` always holds the resolved top/left/bottom/right
//   padding (Vela's add_padding_fields); attribute "skirt" = [top, left, bottom, right] skirt.
// - Further per-operation facts Vela keeps for block configs, weight encoding and cycles, as attributes:
//     "explicit_scaling_shift"/"explicit_scaling_multiplier" (int lists): Vela's explicit_scaling;
//     "forced_output_quantisation" (bool) with "forced_output_scale"/"forced_output_zero_point": the
//       output is written with these parameters instead of the OFM tensor's (LUT ops);
//     "is_nop" (bool): elementwise no-op carrying a LUT (Vela's convert_to_lut);
//     "memory_function" (string): "ConcatSliceWrite" for the writes of a concatenation (and of the LSTM
//       output per time step); "VariableTensorWrite" when the OFM is the buffer of a variable tensor (the
//       LSTM states: the OFM tensor shares the variable's equivalenceId and stays linear);
//     "ofm_swap_hw_strides" (bool): the OFM is written with its height and width strides swapped (TRANSPOSE
//       as an AvgPool; ofmShapes equals ifmShapes; the TRANSPOSE's own OFM stays linear, an activation's
//       OFM that replaced it may be in bricks);
//     "ofm_stride_multiplier" (int list, [C, H, W]) and "ofm_tile_base_offset" (int, bytes): the OFM is
//       written every n-th row/column starting at a byte offset (half-pixel RESIZE_BILINEAR as four
//       depthwise convolutions; each has writeOffset 0 and writeShape = its IFM shape);
//     "alpha_scaling" (int list [alpha, multiplier, shift]): a LEAKY_RELU that replaced a PRELU or a Mul +
//       Maximum keeps the original's bit-exact scaling for its table;
//     "ofm_can_reuse_ifm" (bool): hint that the OFM may overwrite the IFM (elementwise, same shapes);
//     "ifm_read_view" (int list [N, H, W, C]): the view an operation had of a split part it now reads
//       from the split's source (readOffsets/readShapes in the source's shape); code generation only;
//     "ifm_split_part_unaligned"/"ifm2_split_part_unaligned" (bool): the input is a SPLIT's, SPLIT_V's or
//       UNPACK's whose parts start at a channel offset not a multiple of 16 (Vela 2.1.1 avoids the brick
//       format for it; a SLICE's never); the 2020 cost model only;
//     "bypassed_reshape" (bool): a RESHAPE Vela 2.1.1 removes that stays on the CPU here because a CPU
//       operation reads or writes it (2.1.1 avoids the brick format for its tensors when the shapes
//       differ); the 2020 cost model only;
//     "weights_format" (int): FullyConnected weights layout (0 = Vela order);
// - Tensor formats (Vela's check_format_restrictions): a feature map that may be stored in the brick
//   format gets TensorFormat::NHCWB16; one that must stay linear (Vela's force_linear_format: subgraph
//   inputs/outputs, CPU-facing tensors, unaligned concat/split offsets, reshaped views, DMA) NHWC.
// - Memory-only operators (RESHAPE, SQUEEZE, EXPAND_DIMS, IDENTITY, no-op QUANTIZE) are gone on the NPU:
//   their input and output are one tensor, or a Memcpy when Vela keeps a copy. An IDENTITY is removed on
//   the CPU too (Vela's remove_passthrough_tensor).
// - Decompositions as Vela 3.10 does them: UNIDIRECTIONAL_SEQUENCE_LSTM unrolled per time step and batch,
//   SOFTMAX, MEAN, ARG_MAX, RESIZE_*, SQUARED_DIFFERENCE, PRELU, LEAKY_RELU, Mul + Maximum (to LEAKY_RELU or
//   ABS), TRANSPOSE, grouped convolutions (split, one convolution per group, concat), dilation above 2
//   (a sparse kernel), strided convolutions, TRANSPOSE_CONV, HARD_SWISH/EXP/RSQRT/LOGISTIC/TANH as LUTs.
//   LUT values are Vela's (its fixed-point arithmetic where it uses it), see src/lut_tables.hpp.
// - CPU operations stay in execution order with Placement::Cpu and the accelerator's reason; the order
//   of operations is Vela's pass order (pass_packing.py), so partitionByPlacement gives Vela's NPU and
//   CPU subgraphs.
// - The result passes npu::verifyGraph(); the lowering checks it after every pass when asked to.

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"

#include <cstdint>
#include <set>
#include <string>

namespace ethosu::lowering {

/// Which Vela release's operator set and graph rewrites the lowering reproduces.
enum class VelaRelease : std::uint8_t {
  V3_10, ///< Vela 3.10 (the default; everything described above)
  /// Vela 2.1.1 (commit 41c006a): its supported-operator set on top of 3.10's checks (operator types it
  /// lacks, strides 1-3, MEAN/RESIZE_BILINEAR/PAD shapes, ...; ethosu/support/vela21_support.hpp; 3.10's
  /// resize and constant-reshape-shape constraints dropped), no compile-time folding of SHAPE, constant
  /// QUANTIZE or global-pool strides, and its rewrites: the first strided convolution
  /// (optimise_strided_conv), MEAN (one depthwise convolution), RESIZE_BILINEAR (one 2x step per pass),
  /// RESHAPE (removed, never a Memcpy).
  V2_1,
};

struct LoweringOptions {
  /// Run npu::requireValidGraph after every pass (on in debug builds and in tests).
  bool verifyAfterEachPass = true;
  VelaRelease release = VelaRelease::V3_10;
};

/// Lowers every subgraph of `graph` for the accelerator; placement is decided by accelerator.support().
[[nodiscard]] npu::Graph lowerGraph(npu::Graph graph, const npu::Accelerator& accelerator,
                                    const LoweringOptions& options = {});

/// Counts as Vela reports them after its graph rewriting ("NPU operators = N", "CPU operators = N")
/// and the number of NPU subgraphs (Vela's "_split_N").
struct PlacementCounts {
  int npuOperations = 0;
  int cpuOperations = 0;
  int npuPasses = 0; ///< rows of Vela's per-layer CSV (without its headers)
  int npuSubgraphs = 0;
};
[[nodiscard]] PlacementCounts countPlacements(const npu::Subgraph& subgraph);
[[nodiscard]] PlacementCounts countPlacements(const npu::Graph& graph);

} // namespace ethosu::lowering
