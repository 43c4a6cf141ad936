// SPDX-License-Identifier: Apache-2.0
#pragma once

// An operation seen the way Vela's supported-operator checks see it: Vela's operand roles (which may
// differ from the IR's, e.g. CONCATENATION's IFMs are inputs 1 and 2 in Vela), weights in Vela's HWIO
// layout, kernel geometry after fixup_pool_strides, and "constant" meaning "driven by no operation or
// by one Vela folds into a constant".

#include "npu/ir/graph.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ethosu::support {

/// Kernel geometry as Vela's Operation.kernel reports it, strides after fixup_pool_strides.
struct KernelGeometry {
  int width = 1;
  int height = 1;
  int strideX = 1;
  int strideY = 1;
  int dilationX = 1;
  int dilationY = 1;

  [[nodiscard]] int areaWidth() const { return (width - 1) * dilationX + 1; }
  [[nodiscard]] int areaHeight() const { return (height - 1) * dilationY + 1; }
};

class OperationView {
public:
  OperationView(const npu::Subgraph& subgraph, const npu::Operation& op);

  [[nodiscard]] const npu::Subgraph& subgraph() const { return subgraph_; }
  [[nodiscard]] const npu::Operation& op() const { return op_; }
  [[nodiscard]] npu::OpType type() const { return op_.type; }

  /// Number of input slots, omitted optional inputs included (Python's len(op.inputs)).
  [[nodiscard]] std::size_t inputCount() const { return op_.inputs.size(); }
  /// The i-th input, null when the slot is absent or omitted.
  [[nodiscard]] const npu::Tensor* input(std::size_t index) const;
  [[nodiscard]] const npu::Tensor* output(std::size_t index = 0) const;
  [[nodiscard]] npu::TensorId inputId(std::size_t index) const { return op_.input(index); }

  /// Operand roles by Vela's tensor indices for the operation type (operation.py, Op.info.indices).
  [[nodiscard]] const npu::Tensor* ifm() const;
  [[nodiscard]] const npu::Tensor* ifm2() const;
  [[nodiscard]] const npu::Tensor* weights() const;
  [[nodiscard]] const npu::Tensor* bias() const;
  [[nodiscard]] const npu::Tensor* ofm() const { return output(0); }
  /// Vela's get_ifm_ifm2_weights_ofm(), absent roles dropped.
  [[nodiscard]] std::vector<const npu::Tensor*> ifmIfm2WeightsOfm() const;
  /// Present inputs (Vela: `[t for t in op.inputs if t]`), and the same followed by the outputs.
  [[nodiscard]] std::vector<const npu::Tensor*> presentInputs() const;
  [[nodiscard]] std::vector<const npu::Tensor*> presentInputsAndOutputs() const;

  /// Shape of the weights as Vela's reader leaves them: constant convolution weights reordered from
  /// OHWI (depthwise [1, H, W, C*M]) to HWIO, constant fully connected weights from [O, I] to [I, O].
  [[nodiscard]] std::vector<int> velaWeightShape() const;
  /// A tensor's shape as Vela's reader leaves it for this operation: constant weights as in
  /// velaWeightShape(), a constant bias (the last input) flattened to one dimension; others unchanged.
  [[nodiscard]] npu::Shape velaShape(const npu::Tensor& tensor) const;
  [[nodiscard]] KernelGeometry kernel() const;
  /// Padding after fixup_pool_strides (global pooling becomes VALID).
  [[nodiscard]] npu::Padding padding() const;
  /// The depth multiplier, derived from the weights when the model gives 0 (as Vela's reader does).
  [[nodiscard]] std::int64_t depthMultiplier() const;

  /// Vela's `len(tens.ops) == 0 or tens.ops[0].type == Op.Const` when the pre-check rewrites have run.
  [[nodiscard]] bool drivenByConstant(npu::TensorId id) const;
  /// A tensor Vela's reader would give a Const operation although it has no data.
  [[nodiscard]] bool isConstantWithoutValues(npu::TensorId id) const;

private:
  [[nodiscard]] const npu::Tensor* tensorAt(npu::TensorId id) const;
  [[nodiscard]] bool isGlobalPooling() const;

  [[nodiscard]] bool hasProducer(npu::TensorId id) const;

  const npu::Subgraph& subgraph_;
  const npu::Operation& op_;
};

/// Index of the operation producing `id` in the subgraph, or nullopt.
[[nodiscard]] std::optional<std::size_t> producerOf(const npu::Subgraph& subgraph, npu::TensorId id);

/// Integer contents of a constant tensor; nullopt when it has no data or is not of an integer type.
[[nodiscard]] std::optional<std::vector<std::int64_t>> integerValues(const npu::Tensor* tensor);

/// Vela's Tensor.is_quantized(): an integer type with a scale and a zero point.
[[nodiscard]] bool isQuantized(const npu::Tensor& tensor);
/// Vela's QuantizationParameters.is_per_axis().
[[nodiscard]] bool isPerAxis(const npu::Quantisation& quantisation);
/// Vela's check_quantized_tens_scaling_equal().
[[nodiscard]] bool quantisedScalingEqual(const npu::Tensor& a, const npu::Tensor& b);
/// Shape as Vela's full_shape(4, shape, 1): leading ones up to rank four.
[[nodiscard]] std::vector<int> fullShape4(const npu::Shape& shape);

/// TFLite's builtin operator name of a type as Vela's optype_to_builtintype() gives it ("LOGISTIC" for
/// Sigmoid), or "UNKNOWN" for types without one.
[[nodiscard]] std::string_view builtinNameOf(npu::OpType type);

/// Whether Vela turns the operation into a constant before its NPU checks: optimise_quantize folds a
/// QUANTIZE of a constant, convert_shape_op_to_constant_tensor a SHAPE of a known rank.
[[nodiscard]] bool foldedIntoConstant(const npu::Subgraph& subgraph, const npu::Operation& op);

/// "None" or the tensor's name.
[[nodiscard]] std::string nameOrNone(const npu::Tensor* tensor);

} // namespace ethosu::support
