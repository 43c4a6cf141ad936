// SPDX-License-Identifier: Apache-2.0
// The generic semantic constraints of Vela 3.10 (tflite_model_semantic.py, TFLiteSemantic): what every
// TFLite operator must satisfy before Vela considers it for the NPU at all.
//
// Two of Vela's generic checks have no counterpart here because our IR cannot express their failure:
// constraint_tens_defined_shape (dimensions are always known integers) and, among the specific ones,
// constraint_stride_type, constraint_dilation_type and constraint_filter_type (kernel values are ints).

#include "constraint.hpp"
#include "python_format.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace ethosu::support::semantic {

using npu::OpType;

namespace {

ConstraintResult checkAttributesSpecified(const OperationView& view) {
  const std::string missing = view.op().attributes.getOr<std::string>("attribute_read_error", "");
  std::vector<std::string> names;
  std::stringstream stream(missing);
  for (std::string name; std::getline(stream, name, ',');) {
    const auto first = name.find_first_not_of(' ');
    if (first != std::string::npos) {
      names.push_back(name.substr(first));
    }
  }
  return {names.empty(), "Op has missing attributes: " + joined(names)};
}

ConstraintResult checkTensNoDynamic(const OperationView& view) {
  std::vector<std::string> names;
  for (const npu::Tensor* tensor : view.presentInputsAndOutputs()) {
    if (tensor->shape.isScalar() && !tensor->isConstant()) {
      names.push_back(tensor->name);
    }
  }
  return {names.empty(), "Op has dynamic tensor(s): " + joined(names)};
}

ConstraintResult checkTensOutputScalar(const OperationView& view) {
  const npu::Tensor* ofm = view.ofm();
  const bool valid = ofm == nullptr || !ofm->shape.isScalar();
  return {valid, "Output Tensor '" + nameOrNone(ofm) + "' is scalar"};
}

bool acceptsScalarInputs(OpType type) {
  switch (type) {
  case OpType::Add:
  case OpType::Mul:
  case OpType::Sub:
  case OpType::Minimum:
  case OpType::Maximum:
  case OpType::SHL:
  case OpType::SHR:
  case OpType::Split:
  case OpType::SplitV:
  case OpType::Mean:
  case OpType::ExpandDims:
  case OpType::Quantize:
  case OpType::ArgMax: return true;
  default: return false;
  }
}

ConstraintResult checkTensInputScalar(const OperationView& view) {
  std::vector<std::string> names;
  for (const npu::Tensor* tensor : view.presentInputs()) {
    if (view.velaShape(*tensor).isScalar() && !acceptsScalarInputs(view.type())) {
      names.push_back(tensor->name);
    }
  }
  return {names.empty(), "Op has scalar input tensor(s): " + joined(names)};
}

ConstraintResult checkTensShapeSize(const OperationView& view) {
  std::vector<std::string> failures;
  for (const npu::Tensor* tensor : view.presentInputsAndOutputs()) {
    if (const npu::Shape shape = view.velaShape(*tensor); shape.rank() > 4) {
      failures.push_back("Tensor '" + tensor->name + "' has shape: " + pythonList(shape));
    }
  }
  return {failures.empty(), joined(failures)};
}

ConstraintResult checkTensQuantNoneCheck(const OperationView& view) {
  std::vector<std::string> names;
  for (const npu::Tensor* tensor : view.ifmIfm2WeightsOfm()) {
    if (tensor->quantisation.empty()) {
      names.push_back(tensor->name);
    }
  }
  return {names.empty(), "Op has tensors with missing quantization parameters: " + joined(names)};
}

ConstraintResult checkTensQuantScale(const OperationView& view) {
  std::vector<std::string> failures;
  for (const npu::Tensor* tensor : view.ifmIfm2WeightsOfm()) {
    const auto& scales = tensor->quantisation.scale;
    const bool infinite = std::any_of(scales.begin(), scales.end(), [](double s) { return std::isinf(s); });
    if (infinite) {
      failures.push_back("Tensor '" + tensor->name + "' has quantization scale: " + numpyFloat32(scales));
    }
  }
  return {failures.empty(), joined(failures)};
}

ConstraintResult checkQuantScaleInf(const OperationView& view) {
  // Vela compares float32 scales: the smallest normal float32, and the IFM/OFM ratio in float32
  constexpr float kTiny = std::numeric_limits<float>::min();
  const npu::Tensor* ofm = view.ofm();
  if (ofm == nullptr || !isQuantized(*ofm)) {
    return {true, "Op's quantization is ok"};
  }
  const auto& ofmScales = ofm->quantisation.scale;
  const bool tooSmall =
      std::any_of(ofmScales.begin(), ofmScales.end(), [](double s) { return static_cast<float>(s) < kTiny; });
  if (tooSmall) {
    return {false, "The quantization scale of the output tensor is " + numpyFloat32(ofmScales) +
                       ", minimum supported is: " + numpyFloat32(std::vector<double>{kTiny})};
  }
  const npu::Tensor* ifm = view.ifm();
  if (ifm != nullptr && isQuantized(*ifm)) {
    const auto& ifmScales = ifm->quantisation.scale;
    const std::size_t count = std::max(ifmScales.size(), ofmScales.size());
    for (std::size_t i = 0; i < count; ++i) {
      const float ratio = static_cast<float>(ifmScales[std::min(i, ifmScales.size() - 1)]) /
                          static_cast<float>(ofmScales[std::min(i, ofmScales.size() - 1)]);
      if (std::isinf(ratio)) {
        return {false, "IFM scale divided by OFM scale is infinite, ifm_scale=" + numpyFloat32(ifmScales) +
                           " ofm_scale=" + numpyFloat32(ofmScales)};
      }
    }
  }
  return {true, "Op's quantization is ok"};
}

ConstraintResult checkNoneConstTensors(const OperationView& view) {
  std::string last;
  bool valid = true;
  for (std::size_t i = 0; i < view.inputCount(); ++i) {
    if (view.isConstantWithoutValues(view.inputId(i))) {
      valid = false;
      last = view.input(i)->name;
    }
  }
  return {valid, "Unexpected None value for constant tensor: " + last};
}

} // namespace

