// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small building blocks the lowering passes share: creating tensors and derived operations, 4D
// shapes, quantisation helpers, and the loop that replaces operations by their rewrites.

#include "npu/ir/graph.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ethosu::lowering {

/// An operation created while lowering `origin`: keeps its source operator and index, runs on the NPU.
[[nodiscard]] npu::Operation deriveOperation(const npu::Operation& origin, npu::OpType type, std::string name);

/// A non-constant feature map tensor.
npu::TensorId addFeatureMap(npu::Subgraph& subgraph, std::string name, npu::Shape shape, npu::DataType type,
                            npu::Quantisation quantisation);
/// A constant tensor holding `values` converted to `type` (little-endian).
npu::TensorId addConstant(npu::Subgraph& subgraph, std::string name, npu::Shape shape, npu::DataType type,
                          std::span<const std::int64_t> values, npu::Quantisation quantisation = {},
                          npu::TensorPurpose purpose = npu::TensorPurpose::Unknown);
/// A copy of a tensor's description (no data) under a new name.
npu::TensorId cloneTensor(npu::Subgraph& subgraph, npu::TensorId source, const std::string& suffix);

[[nodiscard]] npu::Shape4 shape4Of(const npu::Subgraph& subgraph, npu::TensorId tensor);
[[nodiscard]] npu::Shape toShape(const npu::Shape4& shape);
/// A list of up to four values as a Shape4, padded in front with `fill` (Vela Shape4D.from_list).
[[nodiscard]] npu::Shape4 shape4FromList(const std::vector<std::int64_t>& values, int fill);
/// An equivalence id no tensor of the subgraph uses yet.
[[nodiscard]] std::int64_t freshEquivalenceId(const npu::Subgraph& subgraph);
/// Makes the constant `tensor` equivalent to every other constant given to this function with the same
/// values (whatever their shapes and types): such constants are stored once. Vela does this for the
/// constants it creates with create_equivalence_id(tuple(values)), a cache over the values (zero biases
/// of fully connected layers and of MEAN, MEAN's all-ones weights, the fill of padded concatenations).
void shareByContent(npu::Subgraph& subgraph, npu::TensorId tensor);
/// Whether shareByContent gave the tensor its equivalence.
[[nodiscard]] bool isSharedByContent(const npu::Tensor& tensor);

/// Quantisation with scale 1 and zero point 0.
[[nodiscard]] npu::Quantisation unitQuantisation();
/// The same zero point without a scale (Vela's "no_scale_quant": values pass through unscaled).
[[nodiscard]] npu::Quantisation withoutScale(const npu::Quantisation& quantisation);
/// Smallest and largest quantised value of a type (Vela's quant_min/quant_max).
[[nodiscard]] std::int64_t quantisedMin(npu::DataType type);
[[nodiscard]] std::int64_t quantisedMax(npu::DataType type);
/// True when both tensors have the same scale and zero point (Vela: check_quantized_tens_scaling_equal).
[[nodiscard]] bool sameScaling(const npu::Tensor& a, const npu::Tensor& b);

/// Vela's set_ifm_ofm_shapes: fills ifmShapes/ofmShapes from the operand tensors.
void setDefaultShapes(const npu::Subgraph& subgraph, npu::Operation& op);

/// Vela's quantise_scale: multiplier (31 bits) and shift of a real scale.
struct QuantisedScale {
  std::int32_t multiplier = 0;
  int shift = 0;
};
[[nodiscard]] QuantisedScale quantiseScale(double scale);

/// Records Vela's explicit_scaling on an operation.
void setExplicitScaling(npu::Operation& op, std::vector<std::int64_t> shifts, std::vector<std::int64_t> multipliers);

/// The activation a stand-alone activation operation (RELU, RELU6, ..., LOGISTIC, TANH) applies when fused
/// into another operation, with the clamp range of the ReLU kinds (Vela create_activation_function).
[[nodiscard]] npu::Activation activationFromOperation(const npu::Operation& op);

/// Sets a LUT activation (Vela: set_activation_lut).
void setLutActivation(npu::Operation& op, npu::TensorId lut);

/// How many times the tensor is read: by operations, plus one if it is a subgraph output (Vela keeps a
/// None consumer for the graph's outputs).
[[nodiscard]] int consumerCount(const npu::Subgraph& subgraph, npu::TensorId tensor);
/// The same, counting only the operations `counted` marks (indexed like subgraph.operations).
[[nodiscard]] int consumerCount(const npu::Subgraph& subgraph, npu::TensorId tensor, const std::vector<bool>& counted);
/// The operations writing the tensor (indices into subgraph.operations).
[[nodiscard]] std::vector<npu::OperationId> producersOf(const npu::Subgraph& subgraph, npu::TensorId tensor);
[[nodiscard]] std::vector<npu::OperationId> consumersOf(const npu::Subgraph& subgraph, npu::TensorId tensor);
[[nodiscard]] bool isSubgraphInput(const npu::Subgraph& subgraph, npu::TensorId tensor);
[[nodiscard]] bool isSubgraphOutput(const npu::Subgraph& subgraph, npu::TensorId tensor);
/// Replaces every read of `from` (operation inputs and subgraph outputs) by `to`.
void replaceTensorReads(npu::Subgraph& subgraph, npu::TensorId from, npu::TensorId to);

/// Replaces each operation by what `rewrite` returns for it (nullopt keeps it). The replacements are
/// offered to `rewrite` again, so rewrites must be idempotent; the subgraph's operation list is only
/// swapped at the end, so `rewrite` sees the operations as they were before the pass.
using OperationRewrite =
    std::function<std::optional<std::vector<npu::Operation>>(npu::Subgraph&, const npu::Operation&)>;
void rewriteEach(npu::Subgraph& subgraph, const OperationRewrite& rewrite);

/// Integer attribute lists (Vela stores tuples such as "explicit_padding" or "strides").
[[nodiscard]] std::vector<std::int64_t> integerList(const npu::Attributes& attributes, std::string_view key);

} // namespace ethosu::lowering
