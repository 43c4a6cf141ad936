// SPDX-License-Identifier: Apache-2.0
// The operator-specific semantic constraints of Vela 3.10 (tflite_model_semantic.py, TFLiteSemantic).
// Where Vela would raise a Python exception on a malformed operator (a missing input, a division by
// zero), the constraint fails instead: the operator then stays on the CPU with a reason.

#include "constraint.hpp"
#include "python_format.hpp"

#include <algorithm>

namespace ethosu::support::semantic {

using npu::DataType;
using npu::Tensor;

namespace {

std::string dtypeName(const Tensor* tensor) {
  return tensor == nullptr ? "None" : std::string(npu::nameOf(tensor->type));
}

std::string shapeOrNone(const Tensor* tensor) { return tensor == nullptr ? "None" : pythonList(tensor->shape); }

/// Python's a // b and a % b (floor semantics); b must not be zero.
std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
  const std::int64_t quotient = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? quotient - 1 : quotient;
}
std::int64_t floorMod(std::int64_t a, std::int64_t b) { return a - floorDiv(a, b) * b; }

ConstraintResult checkConvGroupsIfmDepth(const OperationView& view) {
  const std::vector<int> weights = view.velaWeightShape();
  const Tensor* ifm = view.ifm();
  if (ifm == nullptr || ifm->shape.rank() == 0 || weights.size() < 2) {
    return {false, "IFM depth = None and filter kernel depth = None"};
  }
  const int ifmDepth = ifm->shape.back(0);
  const int kernelDepth = weights[weights.size() - 2];
  const bool valid = kernelDepth != 0 && floorMod(ifmDepth, kernelDepth) == 0;
  return {valid,
          "IFM depth = " + std::to_string(ifmDepth) + " and filter kernel depth = " + std::to_string(kernelDepth)};
}

ConstraintResult checkConvGroupsNumFilters(const OperationView& view) {
  const std::vector<int> weights = view.velaWeightShape();
  const Tensor* ifm = view.ifm();
  if (ifm == nullptr || ifm->shape.rank() == 0 || weights.size() < 2 || weights[weights.size() - 2] == 0) {
    return {false, "Filter kernels = None and convolution groups = None"};
  }
  const int kernels = weights.back();
  const std::int64_t groups = floorDiv(ifm->shape.back(0), weights[weights.size() - 2]);
  const bool valid = groups != 0 && floorMod(kernels, groups) == 0;
  return {valid, "Filter kernels = " + std::to_string(kernels) + " and convolution groups = " + std::to_string(groups)};
}

ConstraintResult checkMatchingInOutTypes(const OperationView& view) {
  const bool valid = view.ifm() != nullptr && view.ofm() != nullptr && view.ifm()->type == view.ofm()->type;
  return {valid, "Op has ifm_dtype=" + dtypeName(view.ifm()) + " and ofm_dtype=" + dtypeName(view.ofm())};
}

/// The concatenation axis normalised against the OFM rank, if the attribute exists.
std::optional<std::int64_t> concatAxis(const OperationView& view) {
  const auto axis = view.op().attributes.get<std::int64_t>("axis");
  if (!axis || view.ofm() == nullptr) {
    return axis;
  }
  return *axis < 0 ? *axis + view.ofm()->shape.rank() : *axis;
}

ConstraintResult checkAxisExists(const OperationView& view) {
  const auto axis = view.op().attributes.get<std::int64_t>("axis");
  return {axis.has_value(), "Op has axis=" + (axis ? std::to_string(*axis) : std::string("None"))};
}

ConstraintResult checkAxisValid(const OperationView& view) {
  const int dims = view.ofm() == nullptr ? 0 : view.ofm()->shape.rank();
  const std::int64_t axis = concatAxis(view).value_or(-1);
  return {0 <= axis && axis < dims,
          "Op has ofm_dimensions=" + std::to_string(dims) + " and axis attribute is: " + std::to_string(axis)};
}

ConstraintResult checkMatchingDimensionality(const OperationView& view) {
  const int ofmRank = view.ofm() == nullptr ? 0 : view.ofm()->shape.rank();
  std::vector<std::string> mismatches;
  for (const Tensor* tensor : view.presentInputs()) {
    if (tensor->shape.rank() != ofmRank) {
      mismatches.push_back("Tensor '" + tensor->name + "' has dimension: " + std::to_string(tensor->shape.rank()));
    }
  }
  return {mismatches.empty(), "Op has ofm_dimension=" + std::to_string(ofmRank) +
                                  " and the list of mismatching inputs are: " + joined(mismatches)};
}

ConstraintResult checkValidDimensions(const OperationView& view) {
  const npu::Shape ofmShape = view.ofm() == nullptr ? npu::Shape{} : view.ofm()->shape;
  const std::int64_t axis = concatAxis(view).value_or(-1);
  std::vector<std::string> mismatches;
  for (const Tensor* tensor : view.presentInputs()) {
    for (int dim = 0; dim < ofmShape.rank(); ++dim) {
      if (dim != axis && (dim >= tensor->shape.rank() || tensor->shape[dim] != ofmShape[dim])) {
        mismatches.push_back("Tensor '" + tensor->name + "' has shape: " + pythonList(tensor->shape));
        break;
      }
    }
  }
  return {mismatches.empty(), "Op has axis=" + std::to_string(axis) + ", ofm_shape=" + pythonList(ofmShape) +
                                  " and the list of mismatching inputs are: " + joined(mismatches)};
}

ConstraintResult checkValidDimensionsAxis(const OperationView& view) {
  const npu::Shape ofmShape = view.ofm() == nullptr ? npu::Shape{} : view.ofm()->shape;
  const std::int64_t axis = concatAxis(view).value_or(-1);
  std::int64_t sum = 0;
  bool indexable = axis >= 0 && axis < ofmShape.rank();
  std::vector<std::string> tensors;
  for (const Tensor* tensor : view.presentInputs()) {
    if (axis >= 0 && axis < tensor->shape.rank()) {
      sum += tensor->shape[static_cast<int>(axis)];
    } else {
      indexable = false;
    }
    tensors.push_back("Tensor '" + tensor->name + "' has shape: " + pythonList(tensor->shape));
  }
  const bool valid = indexable && sum == ofmShape[static_cast<int>(axis)];
  return {valid, "Op has axis=" + std::to_string(axis) + ", ofm_shape=" + pythonList(ofmShape) +
                     " and the list of mismatching inputs are: " + joined(tensors)};
}

ConstraintResult checkMatchingEitherShapes(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ifm2 = view.ifm2();
  const Tensor* ofm = view.ofm();
  const bool valid = ofm != nullptr &&
                     ((ifm != nullptr && ifm->shape == ofm->shape) || (ifm2 != nullptr && ifm2->shape == ofm->shape));
  return {valid, "Op has ifm_shape=" + shapeOrNone(ifm) + ", ifm2_shape=" + shapeOrNone(ifm2) +
                     " and ofm_shape=" + shapeOrNone(ofm)};
}

ConstraintResult checkMatchingInputsTypes(const OperationView& view) {
  const bool valid = view.ifm() != nullptr && view.ifm2() != nullptr && view.ifm()->type == view.ifm2()->type;
  return {valid, "Op has ifm_dtype=" + dtypeName(view.ifm()) + " and ifm2_dtype=" + dtypeName(view.ifm2())};
}

ConstraintResult checkMatchingSigned(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ofm = view.ofm();
  const bool valid =
      ifm == nullptr || !npu::isSignedInteger(ifm->type) || (ofm != nullptr && npu::isSignedInteger(ofm->type));
  return {valid, "Op has ifm_dtype=" + dtypeName(ifm) + " and ofm_dtype=" + dtypeName(ofm)};
}

ConstraintResult checkUnsignedValid(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ofm = view.ofm();
  const bool isUnsigned = ifm != nullptr && npu::isInteger(ifm->type) && !npu::isSignedInteger(ifm->type);
  const bool valid = !isUnsigned || (ofm != nullptr && (ofm->type == ifm->type || ofm->type == DataType::Int32));
  return {valid, "Op has ifm_dtype=" + dtypeName(ifm) + " and ofm_dtype=" + dtypeName(ofm)};
}

ConstraintResult checkMatchingInOutQuant(const OperationView& view) {
  if (view.ifm() == nullptr || view.ofm() == nullptr || !quantisedScalingEqual(*view.ifm(), *view.ofm())) {
    return {false, "IFM and OFM quantisation parameters are not equal."};
  }
  return {true, "IFM and OFM quantisation parameters matches."};
}

ConstraintResult checkMatchingInOutElements(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ofm = view.ofm();
  if (ifm == nullptr || ofm == nullptr || ifm->elements() != ofm->elements()) {
    return {false, "IFM " + shapeOrNone(ifm) + " and OFM " + shapeOrNone(ofm) + " number of elements are not equal."};
  }
  return {true, "IFM and OFM number of elements are equal."};
}

ConstraintResult checkMatchingShapes(const OperationView& view) {
  const bool valid = view.ifm() != nullptr && view.ofm() != nullptr && view.ifm()->shape == view.ofm()->shape;
  return {valid, "Op has ifm_shape=" + shapeOrNone(view.ifm()) + " and ofm_shape=" + shapeOrNone(view.ofm())};
}

ConstraintResult checkBetaValueRange(const OperationView& view) {
  const double beta = view.op().attributes.getOr<double>("beta", 1.0);
  return {beta >= 0, "Op has beta=" + pythonFloat(beta)};
}

/// SPLIT's axis (input 0) normalised against the IFM (input 1) rank; nullopt when not constant.
std::optional<std::int64_t> splitAxisValue(const OperationView& view) {
  const auto values = integerValues(view.input(0));
  if (!values || values->empty() || view.input(1) == nullptr) {
    return std::nullopt;
  }
  const std::int64_t axis = values->front();
  return axis < 0 ? axis + view.input(1)->shape.rank() : axis;
}

ConstraintResult checkSplitAxis(const OperationView& view) {
  const int dims = view.input(1) == nullptr ? 0 : view.input(1)->shape.rank();
  const auto axis = splitAxisValue(view);
  const bool valid = axis && *axis >= 0 && *axis < dims;
  return {valid, "Op has ifm_dimensions=" + std::to_string(dims) +
                     " and axis value is: " + (axis ? std::to_string(*axis) : std::string("None"))};
}

ConstraintResult checkSplitNumSplits(const OperationView& view) {
  const auto splits = view.op().attributes.get<std::int64_t>("num_splits");
  const auto axis = splitAxisValue(view);
  const Tensor* input = view.input(1);
  const bool indexable = axis && input != nullptr && *axis >= 0 && *axis < input->shape.rank();
  const bool valid =
      indexable && splits && *splits != 0 && floorMod(input->shape[static_cast<int>(*axis)], *splits) == 0;
  return {valid, "Op has ifm shape=" + shapeOrNone(input) + " axis=" + (axis ? std::to_string(*axis) : "None") +
                     " num_splits=" + (splits ? std::to_string(*splits) : std::string("None"))};
}

ConstraintResult checkSplitvInferred(const OperationView& view) {
  const Tensor* sizes = view.input(1);
  const auto values = integerValues(sizes);
  const auto inferred = values ? std::count(values->begin(), values->end(), -1) : 0;
  return {inferred <= 1, "Op has multiple inferred sizes (-1): " +
                             numpyArrayOrNone(values, sizes == nullptr ? npu::Shape{} : sizes->shape)};
}

} // namespace

