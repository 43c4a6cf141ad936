// SPDX-License-Identifier: Apache-2.0
// Semantic constraints of Vela 3.10 (tflite_model_semantic.py) for single operator types: strided
// slice, fully connected, pad, mean, arg max, LSTM and transpose, plus the IFM type rules they share.

#include "constraint.hpp"
#include "python_format.hpp"

#include <algorithm>
#include <array>

namespace ethosu::support::semantic {

using npu::DataType;
using npu::Tensor;

namespace {

std::string dtypeName(const Tensor* tensor) {
  return tensor == nullptr ? "None" : std::string(npu::nameOf(tensor->type));
}
std::string shapeOrNone(const Tensor* tensor) { return tensor == nullptr ? "None" : pythonList(tensor->shape); }
std::string valuesOrNone(const Tensor* tensor) {
  return numpyArrayOrNone(integerValues(tensor), tensor == nullptr ? npu::Shape{} : tensor->shape);
}
std::int64_t attribute(const OperationView& view, std::string_view name) {
  return view.op().attributes.getOr<std::int64_t>(name, 0);
}

ConstraintResult checkStridedSliceInputCount(const OperationView& view) {
  return {view.inputCount() == 4, "Op has " + std::to_string(view.inputCount()) + " inputs"};
}

ConstraintResult checkStridedSliceInputsConst(const OperationView& view) {
  std::vector<std::string> nonConstant;
  const std::array<std::pair<std::size_t, const char*>, 3> operands{{{1, "Begin"}, {2, "End"}, {3, "Stride"}}};
  for (const auto& [index, role] : operands) {
    const Tensor* tensor = view.input(index);
    if (tensor == nullptr || !tensor->isConstant()) {
      nonConstant.push_back(std::string(role) + " tensor '" + nameOrNone(tensor) + "'");
    }
  }
  return {nonConstant.empty(), "Op has non-constant tensors: " + joined(nonConstant)};
}

ConstraintResult checkEllipsisMask(const OperationView& view) {
  const std::int64_t mask = attribute(view, "ellipsis_mask");
  return {mask == 0, "Op has ellipsis mask as: " + std::to_string(mask)};
}

ConstraintResult checkAxisMasks(const OperationView& view) {
  const std::int64_t newAxis = attribute(view, "new_axis_mask");
  const std::int64_t shrinkAxis = attribute(view, "shrink_axis_mask");
  return {newAxis == 0 || shrinkAxis == 0,
          "Op has new_axis_mask=" + std::to_string(newAxis) + " and shrink_axis_mask=" + std::to_string(shrinkAxis)};
}

/// Start or end offsets of a strided slice: the given value unless the mask bit is set, negative
/// values counted from the end (tflite_model_semantic.py, _get_slice_offsets).
std::optional<std::vector<std::int64_t>> sliceOffsets(const npu::Shape& shape, const Tensor* offsets, std::int64_t mask,
                                                      bool isBegin) {
  const auto values = integerValues(offsets);
  std::vector<std::int64_t> result;
  for (int axis = 0; axis < shape.rank(); ++axis) {
    std::int64_t offset = isBegin ? 0 : shape[axis];
    if ((mask & (std::int64_t{1} << axis)) == 0) {
      if (!values || static_cast<std::size_t>(axis) >= values->size()) {
        return std::nullopt;
      }
      offset = (*values)[static_cast<std::size_t>(axis)];
      offset += offset < 0 ? shape[axis] : 0;
    }
    result.push_back(offset);
  }
  return result;
}

ConstraintResult checkSliceRanges(const OperationView& view) {
  const Tensor* ifm = view.input(0);
  const Tensor* begin = view.input(1);
  const Tensor* end = view.input(2);
  const std::string detail = "Op has begin_values=" + valuesOrNone(begin) + " and end_values=" + valuesOrNone(end);
  if (ifm == nullptr) {
    return {false, detail};
  }
  const std::int64_t shrinkMask = attribute(view, "shrink_axis_mask");
  const auto starts = sliceOffsets(ifm->shape, begin, attribute(view, "begin_mask"), true);
  const auto ends = sliceOffsets(ifm->shape, end, attribute(view, "end_mask"), false);
  if (!starts || !ends) {
    return {false, detail};
  }
  bool valid = true;
  for (std::size_t axis = 0; axis < starts->size(); ++axis) {
    const bool shrunk = (shrinkMask & (std::int64_t{1} << axis)) != 0;
    if (!shrunk && (*ends)[axis] <= (*starts)[axis]) {
      valid = false;
    }
  }
  return {valid, detail};
}

ConstraintResult checkFcOutput2d(const OperationView& view) {
  // Vela: ifm.get_shape_as_2d(weights.shape[-2]) is not None
  const std::vector<int> weights = view.velaWeightShape();
  const Tensor* ifm = view.ifm();
  bool valid = false;
  if (ifm != nullptr && weights.size() >= 2 && weights[weights.size() - 2] != 0) {
    const std::int64_t columns = weights[weights.size() - 2];
    const std::int64_t elements = ifm->elements();
    valid = (elements / columns) * columns == elements && ifm->shape.rank() != 1;
  }
  return {valid, valid ? "" : "Op has non-2D output tensor '" + nameOrNone(view.ofm()) + "'"};
}

ConstraintResult checkKeepDimIfmOfm(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ofm = view.ofm();
  bool valid = true;
  if (view.op().attributes.getOr<bool>("keep_num_dims", false)) {
    valid = ifm != nullptr && ofm != nullptr && ifm->shape.rank() == ofm->shape.rank();
  }
  return {valid, "Op has ifm shape=" + shapeOrNone(ifm) + " and ofm shape=" + shapeOrNone(ofm)};
}

ConstraintResult checkPadInputCount(const OperationView& view) {
  return {view.inputCount() == 2, "Op has " + std::to_string(view.inputCount()) + " inputs"};
}

ConstraintResult checkPadConstant(const OperationView& view) {
  const Tensor* padding = view.input(1);
  return {padding != nullptr && padding->isConstant(), "Op has non-constant padding tensor: " + valuesOrNone(padding)};
}

ConstraintResult checkPadOutputShape(const OperationView& view) {
  const Tensor* ifm = view.input(0);
  const Tensor* padding = view.input(1);
  const Tensor* ofm = view.output(0);
  const auto pads = integerValues(padding);
  const std::string expected = shapeOrNone(ofm);
  if (ifm == nullptr || ofm == nullptr || !pads || padding->shape.rank() != 2 || padding->shape[1] != 2) {
    return {false, "Op has wrong output tensor shape: " + expected + ", has shape: None"};
  }
  // input shape + padding before + padding after, with numpy's broadcasting of a single row or dimension
  const auto rows = static_cast<std::size_t>(padding->shape[0]);
  const auto dims = static_cast<std::size_t>(ifm->shape.rank());
  if (rows != dims && rows != 1 && dims != 1) {
    return {false, "Op has wrong output tensor shape: " + expected + ", has shape: None"};
  }
  std::vector<std::int64_t> actual;
  for (std::size_t i = 0; i < std::max(rows, dims); ++i) {
    const std::size_t row = rows == 1 ? 0 : i;
    const int dim = ifm->shape[static_cast<int>(dims == 1 ? 0 : i)];
    actual.push_back(dim + (*pads)[row * 2] + (*pads)[row * 2 + 1]);
  }
  const auto ofmDims = ofm->shape.dims();
  const bool valid = std::equal(actual.begin(), actual.end(), ofmDims.begin(), ofmDims.end());
  return {valid, "Op has wrong output tensor shape: " + expected +
                     ", has shape: " + numpyArray(actual, npu::Shape{static_cast<int>(actual.size())})};
}

ConstraintResult checkInput8bit(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const bool valid = ifm != nullptr && (ifm->type == DataType::Int8 || ifm->type == DataType::UInt8);
  return {valid, "Op has ifm_dtype=" + dtypeName(ifm)};
}

ConstraintResult checkInputSigned(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const bool valid = ifm != nullptr && (ifm->type == DataType::Int8 || ifm->type == DataType::Int16);
  return {valid, "Op has ifm_dtype=" + dtypeName(ifm)};
}

ConstraintResult checkArgmaxOutput(const OperationView& view) {
  const Tensor* ofm = view.ofm();
  const bool valid = ofm != nullptr && (ofm->type == DataType::Int32 || ofm->type == DataType::Int64);
  return {valid, "Op has ofm_dtype=" + dtypeName(ofm)};
}

ConstraintResult checkMeanInputDims(const OperationView& view) {
  const int dims = view.input(0) == nullptr ? 0 : view.input(0)->shape.rank();
  return {dims >= 2 && dims <= 4, "Input is " + std::to_string(dims) + "D"};
}

ConstraintResult checkMeanAxis(const OperationView& view) {
  const Tensor* input = view.input(0);
  const auto axes = integerValues(view.input(1));
  if (input == nullptr || !axes) {
    return {false, "Axis parameter is out of bounds. axis: {axis}, dims: {dims}. "};
  }
  const npu::Shape& shape = input->shape;
  const int dims = shape.rank();
  const auto dimsFrom = [&](int first) { return std::vector<int>(shape.dims().begin() + first, shape.dims().end()); };
  const auto anyOne = [](const std::vector<int>& sizes) {
    return std::find(sizes.begin(), sizes.end(), 1) != sizes.end();
  };
  bool valid = true;
  for (const std::int64_t axis : *axes) {
    if (axis < 0 || axis >= dims) {
      // Vela's message is not an f-string: the braces are printed as they are
      return {false, "Axis parameter is out of bounds. axis: {axis}, dims: {dims}. "};
    }
    const bool batchReduced = dims == 4 && axis == 0 && shape[0] != 1;
    const bool depthReduced3d = dims == 3 && axis == 2 && !anyOne(dimsFrom(0));
    const bool depthReduced4d = dims == 4 && axis == 3 && !anyOne(dimsFrom(1));
    if (batchReduced || depthReduced3d || depthReduced4d) {
      valid = false;
      break;
    }
  }
  return {valid, "Shape is " + pythonList(shape) + ", Axis is " + pythonList(*axes) + "."};
}

ConstraintResult checkLstmDimensions(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ofm = view.ofm();
  const bool valid = ifm != nullptr && ofm != nullptr && ifm->shape.rank() == 3 && ofm->shape.rank() == 3;
  return {valid, "Op has ifm shape " + shapeOrNone(ifm) + " and ofm shape " + shapeOrNone(ofm)};
}

ConstraintResult checkLstmInputs(const OperationView& view) {
  return {view.inputCount() == 24, "Op has " + std::to_string(view.inputCount()) + " inputs"};
}

ConstraintResult checkLstmIntermediates(const OperationView& view) {
  const std::size_t count = view.op().intermediates.size();
  return {count == 5, "Op has " + std::to_string(count) + " intermediates"};
}

ConstraintResult checkLstmVariables(const OperationView& view) {
  std::vector<std::string> names;
  for (std::size_t index = 18; index < std::min<std::size_t>(20, view.inputCount()); ++index) {
    const Tensor* state = view.input(index);
    if (state == nullptr || !state->isVariable) {
      names.push_back(nameOrNone(state));
    }
  }
  return {names.empty(), "Op has non-variable state tensor(s): " + joined(names)};
}

ConstraintResult checkTransposePermutationSize(const OperationView& view) {
  const int dims = view.input(0) == nullptr ? 0 : view.input(0)->shape.rank();
  const Tensor* permutation = view.input(1);
  const bool valid = permutation != nullptr && permutation->shape.rank() == 1 && permutation->shape[0] == dims;
  return {valid, "Op has ifm_dimension=" + std::to_string(dims) + " and permutation shape " + shapeOrNone(permutation)};
}

ConstraintResult checkTransposePermutationValues(const OperationView& view) {
  const int dims = view.input(0) == nullptr ? 0 : view.input(0)->shape.rank();
  const auto values = integerValues(view.input(1));
  const bool valid = values && std::all_of(values->begin(), values->end(),
                                           [dims](std::int64_t value) { return value >= 0 && value < dims; });
  return {valid, "Op has ifm_dimension=" + std::to_string(dims) +
                     " and permutation values are: " + valuesOrNone(view.input(1))};
}

} // namespace

const Constraint stridedSliceInputCount{"stridedslice_input_count", "Exactly 4 Input tensors are required",
                                        checkStridedSliceInputCount};
const Constraint stridedSliceInputsConst{
    "stridedslice_inputs_const", "Begin, End and Stride Input tensors must be constant", checkStridedSliceInputsConst};
const Constraint ellipsisMask{"ellipsis_mask", "ellipsis_mask must be 0", checkEllipsisMask};
const Constraint axisMasks{"axis_masks", "new_axis_mask and shrink_axis_mask cannot both be set", checkAxisMasks};
const Constraint sliceRanges{"slice_ranges", "Slice 'end' values must be greater than 'begin' values",
                             checkSliceRanges};
const Constraint fcOutput2d{"fc_output_2d", "The output tensor(s) must have 2D shape", checkFcOutput2d};
const Constraint keepDimIfmOfm{
    "keep_dim_ifm_ofm", "The IFM and OFM must have the same number of dimensions if keep_num_dims is set to true",
    checkKeepDimIfmOfm};
const Constraint padInputCount{"pad_input_count", "Number of input tensors must be exactly 2", checkPadInputCount};
const Constraint padConstant{"pad_constant", "The padding tensor must be constant", checkPadConstant};
const Constraint padOutputShape{
    "pad_output_shape", "Shape of output tensor must equal to size of input tensor plus padding", checkPadOutputShape};
const Constraint input8bit{"input_8bit", "IFM must be int8 or uint8", checkInput8bit};
const Constraint inputSigned{"input_signed", "IFM must be int8 or int16", checkInputSigned};
const Constraint argmaxOutput{"argmax_output", "OFM must be int32 or int64", checkArgmaxOutput};
const Constraint meanInputDims{"mean_input_dims", "Input tensor must be at least 2D", checkMeanInputDims};
const Constraint meanAxis{"mean_axis",
                          "Requirements for axis parameter:\n"
                          "        When IFM tensor is 2D:\n"
                          "          - Reduction in both axes is supported.\n"
                          "        When IFM tensor is 3D or 4D:\n"
                          "          - Reduction in Batch axis is only supported if batch size is 1.\n"
                          "          - Reduction in both Height and Width axes is supported.\n"
                          "          - Reduction in Depth axis is supported if at least one of H,W,C are of size 1.",
                          checkMeanAxis};
const Constraint lstmDimensions{"lstm_dimensions", "IFM and OFM must have 3D shape", checkLstmDimensions};
const Constraint lstmInputs{"lstm_inputs", "Must have 24 input tensors", checkLstmInputs};
const Constraint lstmIntermediates{"lstm_intermediates", "Must have 5 intermediate tensors", checkLstmIntermediates};
const Constraint lstmVariables{"lstm_variables", "State tensors must be variable", checkLstmVariables};
const Constraint transposePermutationSize{"transpose_permutation_size",
                                          "Permutation array must be a 1D tensor with RANK(IFM) elements",
                                          checkTransposePermutationSize};
const Constraint transposePermutationValues{"transpose_permutation_values",
                                            "Permutation array must have constant values in the range [0, RANK(IFM))",
                                            checkTransposePermutationValues};

} // namespace ethosu::support::semantic
