// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace npu {

/// Generic classes of operations. They describe what an operation computes, not how a particular
/// accelerator runs it; accelerators map them onto their own hardware blocks.
enum class OpCategory : std::uint32_t {
  None = 0,
  Convolution = 1U << 0,          ///< MxN convolution over an IFM with a weight tensor
  DepthwiseConvolution = 1U << 1, ///< per-channel convolution
  VectorProduct = 1U << 2,        ///< fully connected / matrix multiplication
  Pooling = 1U << 3,              ///< max/average pooling and resampling done by the pooling unit
  ElementwiseUnary = 1U << 4,
  ElementwiseBinary = 1U << 5,
  ReduceSum = 1U << 6,
  Dma = 1U << 7,        ///< a plain memory copy
  Activation = 1U << 8, ///< may be fused into a producing operation
  Concat = 1U << 9,
  Split = 1U << 10,
  MemoryOnly = 1U << 11, ///< changes only the shape metadata (reshape, squeeze, ...)
};

constexpr OpCategory operator|(OpCategory a, OpCategory b) {
  return static_cast<OpCategory>(static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b));
}
constexpr bool hasCategory(OpCategory set, OpCategory flag) {
  return (static_cast<std::uint32_t>(set) & static_cast<std::uint32_t>(flag)) != 0;
}

/// Which inputs of an operation are feature maps, weights and biases (by input index).
enum class OperandLayout : std::uint8_t {
  None,           ///< unknown to the IR; all inputs are treated as plain inputs
  Ifm,            ///< ifm = 0
  IfmIfm2,        ///< ifm = 0, ifm2 = 1
  IfmWeights,     ///< ifm = 0, weights = 1
  IfmWeightsBias, ///< ifm = 0, weights = 1, bias = 2
  Conv2DBackprop, ///< TFLite TRANSPOSE_CONV: output shape = 0, weights = 1, ifm = 2, bias = 3
  TransposeConv,  ///< ifm = 0, weights = 1, bias = 3
  Concat,         ///< ifms = every input
  SplitIfm,       ///< axis = 0, ifm = 1
};

enum class OpType : std::uint16_t {
#define NPU_OP(name, categories, layout) name,
#include "npu/ir/op_types.def"
#undef NPU_OP
};

[[nodiscard]] std::string_view nameOf(OpType type);
[[nodiscard]] std::optional<OpType> opTypeFromName(std::string_view name);
[[nodiscard]] OpCategory categoriesOf(OpType type);
[[nodiscard]] OperandLayout operandLayoutOf(OpType type);
[[nodiscard]] inline bool is(OpType type, OpCategory category) {
  return hasCategory(categoriesOf(type), category);
}
[[nodiscard]] inline bool isElementwise(OpType type) {
  return is(type, OpCategory::ElementwiseUnary) || is(type, OpCategory::ElementwiseBinary);
}
[[nodiscard]] inline bool isBinaryElementwise(OpType type) { return is(type, OpCategory::ElementwiseBinary); }
[[nodiscard]] inline bool isMaxPool(OpType type) {
  return type == OpType::MaxPool || type == OpType::QuantizedMaxPool;
}
[[nodiscard]] inline bool isAvgPool(OpType type) {
  return type == OpType::AvgPool || type == OpType::QuantizedAvgPool;
}
[[nodiscard]] inline bool isReluLike(OpType type) {
  return type == OpType::Relu || type == OpType::Relu6 || type == OpType::ReluN1To1 ||
         type == OpType::ReluN || type == OpType::Clip || type == OpType::Clamp || type == OpType::Relu0To1;
}

} // namespace npu
