// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the Ethos-U model needs to know about one operation of the IR, read once from the subgraph:
// block type, kernel, data types, fused activation, LUT use, scaling and operand roles.

#include "ethosu/architecture/npu_block_type.hpp"

#include "npu/ir/graph.hpp"

#include <optional>

namespace ethosu {

struct OperationTraits {
  npu::OpType type = npu::OpType::Unknown;
  NpuBlockType blockType = NpuBlockType::Default;
  npu::Kernel kernel;                    ///< 1x1 when the operation has none
  std::optional<npu::OpType> activation; ///< fused activation function
  bool usesLookupTable = false;          ///< a LUT is loaded into SHRAM for the activation
  bool scaled = true;                    ///< every feature map is quantised (Operation.has_scaling)
  bool usesScalar = false;               ///< binary operation with a scalar (rank 0) operand
  bool primaryIsIfm2 = false;            ///< the scheduler reads IFM2 as the primary input
  npu::Resampling resampling = npu::Resampling::None;
  npu::DataType ifmType = npu::DataType::Int8; ///< of the primary input (after any swap)
  npu::DataType ifm2Type = npu::DataType::Int8;
  npu::DataType ofmType = npu::DataType::Int8;
  bool hasBias = false;
  std::int64_t originalWeightElements = 0; ///< elements of the unencoded weight tensor
};

/// Reads the traits of `op` from `subgraph`.
[[nodiscard]] OperationTraits traitsOf(const npu::Subgraph& subgraph, const npu::Operation& op);

/// Vela's SchedulerOperation operand swap: a binary elementwise operation whose IFM is constant or scalar
/// while IFM2 is neither (nor broadcast) is scheduled with IFM2 as its primary input.
[[nodiscard]] bool primaryInputIsIfm2(const npu::Subgraph& subgraph, const npu::Operation& op);

} // namespace ethosu
