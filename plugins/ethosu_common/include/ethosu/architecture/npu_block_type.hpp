// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/ir/op_type.hpp"

#include <cstdint>
#include <string_view>

namespace ethosu {

/// The hardware unit of the NPU that runs an operation (Vela's NpuBlockType).
enum class NpuBlockType : std::uint8_t {
  Default, ///< not an NPU operation
  ConvolutionMxN,
  VectorProduct,
  Pooling,
  ConvolutionDepthWise,
  ElementWise,
  Dma,
  ReduceSum,
};

/// The block type an operation type runs on, following Vela's operation.Op table.
[[nodiscard]] NpuBlockType npuBlockTypeOf(npu::OpType type);
[[nodiscard]] std::string_view nameOf(NpuBlockType type);

/// True for the block types that compute with weights or accumulate (convolution-like units).
[[nodiscard]] constexpr bool usesAccumulators(NpuBlockType type) {
  return type == NpuBlockType::ConvolutionMxN || type == NpuBlockType::ConvolutionDepthWise ||
         type == NpuBlockType::VectorProduct || type == NpuBlockType::Pooling || type == NpuBlockType::ReduceSum;
}

} // namespace ethosu