const Constraint convGroupsIfmDepth{
    "conv_groups_ifm_depth", "IFM depth must be a whole multiple of the filter kernel depth", checkConvGroupsIfmDepth};
const Constraint convGroupsNumFilters{"conv_groups_num_filters",
                                      "Number of filter kernels must be equally divisible by the number of convolution "
                                      "groups",
                                      checkConvGroupsNumFilters};
const Constraint matchingInOutTypes{"matching_in_out_types", "IFM and OFM data types must match",
                                    checkMatchingInOutTypes};
const Constraint axisExists{"axis_exists", "Axis attribute must exist", checkAxisExists};
const Constraint axisValid{"axis_valid", "Axis attribute must be in the range [0, <ofm_dimensions>)", checkAxisValid};
const Constraint matchingDimensionality{
    "matching_dimensionality", "All Input dimensionalities must match OFM dimensionality", checkMatchingDimensionality};
const Constraint validDimensions{"valid_dimensions",
                                 "All Input dimensions must match OFM dimension in all axes except the one defined by "
                                 "the axis attribute",
                                 checkValidDimensions};
const Constraint validDimensionsAxis{"valid_dimensions_axis",
                                     "The size of the OFM axis must match the sum of all IFM axis defined by the axis "
                                     "attribute",
                                     checkValidDimensionsAxis};
