// SPDX-License-Identifier: Apache-2.0
#include "ethosu/architecture/npu_block_type.hpp"

#include <array>

namespace ethosu {

// Vela 3.10 operation.py, class Op: the block_type of each OperatorInfo. Kept as an explicit list (not
// derived from npu::OpCategory) because it is the Ethos-U view; a test checks both agree.
NpuBlockType npuBlockTypeOf(npu::OpType type) {
  using npu::OpType;
  switch (type) {
  case OpType::Conv2D:
  case OpType::Conv2DBias:
  case OpType::Conv2DBackpropInput:
  case OpType::Conv2DBackpropInputSwitchedBias:
  case OpType::QuantizedConv2D:
    return NpuBlockType::ConvolutionMxN;
  case OpType::DepthwiseConv2DBias:
    return NpuBlockType::ConvolutionDepthWise;
  case OpType::FullyConnected:
  case OpType::QuantizedMatMul:
    return NpuBlockType::VectorProduct;
  case OpType::AvgPool:
  case OpType::MaxPool:
  case OpType::QuantizedAvgPool:
  case OpType::QuantizedMaxPool:
  case OpType::ResizeBilinear:
  case OpType::ResizeNearestNeighbor:
    return NpuBlockType::Pooling;
  case OpType::Abs:
  case OpType::Add:
  case OpType::CLZ:
  case OpType::Exp:
  case OpType::LeakyRelu:
  case OpType::Maximum:
  case OpType::Minimum:
  case OpType::Mul:
  case OpType::Rsqrt:
  case OpType::SHL:
  case OpType::SHR:
  case OpType::SquaredDifference:
  case OpType::Sub:
    return NpuBlockType::ElementWise;
  case OpType::ReduceSum:
    return NpuBlockType::ReduceSum;
  case OpType::Memcpy:
    return NpuBlockType::Dma;
  default:
    return NpuBlockType::Default;
  }
}

std::string_view nameOf(NpuBlockType type) {
  static constexpr std::array<std::string_view, 8> kNames{
      "Default", "ConvolutionMxN", "VectorProduct", "Pooling", "ConvolutionDepthWise", "ElementWise",
      "Dma",     "ReduceSum"};
  return kNames.at(static_cast<std::size_t>(type));
}

} // namespace ethosu
