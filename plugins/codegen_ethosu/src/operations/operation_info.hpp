// SPDX-License-Identifier: Apache-2.0
#pragma once

// What every NPU operation generated for one scheduled operation shares: its kind, its feature maps as
// stored, quantisation, kernel, activation, scaling and weights (Vela: the pass and its primary
// operation as high_level_command_to_npu_op reads them).

#include "layout/feature_map_storage.hpp"
#include "layout/read_only_area.hpp"

#include "codegen_ethosu/npu_operation.hpp"

#include "ethosu/architecture/npu_block_type.hpp"

#include "npu/ir/graph.hpp"

#include <array>
#include <optional>
#include <string>

namespace ethosu::codegen {

/// A feature map operand: how it is stored and how the operation sees it.
struct OperandInfo {
  StoredTensor storage;
  npu::Shape4 shape; ///< the operation's 4D view (Vela's ps.ifm_shapes / ofm_shapes)
  NpuDataType type = NpuDataType::Int8;
  std::optional<Quantisation> quantisation;
  std::array<std::int64_t, 4> tileOffsets{}; ///< added to the tile base addresses
  /// The one row of pixels the operand is stored as when `shape` cuts it into rows (the strides are
  /// those of the row, with a row stride of `shape.width` pixels).
  std::optional<npu::Shape4> storedAs;
};

struct OperationInfo {
  std::string name;
  NpuBlockType blockType = NpuBlockType::Default;
  BlockOperation::Kind kind = BlockOperation::Kind::Conv2D;
  bool memoryCopy = false; ///< runs as a DMA of the IFM to the OFM
  PoolingFunction pooling = PoolingFunction::Max;
  ElementwiseFunction elementwise = ElementwiseFunction::Add;
  bool unary = false;

  OperandInfo ifm;
  std::optional<OperandInfo> ifm2;
  std::optional<double> ifm2Scalar; ///< IFM2 is a scalar constant of this real value
  OperandInfo ofm;
  std::array<int, 3> ofmStrideMultiplier{1, 1, 1}; ///< c, h, w
  bool ofmTransposed = false;                      ///< the OFM's height and width strides are swapped (a transpose)
  bool reversedOperands = false;
  /// IFM and IFM2 were swapped for the hardware (a broadcast or scalar operand must be IFM2) after the
  /// stripes were planned: each stripe's IFM and IFM2 boxes swap too.
  bool swappedForHardware = false;

  std::optional<NpuKernel> kernel;
  npu::ExplicitPadding explicitPadding;
  bool tilePadding = false;
  /// An elementwise OFM written in its IFM's shape (the scheduled stripes are in the OFM's own shape).
  bool ofmReshaped = false;
  std::optional<npu::Shape4> ifmReadOffset; ///< for the padding of split reads
  std::optional<npu::Shape4> ifmReadShape;

  NpuActivation activation;
  NpuRounding rounding = NpuRounding::TFLite;
  bool fusedQuantize = false;
  NpuResampling upscale = NpuResampling::None;
  BlockTraversal traversal = BlockTraversal::DepthFirst;
  Rescale rescale;
  std::optional<double> ofmScaleOverride; ///< the OFM scale the registers use instead of the tensor's
  Shape3 blockConfig;

  const OperationWeights* weights = nullptr;
  int weightRegion = 0;
  std::array<std::int64_t, 2> weightBufferAddresses{};
  int weightBufferRegion = 1;
  bool weightBuffersHoldScales = true; ///< see npu::WeightPlan::buffersHoldScales

  npu::TensorId lookupTable = npu::kNoTensor;
  std::int64_t lookupTableSourceAddress = 0; ///< in the read-only area
  std::int64_t lookupTableBytes = 0;
};

} // namespace ethosu::codegen