const Constraint matchingEitherShapes{"matching_either_shapes", "At least one Input's shape must match the OFM's shape",
                                      checkMatchingEitherShapes};
const Constraint matchingInputsTypes{"matching_inputs_types", "Both Input data types must match",
                                     checkMatchingInputsTypes};
const Constraint matchingSigned{"matching_signed", "For IFM that are signed, OFM must also be signed",
                                checkMatchingSigned};
const Constraint unsignedValid{"unsigned_valid", "For IFM that are unsigned, OFM must either be the same type or int32",
                               checkUnsignedValid};
const Constraint matchingInOutQuant{"matching_in_out_quant", "Input and output quantisation must match.",
                                    checkMatchingInOutQuant};
const Constraint matchingInOutElements{"matching_in_out_elements", "Input and output number of elements must match.",
                                       checkMatchingInOutElements};
const Constraint matchingShapes{"matching_shapes", "IFM and OFM shapes must match", checkMatchingShapes};
const Constraint betaValueRange{"beta_value_range", "Beta value needs to be positive", checkBetaValueRange};
const Constraint splitAxis{"split_axis", "Axis value must be in the range [-RANK(IFM) to +RANK(IFM))", checkSplitAxis};
const Constraint splitNumSplits{"split_num_splits", "Axis must be divisible by number of splits", checkSplitNumSplits};
const Constraint splitvInferred{"splitv_inferred", "Only one size is allowed to be inferred", checkSplitvInferred};

} // namespace ethosu::support::semantic
