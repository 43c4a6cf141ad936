// SPDX-License-Identifier: Apache-2.0
#pragma once

// The 2020 performance model of Vela 2.1 (npu_performance.py of the dynamic-programming scheduler era):
// the cycles of a pass are the maximum of its compute cycles and the access cycles of every memory,
// where access cycles are the bytes moved (scaled by burst efficiency) over the memory's bandwidth.
// Pure functions of an architecture and a query; safe to call from many threads.

#include "ethosu/architecture/architecture.hpp"
#include "ethosu/architecture/operation_traits.hpp"

#include "npu/plugin/performance.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace ethosu::vela2 {

/// Vela 2.1's TensorBlockTraversal for the weights of a convolution-like pass.
enum class BlockTraversal : std::uint8_t { Default, DepthFirst, PartKernelFirst, DepthWise };

/// The block dimensions Vela 2.1 works with (its Block(width, height, depth)).
struct Block {
  int width = 1;
  int height = 1;
  int depth = 1;
};

/// Weights of a pass as Vela 2.1 moves them: compressed weights (scales and biases apart).
struct PassWeights {
  std::int64_t bytes = 0;                                 ///< compressed weight stream, without scales and biases
  npu::MemoryArea storageArea = npu::MemoryArea::Unknown; ///< permanent home
  /// Set when a DMA copies the weights into this memory before the pass reads them (insert_dma).
  std::optional<npu::MemoryArea> bufferArea;
  /// Storage size of the weight tensor a DMA copies (all depth slices as encoded; `bytes` may count
  /// weight-streamed slices as if full), when it differs from `bytes`.
  std::optional<std::int64_t> storageBytes;
  /// The weights' bandwidth when Vela 2.1 counts a fraction of a byte (weight-streamed slices
  /// counted as if full); `bytes` is it rounded.
  std::optional<double> bandwidthBytes;
};

/// Everything performance_metrics_for_pass reads from one pass with one block config.
struct PassQuery {
  OperationTraits traits;
  npu::FeatureMapQuery ifm;
  std::optional<npu::FeatureMapQuery> ifm2;
  npu::FeatureMapQuery ofm;
  /// Formats the burst efficiency assumes for ifm, ifm2 and ofm when they differ from the stored ones:
  /// Vela 2.1 judges a feature map as brick-format unless it must stay linear, even while it is still
  /// stored linearly (a scheduler's search, before formats are chosen).
  std::optional<npu::TensorFormat> ifmBurstFormat;
  std::optional<npu::TensorFormat> ifm2BurstFormat;
  std::optional<npu::TensorFormat> ofmBurstFormat;
  /// Shapes the burst estimate views ifm and ifm2 in when they differ from their own (its shape4D):
  /// Vela 2.1's code generation swaps the pass's operand shapes, not its tensors, when it puts a
  /// broadcast operand second (high_level_command_to_npu_op), and the final estimate runs after it.
  std::optional<npu::Shape4> ifmBurstShape;
  std::optional<npu::Shape4> ifm2BurstShape;
  Block ofmBlock; ///< the block config's OFM block, before clamping to the OFM
  BlockTraversal traversal = BlockTraversal::Default;
  bool accumulator40 = false;  ///< 16-bit IFM, not pooling, every feature map quantised (is_acc_40bits_used)
  bool advancedAddSub = false; ///< Add/Sub whose inputs have different scales
  std::optional<PassWeights> weights;
  bool hasScales = false; ///< the pass streams scales and biases (10 bytes per OFM channel)
  npu::MemoryArea scaleArea = npu::MemoryArea::Unknown;
  int scaleElementBytes = 4; ///< bytes of one bias value in the model (int32, or int64 for 16-bit IFMs)
  /// Bytes of scales and biases read when known (the unencoded biases while a scheduler searches);
  /// otherwise 10 bytes per OFM channel.
  std::optional<std::int64_t> scaleBytes;
  /// The scales are copied once into this memory and read from there (an FSBias tensor).
  std::optional<npu::MemoryArea> scaleBufferArea;
  /// A constant input the pass reads in place besides its operands (a transpose convolution's
  /// output-shape tensor), judged as a brick-format [1, 1, 1, N] feature map read with the IFM block.
  struct ConstantRead {
    std::int64_t bytes = 0;
    int elementBytes = 1;
    int elements = 1;
  };
  std::vector<ConstantRead> constantReads;
  std::optional<npu::ConstantTransfer> lut;
  int lutElementBytes = 1; ///< bytes of one lookup-table entry
  /// The pass is the first NPU pass of its subgraph: its DMA transfers add to the NPU cycles.
  bool firstNpuPass = false;
  /// Memory and type of the OFM the command cycles see when they are not the OFM's: an AvgPool nop
  /// that pass packing made the primary operation of a post-operation writes a clone of its IFM
  /// (create_primary_op), in the IFM's memory before scheduling and of the IFM's type.
  std::optional<npu::MemoryArea> commandOfmArea;
  std::optional<npu::DataType> commandOfmType;
};