const Constraint attributesSpecified{"attributes_specified", "All required operator attributes must be specified",
                                     checkAttributesSpecified};
const Constraint tensNoDynamic{"tens_no_dynamic", "Input(s) and Output tensors must not be dynamic",
                               checkTensNoDynamic};
const Constraint tensOutputScalar{"tens_output_scalar", "Output tensors cannot be scalar", checkTensOutputScalar};
const Constraint tensInputScalar{"tens_input_scalar",
                                 "Scalar Input tensors are only valid for op type: ADD, ARG_MAX, EXPAND_DIMS, "
                                 "MAXIMUM, MEAN, MINIMUM, MUL, QUANTIZE, SPLIT, SPLIT_V, SUB",
                                 checkTensInputScalar};
const Constraint tensShapeSize{"tens_shape_size", "Input(s) and Output tensors must not be greater than 4D",
                               checkTensShapeSize};
const Constraint tensQuantNoneCheck{"tens_quant_none_check",
                                    "Input(s), Output and Weight tensors must have quantization parameters",
                                    checkTensQuantNoneCheck};
const Constraint tensQuantScale{"tens_quant_scale",
                                "Input(s), Output and Weight tensors with quantization scales must be finite",
                                checkTensQuantScale};
const Constraint quantScaleInf{"quant_scale_inf",
                               "Input and Output tensors must have quantization scales that fit within float32 "
                               "precision",
                               checkQuantScaleInf};
const Constraint noneConstTensors{"none_const_tensors", "Constant tensors should not have NoneType-values",
                                  checkNoneConstTensors};

} // namespace ethosu::support::semantic
