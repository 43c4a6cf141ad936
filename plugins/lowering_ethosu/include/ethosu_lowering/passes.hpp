// SPDX-License-Identifier: Apache-2.0
#pragma once
// The individual rewrites of the Ethos-U lowering, in the order lowerGraph() runs them (which is the
// order of Vela 3.10's tflite_optimise_graph, mark_tensor_purpose and pack_into_passes). Each works on
// one subgraph in place; unit tests call them one by one on hand-made graphs.

#include "ethosu_lowering/lowering.hpp"

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"

#include <optional>
#include <vector>

namespace ethosu::lowering {

/// What the passes need to know about the target.
struct LoweringContext {
  const npu::OperatorSupport& support;
  /// Whether a LUT activation may be fused into its producer (Vela: arch.shram_reserved_unused_banks
  /// != 0, false on Ethos-U55-32/64 whose SHRAM has no spare banks for the LUT).
  bool lutFusionAllowed = true;
  /// The Vela release whose operator set and rewrites are reproduced.
  VelaRelease release = VelaRelease::V3_10;
};

/// Builds the context for an accelerator (its support checks and SHRAM facts).
[[nodiscard]] LoweringContext makeContext(const npu::Accelerator& accelerator,
                                          VelaRelease release = VelaRelease::V3_10);

// --- compile-time static optimisations (Vela: optimise_quantize, convert_shape_op_to_constant_tensor,
// fixup_pool_strides) -----------------------------------------------------------------------------
void foldConstantOperations(npu::Subgraph& subgraph, const LoweringContext& context);

// --- placement (Vela: supported_operator_check) and the pre-processing that follows it ------------
void placeOperations(npu::Subgraph& subgraph, const LoweringContext& context);
/// Vela's set_ifm_ofm_op_shapes: the 4D shapes every NPU operation works on.
void setOperationShapes(npu::Subgraph& subgraph, const LoweringContext& context);
/// Vela's convert_conv_groups: a grouped convolution becomes split, one convolution per group, concat.
/// The new operations are left unplaced; placeOperations and setOperationShapes run again after it.
void convertConvolutionGroups(npu::Subgraph& subgraph, const LoweringContext& context);

// --- concatenation and split by offset (rewrite_concat_ops, rewrite_split_ops) ---------------------
void rewriteConcatenations(npu::Subgraph& subgraph, const LoweringContext& context);
void rewriteSplits(npu::Subgraph& subgraph, const LoweringContext& context);

// --- memory-only operators (bypass_memory_only_ops) -------------------------------------------------
void bypassMemoryOnlyOperations(npu::Subgraph& subgraph, const LoweringContext& context);
/// Vela 2.1.1 (remove_reshapes, after its operator rewrites): every NPU RESHAPE goes; its readers read
/// the input in the reshaped view (their IFM shapes keep the reshape's output shape). Nothing for 3.10.
void removeReshapesAfterRewrites(npu::Subgraph& subgraph, const LoweringContext& context);

// --- the per-operator rewrites of Vela's op_rewrite_list -------------------------------------------
void rewriteOperators(npu::Subgraph& subgraph, const LoweringContext& context);

// --- after the rewrites: pass-through removal, fuse LUT activations, fold or expand PAD, padding ----
/// Vela's remove_passthrough_tensor: every IDENTITY left (also on the CPU) is removed, its readers read
/// its input.
void removePassThroughOperations(npu::Subgraph& subgraph, const LoweringContext& context);
void fuseActivationsWithProducers(npu::Subgraph& subgraph, const LoweringContext& context);
void convertRemainingPads(npu::Subgraph& subgraph, const LoweringContext& context);
void addPaddingFields(npu::Subgraph& subgraph, const LoweringContext& context);
/// Vela's remove_SplitSliceRead: moves slice reads into the consumers or makes them AvgPool copies.
void removeSplitSliceReads(npu::Subgraph& subgraph, const LoweringContext& context);
/// A constant subgraph output produced by a rewritten operation gets a copy (Vela: "_copy" Add).
void copyConstantOutputs(npu::Subgraph& subgraph, const LoweringContext& context);

// --- tensor purposes and formats (mark_tensors.py, check_format_restrictions) ----------------------
void markTensorPurposes(npu::Subgraph& subgraph, const LoweringContext& context);
void chooseTensorFormats(npu::Subgraph& subgraph, const LoweringContext& context);

// --- pass packing (pass_packing.py) ----------------------------------------------------------------
/// Drops operations whose results nobody uses (Vela only sees what is reachable from the outputs).
void removeDeadOperations(npu::Subgraph& subgraph, const LoweringContext& context);
/// Merges stand-alone ReLUs into their producers, gives the rest an AvgPool primary op, and orders the
/// operations like Vela's pass list.
void packPasses(npu::Subgraph& subgraph, const LoweringContext& context);
/// Vela's pass order (pack_into_passes): a walk from the subgraph outputs that emits an operation once
/// every reader of its outputs has been emitted, reversed; operations the walk does not reach come last.
/// Returns the operations' indices in that order.
[[nodiscard]] std::vector<std::size_t> velaPassOrder(const npu::Subgraph& subgraph);
/// Drops tensors no operation and no subgraph input/output refers to (renumbering the rest).
void removeUnusedTensors(npu::Subgraph& subgraph, const LoweringContext& context);

} // namespace ethosu::lowering