/// npu_performance.get_ifm_block_depth.
[[nodiscard]] int ifmBlockDepth(NpuBlockType blockType, int ifmDepth, int ifmBits, BlockTraversal traversal,
                                int ofmBlockDepth);
/// ArchitectureFeatures.get_ifm_block_size (sub-kernels of at most 8x8).
[[nodiscard]] Block ifmBlockSize(const Architecture& arch, int ifmBlockDepth, const Block& ofmBlock,
                                 const npu::Kernel& kernel, npu::Resampling resampling);

/// npu_performance.estimate_memory_transfer_efficiency: `bytes` scaled by the burst efficiency of
/// accessing a feature map of `shape` in blocks of `block`. Vela 2.1 judges every feature map as if
/// stored in the brick format unless it must stay linear (NHWC).
[[nodiscard]] double transferEfficiencyBytes(const Architecture& arch, npu::MemoryArea area, bool isRead,
                                             npu::TensorFormat format, int elementBytes, const npu::Shape4& shape,
                                             const Block& block, double bytes);

/// npu_performance.estimate_output_cycles: cycles to write `elements` OFM elements.
[[nodiscard]] double outputCycles(const Architecture& arch, const PassQuery& query, std::int64_t elements,
                                  bool accumulator40, const std::optional<Block>& elementwiseBlock);

/// npu_performance.estimate_conv_pooling_cycles for the clamped OFM and IFM blocks.
[[nodiscard]] double convolutionPoolingCycles(const Architecture& arch, const PassQuery& query, Block ofmBlock,
                                              const Block& ifmBlock);

/// MACs Vela 2.1 counts for a pass (pooling and elementwise count none).
[[nodiscard]] std::int64_t passMacs(const PassQuery& query);

/// npu_performance.performance_metrics_for_pass after scheduling: cycles per memory, bytes per
/// memory, purpose and direction, MACs.
[[nodiscard]] npu::OperationPerformance estimatePass(const Architecture& arch, const PassQuery& query);

/// Fills in the access cycles of every memory from the burst-scaled bytes, the NPU cycles, and the
/// total as their maximum (npu_performance.update_summary_cycles).
[[nodiscard]] npu::OperationPerformance withAccessCycles(const Architecture& arch, npu::OperationPerformance result,
                                                         const npu::OperationPerformance& scaled, double npuCycles);

/// Whether Vela 2.1 keeps the feature map out of the brick format (avoid_NHCWB16): an operation sees
/// it in another shape, or writes or reads it at a depth offset that is not a multiple of 16. Being
/// stored linearly for another reason (a subgraph boundary, a CPU neighbour) does not count.
[[nodiscard]] bool avoidsBrickFormat(const npu::Subgraph& subgraph, npu::TensorId tensor);

/// How Vela 2.1 upscales the operation's IFM: a property of the tensor there (Tensor.resampling_mode),
/// set by an upscaling reader (a resize's 2x2 pool, any transpose convolution), so every operation
/// reading that tensor as its IFM sees it in its block configs and IFM block.
[[nodiscard]] npu::Resampling ifmResampling(const npu::Subgraph& subgraph, const npu::Operation& op);

/// The shapes Vela 2.1 sees an operation's operands in, for its costs and its block configs alike,
/// starting from the shapes the operation runs with: a concatenation's copy sees the whole output
/// (rewrite_concat_ops); an operation reading part of a tensor (a split's copy, or the reader a split's
/// read was moved into) the whole tensor (rewrite_split_ops, remove_SplitSliceRead); an operation 2.1.1
/// makes after remove_reshapes its tensors' own shapes (set_ifm_ofm_shapes; the lowering keeps the
/// removed RESHAPE's view for running it and records them as "vela21_ifm_shape", "vela21_ifm2_shape",
/// "vela21_ofm_shape").
void operandShapesVela21(const npu::Subgraph& subgraph, const npu::Operation& op, npu::Shape4& ifm, npu::Shape4* ifm2,
                         npu::Shape4& ofm);

/// The memory traffic of an operation Vela 2.1 runs on the CPU (none for its memory-only passes).
[[nodiscard]] std::optional<npu::OperationPerformance>
estimateCpuPass(const Architecture& arch, const npu::Subgraph& subgraph, const npu::Operation& op);

/// Builds the query of a scheduled operation from the framework's context.
[[nodiscard]] PassQuery passQueryFor(const Architecture& arch, const npu::Subgraph& subgraph, const npu::Operation& op,
                                     const npu::PerformanceContext& context);

/// Bytes Vela 2.1 packs per OFM channel for scales and biases (weight_compressor.encode_bias).
inline constexpr int kScaleBiasBytesPerChannel = 10;

} // namespace ethosu::vela2
