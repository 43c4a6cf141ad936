// SPDX-License-Identifier: Apache-2.0
#include "ethosu/support/operator_support.hpp"

#include "constraint.hpp"
#include "operation_view.hpp"

#include <algorithm>
#include <sstream>

namespace ethosu {

using npu::OpType;
using support::OperationView;

namespace {

SupportDiagnosis failed(SupportStage stage, std::string constraint, std::string description, std::string detail) {
  return {false, stage, std::move(constraint), std::move(description), std::move(detail)};
}

SupportDiagnosis fromFailure(SupportStage stage, const support::ConstraintFailure& failure) {
  if (failure.constraint == nullptr) {
    return {};
  }
  return failed(stage, std::string(failure.constraint->id), std::string(failure.constraint->description),
                failure.detail);
}

bool hasConvolutionWeights(OpType type) {
  // Vela's detect_asymmetric_weights: ConvolutionMxN and ConvolutionDepthWise block types
  return type == OpType::Conv2D || type == OpType::Conv2DBias || type == OpType::QuantizedConv2D ||
         type == OpType::Conv2DBackpropInput || type == OpType::Conv2DBackpropInputSwitchedBias ||
         type == OpType::DepthwiseConv2DBias;
}

/// tflite_graph_optimiser.py, check_asymmetric_weights: int8/int16 convolutions need symmetric weights.
bool hasAsymmetricWeights(const OperationView& view) {
  if (!hasConvolutionWeights(view.type()) || view.ifm() == nullptr || view.weights() == nullptr) {
    return false;
  }
  const npu::DataType ifmType = view.ifm()->type;
  if (ifmType != npu::DataType::Int8 && ifmType != npu::DataType::Int16) {
    return false;
  }
  const auto& zeroPoints = view.weights()->quantisation.zeroPoint;
  return std::any_of(zeroPoints.begin(), zeroPoints.end(), [](std::int64_t zero) { return zero != 0; });
}

/// Trims the indentation of each line and joins the lines with `separator`.
std::string flattened(const std::string& text, const std::string& separator) {
  std::istringstream lines(text);
  std::string result;
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(' ');
    if (first == std::string::npos) {
      continue;
    }
    result += (result.empty() ? "" : separator) + line.substr(first);
  }
  return result;
}

} // namespace

std::vector<npu::SupportedOperatorType> OperatorSupportChecker::describe() const {
  std::vector<npu::SupportedOperatorType> types;
  for (const OpType type : support::npuOperatorTypes()) {
    npu::SupportedOperatorType entry{std::string(npu::nameOf(type)), {}};
    for (const auto& table : {support::semanticConstraintsFor(type), support::npuConstraintsFor(type)}) {
      for (const support::Constraint* constraint : table) {
        entry.constraints.push_back(
            {std::string(constraint->id), flattened(std::string(constraint->description), " ")});
      }
    }
    types.push_back(std::move(entry));
  }
  return types;
}

std::string SupportDiagnosis::reason() const {
  if (supported) {
    return {};
  }
  std::string text = flattened(description, " ");
  if (!detail.empty()) {
    text += " (" + flattened(detail, "; ") + ")";
  }
  return text;
}

npu::SupportVerdict SupportDiagnosis::verdict() const { return {supported, constraint, reason()}; }

OperatorSupportChecker::OperatorSupportChecker(SupportArchitecture architecture) : architecture_(architecture) {}

npu::SupportVerdict OperatorSupportChecker::check(const npu::Subgraph& subgraph, const npu::Operation& op) const {
  return diagnose(subgraph, op).verdict();
}

SupportDiagnosis OperatorSupportChecker::diagnose(const npu::Subgraph& subgraph, const npu::Operation& op) const {
  SupportDiagnosis semantic = checkSemantics(subgraph, op);
  if (!semantic.supported) {
    return semantic;
  }
  return checkNpuConstraints(subgraph, op);
}

SupportDiagnosis OperatorSupportChecker::checkSemantics(const npu::Subgraph& subgraph, const npu::Operation& op) const {
  if (support::isGraphPlaceholder(op.type)) {
    return {};
  }
  const OperationView view(subgraph, op);
  return fromFailure(SupportStage::Semantic, support::firstFailure(support::semanticConstraintsFor(op.type), view));
}

SupportDiagnosis OperatorSupportChecker::checkNpuConstraints(const npu::Subgraph& subgraph,
                                                             const npu::Operation& op) const {
  if (support::isGraphPlaceholder(op.type)) {
    return {};
  }
  const OperationView view(subgraph, op);
  if (!architecture_.forceSymmetricIntWeights && hasAsymmetricWeights(view)) {
    return failed(SupportStage::AsymmetricWeights, "asymmetric_weights",
                  "Weights of convolutions with int8 or int16 IFMs must be symmetric (zero points of 0)",
                  "Op has asymmetric weights. To run the operator on Ethos-U use the option "
                  "--force-symmetric-int-weights");
  }
  if (support::foldedIntoConstant(subgraph, op)) {
    return {}; // Vela computes it at compile time: it runs nowhere
  }
  if (!support::isNpuOperatorType(op.type)) {
    return failed(SupportStage::OperatorType, "operator_type", "Op type is not supported by the NPU (a CPU only op)",
                  "Op type is " + tfliteOperatorName(op));
  }
  return fromFailure(SupportStage::NpuConstraint, support::firstFailure(support::npuConstraintsFor(op.type), view));
}

std::string tfliteOperatorName(const npu::Operation& op) {
  if (!op.sourceType.empty()) {
    return op.sourceType.substr(0, op.sourceType.find(':'));
  }
  const std::string_view builtin = support::builtinNameOf(op.type);
  return std::string(builtin == "UNKNOWN" ? npu::nameOf(op.type) : builtin);
}

std::string velaLogText(const SupportDiagnosis& diagnosis, const npu::Operation& op) {
  if (diagnosis.supported) {
    return {};
  }
  const std::string quotedName = "'" + op.name + "'";
  const std::string placing = ". Placing on CPU instead\n";
  std::string text;
  switch (diagnosis.stage) {
  case SupportStage::OperatorType: return "Info: " + tfliteOperatorName(op) + " " + quotedName + " is a CPU only op\n";
  case SupportStage::AsymmetricWeights:
    return "Warning: Op " + std::string(npu::nameOf(op.type)) + " " + quotedName + " has asymmetric weights. " +
           "To run the operator on Ethos-U use the option --force-symmetric-int-weights\n";
  case SupportStage::Semantic:
    text = "Warning: Unsupported TensorFlow Lite semantics for " + tfliteOperatorName(op) + " " + quotedName + placing;
    break;
  case SupportStage::NpuConstraint:
    text = "Warning: " + tfliteOperatorName(op) + " " + quotedName + " is not supported on the NPU" + placing;
    break;
  }
  text += " - " + diagnosis.description + "\n";
  if (!diagnosis.detail.empty()) {
    text += "   " + diagnosis.detail + "\n";
  }
  return text;
}

} // namespace ethosu
