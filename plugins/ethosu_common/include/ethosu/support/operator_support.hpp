// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which operations the Ethos-U NPU can run, and why not: the checks of Arm Vela 3.10
// (tflite_model_semantic.py, the asymmetric-weights check of tflite_graph_optimiser.py and
// tflite_supported_operators.py), with Vela's constraint texts and the values that failed.
//
// State of the graph the checks expect
// ------------------------------------
// The graph as the TFLite frontend produces it, i.e. what Vela's reader produces, not yet rewritten:
//  - operation types as Vela's reader maps them (CONV_2D -> Conv2DBias, CONCATENATION -> ConcatTFLite,
//    LOGISTIC -> Sigmoid, ...), inputs in TFLite order (TRANSPOSE_CONV: output shape, weights, ifm, bias),
//    kNoTensor for omitted optional inputs, Operation::sourceType keeping the TFLite name;
//  - weights in TFLite's layout: OHWI for CONV_2D and TRANSPOSE_CONV, [1, H, W, C*M] for
//    DEPTHWISE_CONV_2D, [O, I] for FULLY_CONNECTED. The checks view them the way Vela's reader does
//    (HWIO and [I, O] when constant), so the lowering must not have reordered them yet;
//  - Operation::kernel holding kernel size, stride and dilation; Operation::padding Same/Valid;
//    the fused activation in Operation::activation; TFLite options as snake_case attributes
//    ("axis", "keep_num_dims", "beta", "depth_multiplier", "begin_mask", "align_corners", ...), and,
//    when the frontend could not read some options, their names in the string attribute
//    "attribute_read_error" (comma separated, Vela's convention).
// Vela runs a few rewrites between its semantic checks and its NPU checks (tflite_optimise_graph:
// optimise_quantize, convert_shape_op_to_constant_tensor, check_asymmetric_weights, fixup_pool_strides).
// The checks here account for them themselves: a pooling whose kernel and stride both equal the IFM
// size is judged with stride 1 and VALID padding, a QUANTIZE of a constant and a SHAPE of a known shape
// are judged as folded constants. So the lowering may call checkNpuConstraints() right where Vela calls
// supported_operator_check (first step of its pre-processing, before set_ifm_ofm_op_shapes,
// fixup_reshape and convert_conv_groups), with or without having done those rewrites first, and
// check() on the graph straight from the frontend gives Vela's placement.
//
// Every function is const, keeps no state and may be called from many threads at once.

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ethosu {

enum class NpuGeneration : std::uint8_t { EthosU55, EthosU65 };

/// The architecture facts the checks are configured with. In Vela 3.10 no supported-operator
/// constraint depends on the variant: U55 and U65 at any MAC count accept the same operators (see
/// tflite_supported_operators.py, which takes no architecture). The facts are kept so that a constraint
/// that does differ by variant has its input without a change of interface.
struct SupportArchitecture {
  NpuGeneration generation = NpuGeneration::EthosU55;
  int macsPerCycle = 128;
  /// Vela's --force-symmetric-int-weights: asymmetric int8/int16 weights are forced symmetric instead
  /// of putting the convolution on the CPU.
  bool forceSymmetricIntWeights = false;
};

/// Which step of Vela's checking a verdict comes from; decides how Vela words its log line.
enum class SupportStage : std::uint8_t {
  Semantic,          ///< tflite_model_semantic: "Unsupported TensorFlow Lite semantics for ..."
  AsymmetricWeights, ///< check_asymmetric_weights: "... has asymmetric weights."
  OperatorType,      ///< not an NPU operator type at all: "... is a CPU only op"
  NpuConstraint,     ///< tflite_supported_operators: "... is not supported on the NPU."
};

/// The full answer for one operation: which constraint failed, its text and the failing values.
struct SupportDiagnosis {
  bool supported = true;
  SupportStage stage = SupportStage::NpuConstraint;
  std::string constraint;  ///< short id, e.g. "stride_range"; empty when supported
  std::string description; ///< Vela's constraint text; continuation lines keep Vela's indentation
  std::string detail;      ///< the values that failed, worded as Vela prints them; may be empty

  /// One-line sentence for reports: the description with its lines joined, then the detail.
  [[nodiscard]] std::string reason() const;
  [[nodiscard]] npu::SupportVerdict verdict() const;
};

class OperatorSupportChecker final : public npu::OperatorSupport {
public:
  explicit OperatorSupportChecker(SupportArchitecture architecture = {});

  /// Semantic checks, then the asymmetric-weights check, then the NPU constraints: Vela's placement.
  [[nodiscard]] npu::SupportVerdict check(const npu::Subgraph& subgraph, const npu::Operation& op) const override;
  /// Per NPU operator type, the semantic checks then the NPU constraints, in the order check() runs them.
  [[nodiscard]] std::vector<npu::SupportedOperatorType> describe() const override;
  [[nodiscard]] SupportDiagnosis diagnose(const npu::Subgraph& subgraph, const npu::Operation& op) const;

  /// Only tflite_model_semantic's checks (Vela runs them right after reading the model).
  [[nodiscard]] SupportDiagnosis checkSemantics(const npu::Subgraph& subgraph, const npu::Operation& op) const;
  /// The asymmetric-weights check and tflite_supported_operators' checks, for operations that passed
  /// checkSemantics (Vela's supported_operator_check).
  [[nodiscard]] SupportDiagnosis checkNpuConstraints(const npu::Subgraph& subgraph, const npu::Operation& op) const;

  [[nodiscard]] const SupportArchitecture& architecture() const { return architecture_; }

private:
  SupportArchitecture architecture_;
};

/// The TFLite operator name Vela prints for an operation ("CONV_2D", "CUSTOM"): the frontend's
/// sourceType without a custom code, else the name of the operation type.
[[nodiscard]] std::string tfliteOperatorName(const npu::Operation& op);

/// The lines Vela 3.10 logs for a CPU placement, e.g.
///   Warning: CONV_2D 'name' is not supported on the NPU. Placing on CPU instead
///    - <description>
///      <detail>
/// Empty for a supported operation.
[[nodiscard]] std::string velaLogText(const SupportDiagnosis& diagnosis, const npu::Operation& op);

} // namespace ethosu
