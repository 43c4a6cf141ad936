// SPDX-License-Identifier: Apache-2.0
// NPU constraints of Vela 3.10 (tflite_supported_operators.py) for single operator types: resize,
// element-wise broadcasting and quantisation, strided slice, pad, mean, reshape, arg max, LSTM, rsqrt,
// slice and transpose.

#include "constraint.hpp"
#include "python_format.hpp"

#include <algorithm>
#include <numeric>

namespace ethosu::support::npu_specific {

using npu::DataType;
using npu::Tensor;

namespace {

constexpr std::int64_t kMeanReducedAxisMax = 64 * 64;             // mean_reduced_axis_max_size
constexpr std::int64_t kMeanProductInt8 = std::int64_t{1} << 24;  // mean_kernel_product_int8
constexpr std::int64_t kMeanProductUInt8 = std::int64_t{1} << 23; // mean_kernel_product_uint8
constexpr std::int64_t kMeanProductInt16 = std::int64_t{1} << 16; // mean_kernel_product_int16
constexpr int kMaxArgMaxDepth = 127;

std::string shapeOrNone(const Tensor* tensor) { return tensor == nullptr ? "None" : pythonList(tensor->shape); }
std::string dtypeName(const Tensor* tensor) {
  return tensor == nullptr ? "None" : std::string(npu::nameOf(tensor->type));
}
std::string valuesOrNone(const Tensor* tensor) {
  return numpyArrayOrNone(integerValues(tensor), tensor == nullptr ? npu::Shape{} : tensor->shape);
}
bool attribute(const OperationView& view, std::string_view name) {
  return view.op().attributes.getOr<bool>(name, false);
}

ConstraintResult checkResize(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ofm = view.ofm();
  const bool alignCorners = attribute(view, "align_corners");
  const std::string detail = "Op has ifm_shape=" + shapeOrNone(ifm) + ", ofm_shape=" + shapeOrNone(ofm) +
                             " and align_corners=" + pythonBool(alignCorners);
  if (ifm == nullptr || ofm == nullptr || ifm->shape.rank() != 4 || ofm->shape.rank() < 3) {
    return {false, detail};
  }
  const int ifmH = ifm->shape[1];
  const int ifmW = ifm->shape[2];
  if ((ifmH == 1 && ifmW == 1) || ifm->shape == ofm->shape) {
    return {true, detail};
  }
  // Vela's upscale factors are float divisions: OFM / IFM, or (OFM - 1) / (IFM - 1) with align_corners
  const int offset = alignCorners ? 1 : 0;
  const double heightDivisor = ifmH - offset;
  const double widthDivisor = ifmW - offset;
  if (heightDivisor == 0 || widthDivisor == 0) {
    return {false, detail};
  }
  const double heightFactor = (ofm->shape[1] - offset) / heightDivisor;
  const double widthFactor = (ofm->shape[2] - offset) / widthDivisor;
  const bool valid = heightFactor == widthFactor && (heightFactor == 2.0 || heightFactor == 4.0 || heightFactor == 8.0);
  return {valid, detail};
}

ConstraintResult checkResizeSize(const OperationView& view) {
  const Tensor* ofm = view.ofm();
  const auto size = integerValues(view.input(1));
  std::string height = "None";
  std::string width = "None";
  bool valid = false;
  if (view.inputCount() == 2 && size && size->size() == 2) {
    height = std::to_string((*size)[0]);
    width = std::to_string((*size)[1]);
    valid = ofm != nullptr && ofm->shape.rank() >= 3 && (*size)[0] == ofm->shape[1] && (*size)[1] == ofm->shape[2];
  }
  return {valid, "Op has size=" + height + "x" + width + " and ofm_shape=" + shapeOrNone(ofm) + "."};
}

ConstraintResult checkResizeAttrs(const OperationView& view) {
  const bool valid = !(attribute(view, "align_corners") && attribute(view, "half_pixel_centers"));
  return {valid, "Op has both align_corners and half_pixel_centers set to True."};
}

ConstraintResult checkResizeBilinearHalfPixelCentersDims(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ofm = view.ofm();
  const bool halfPixelCenters = attribute(view, "half_pixel_centers");
  bool valid = true;
  if (halfPixelCenters) {
    valid = false;
    if (ifm != nullptr && ofm != nullptr && ifm->shape.rank() >= 3 && ofm->shape.rank() >= 3) {
      const double ifmH = ifm->shape.back(2);
      const double ifmW = ifm->shape.back(1);
      valid = (ifmH == 1 && ifmW == 1) ||
              (ifmH != 0 && ifmW != 0 && ofm->shape.back(2) / ifmH == 2 && ofm->shape.back(1) / ifmW == 2);
    }
  }
  return {valid, "Op has ifm_shape=" + shapeOrNone(ifm) + ", ofm_shape=" + shapeOrNone(ofm) +
                     " and half_pixel_centers=" + pythonBool(halfPixelCenters)};
}

ConstraintResult checkMatchingQuantizationParameters(const OperationView& view) {
  const Tensor* ofm = view.ofm();
  std::vector<std::string> names;
  for (const Tensor* input : {view.ifm(), view.ifm2()}) {
    if (input != nullptr && (ofm == nullptr || !quantisedScalingEqual(*ofm, *input))) {
      names.push_back(input->name);
    }
  }
  return {names.empty(), "Op has tensors with different quantization parameters to the OFM '" + nameOrNone(ofm) +
                             "': " + joined(names)};
}

ConstraintResult checkBroadcastShapes(const OperationView& view) {
  const Tensor* ifm = view.ifm();
  const Tensor* ifm2 = view.ifm2();
  const Tensor* ofm = view.ofm();
  bool valid = true;
  if (ifm != nullptr && ifm2 != nullptr && ofm != nullptr) {
    // compare the trailing dimensions both inputs have (and the OFM's, as far as it reaches)
    const int size = std::min(ifm->shape.rank(), ifm2->shape.rank());
    for (int i = 0; i < size && i < ofm->shape.rank(); ++i) {
      const int a = ifm->shape.back(size - 1 - i);
      const int b = ifm2->shape.back(size - 1 - i);
      const int o = ofm->shape[std::max(0, ofm->shape.rank() - size) + i];
      if (!(a == b || a == 1 || b == 1) || o != std::max(a, b)) {
        valid = false;
        break;
      }
    }
  }
  return {valid, "Op has ifm_shape=" + shapeOrNone(ifm) + " and ifm2_shape=" + shapeOrNone(ifm2)};
}

ConstraintResult checkInputsInt32(const OperationView& view) {
  const bool valid = view.ifm() != nullptr && view.ifm2() != nullptr && view.ifm()->type == DataType::Int32 &&
                     view.ifm2()->type == DataType::Int32;
  return {valid, "Op has ifm_dtype=" + dtypeName(view.ifm()) + " and ifm2_dtype=" + dtypeName(view.ifm2())};
}

ConstraintResult checkOutputInt32(const OperationView& view) {
  const bool valid = view.ofm() != nullptr && view.ofm()->type == DataType::Int32;
  return {valid, "Op has ofm_dtype=" + dtypeName(view.ofm())};
}

ConstraintResult checkStridedSliceStrideValues(const OperationView& view) {
  const auto strides = integerValues(view.input(3));
  const bool valid = strides && std::all_of(strides->begin(), strides->end(), [](std::int64_t s) { return s == 1; });
  return {valid, "Op has strides values " + valuesOrNone(view.input(3))};
}

ConstraintResult checkStridedSliceOffsetFalse(const OperationView& view) {
  const bool offset = attribute(view, "offset");
  return {!offset, "Op has offset=" + pythonBool(offset)};
}

ConstraintResult checkPadShape(const OperationView& view) {
  const Tensor* padding = view.input(1);
  const bool valid = padding != nullptr && (padding->shape == npu::Shape{3, 2} || padding->shape == npu::Shape{4, 2});
  return {valid, "The pad tensor has the shape: " + shapeOrNone(padding)};
}

ConstraintResult checkPaddingDimensions(const OperationView& view) {
  const auto pads = integerValues(view.input(1));
  if (!pads || pads->size() < 2 || pads->size() % 2 != 0) {
    return {false, "First dimension padding: None, last dimension padding: None"};
  }
  const std::span<const std::int64_t> all(*pads);
  const auto first = all.first(2);
  const auto last = all.last(2);
  const std::size_t rows = pads->size() / 2;
  const auto sum = [](std::span<const std::int64_t> row) {
    return std::accumulate(row.begin(), row.end(), std::int64_t{0});
  };
  const bool valid = sum(last) == 0 && (rows <= 3 || sum(first) == 0);
  return {valid, "First dimension padding: " + numpyArray(first, npu::Shape{2}) +
                     ", last dimension padding: " + numpyArray(last, npu::Shape{2})};
}

ConstraintResult checkPadType(const OperationView& view) {
  const Tensor* padding = view.input(1);
  const bool valid = padding != nullptr && (padding->type == DataType::Int32 || padding->type == DataType::Int64);
  return {valid, "Tensor '" + nameOrNone(padding) + "' has data type: " + dtypeName(padding)};
}

/// MEAN's reduced axes as given (a scalar or a list), and the input shape.
std::optional<std::vector<std::int64_t>> meanAxes(const OperationView& view) { return integerValues(view.input(1)); }

ConstraintResult checkMeanHeightWidthProduct(const OperationView& view) {
  const Tensor* input = view.input(0);
  const auto axes = meanAxes(view);
  const DataType type = view.ifm() == nullptr ? DataType::Unknown : view.ifm()->type;
  const std::string datatype = type == DataType::Int16 ? "int16" : type == DataType::UInt8 ? "uint8" : "int8";
  const std::int64_t limit = type == DataType::Int16   ? kMeanProductInt16
                             : type == DataType::UInt8 ? kMeanProductUInt8
                                                       : kMeanProductInt8;
  if (input == nullptr || !axes) {
    return {false, "Datatype is " + datatype + ", product of axes is None"};
  }
  std::int64_t product = 1;
  for (const std::int64_t axis : *axes) {
    const std::int64_t position = axis < 0 ? axis + input->shape.rank() : axis; // Python indexing
    if (position < 0 || position >= input->shape.rank()) {
      return {false, "Datatype is " + datatype + ", product of axes is None"};
    }
    product *= input->shape[static_cast<int>(position)];
  }
  // numpy's prod of an empty list is the float 1.0
  const std::string printed = axes->empty() ? "1.0" : std::to_string(product);
  return {product <= limit, "Datatype is " + datatype + ", product of axes is " + printed};
}

ConstraintResult checkMeanWidth(const OperationView& view) {
  // Vela checks the width whether or not it is reduced
  const Tensor* input = view.input(0);
  if (input == nullptr || input->shape.rank() < 2) {
    return {false, "Width is None"};
  }
  const int width = input->shape[input->shape.rank() < 4 ? 1 : 2];
  return {width <= kMeanReducedAxisMax, "Width is " + std::to_string(width)};
}

ConstraintResult checkMeanDepth(const OperationView& view) {
  const Tensor* input = view.input(0);
  const auto axes = meanAxes(view);
  if (input == nullptr || input->shape.rank() == 0 || !axes) {
    return {false, "Depth is None, shape is " + shapeOrNone(input) + ", axis is None"};
  }
  const int depthIndex = input->shape.rank() - 1;
  const int depth = input->shape.back(0);
  const bool depthReduced = std::find(axes->begin(), axes->end(), depthIndex) != axes->end();
  return {!(depthReduced && depth > kMeanReducedAxisMax), "Depth is " + std::to_string(depth) + ", shape is " +
                                                              pythonList(input->shape) + ", axis is " +
                                                              pythonList(*axes)};
}

ConstraintResult checkReshapeShapeConstant(const OperationView& view) {
  std::string nonConstant;
  if (view.inputCount() > 1 && view.input(1) != nullptr && !view.drivenByConstant(view.inputId(1))) {
    nonConstant = view.input(1)->name;
  }
  return {nonConstant.empty(), "Op has non-const input(s): " + nonConstant};
}

ConstraintResult checkArgmaxAxis(const OperationView& view) {
  const int dims = view.input(0) == nullptr ? 0 : view.input(0)->shape.rank();
  const auto axis = integerValues(view.input(1));
  const bool valid = axis && axis->size() == 1 && (axis->front() == dims - 1 || axis->front() == -1);
  return {valid,
          "Axis is " + valuesOrNone(view.input(1)) + " and number of input dimensions is " + std::to_string(dims)};
}

ConstraintResult checkArgmaxDepth(const OperationView& view) {
  const Tensor* input = view.input(0);
  const int depth = input == nullptr || input->shape.rank() == 0 ? 0 : input->shape.back(0);
  return {input != nullptr && depth <= kMaxArgMaxDepth, "IFM depth is " + std::to_string(depth)};
}

/// Whether every LSTM input slot in [first, last) is omitted (or absent).
bool allOmitted(const OperationView& view, std::size_t first, std::size_t last) {
  for (std::size_t index = first; index < last; ++index) {
    if (view.input(index) != nullptr) {
      return false;
    }
  }
  return true;
}
bool nonePresentOmitted(const OperationView& view, std::size_t first, std::size_t last) {
  for (std::size_t index = first; index < std::min(last, view.inputCount()); ++index) {
    if (view.input(index) == nullptr) {
      return false;
    }
  }
  return true;
}

ConstraintResult checkLstmNoCifg(const OperationView& view) {
  const bool cifg = nonePresentOmitted(view, 2, 5) && nonePresentOmitted(view, 6, 9) && view.input(1) == nullptr &&
                    view.input(5) == nullptr;
  return {!cifg, "Op uses CIFG"};
}
ConstraintResult checkLstmNoPeepHole(const OperationView& view) {
  return {allOmitted(view, 9, 12), "Op uses peephole"};
}
ConstraintResult checkLstmNoProjection(const OperationView& view) {
  return {allOmitted(view, 16, 18), "Op uses projection"};
}
ConstraintResult checkLstmNoNormalisation(const OperationView& view) {
  return {allOmitted(view, 20, 24), "Op uses normalisation"};
}
ConstraintResult checkLstmWeights(const OperationView& view) {
  return {nonePresentOmitted(view, 1, 9), "Op has missing weights"};
}
ConstraintResult checkLstmWeightDimensions(const OperationView& view) {
  bool valid = true;
  for (std::size_t index = 5; index < std::min<std::size_t>(9, view.inputCount()); ++index) {
    valid = valid && view.input(index) != nullptr && view.input(index)->shape.rank() == 2;
  }
  return {valid, "Op recurrent weights are not 2D"};
}

ConstraintResult checkRsqrtInputInt8(const OperationView& view) {
  return {view.ifm() != nullptr && view.ifm()->type == DataType::Int8, "Op has ifm_dtype=" + dtypeName(view.ifm())};
}

ConstraintResult checkSliceInputsConst(const OperationView& view) {
  std::vector<std::string> nonConstant;
  const Tensor* begin = view.input(1);
  const Tensor* sizes = view.input(2);
  if (begin == nullptr || !begin->isConstant()) {
    nonConstant.push_back("Begin tensor '" + nameOrNone(begin) + "'");
  }
  if (sizes == nullptr || !sizes->isConstant()) {
    nonConstant.push_back("Size tensor '" + nameOrNone(sizes) + "'");
  }
  const bool valid = view.inputCount() == 3 && nonConstant.empty();
  return {valid, "Op has non-constant tensors: " + joined(nonConstant)};
}

ConstraintResult checkTranspose(const OperationView& view) {
  const Tensor* ifm = view.input(0);
  const Tensor* permutation = view.input(1);
  const std::string detail =
      "Op has ifm_shape: " + shapeOrNone(ifm) + " and permutation is: " + valuesOrNone(permutation);
  const auto perm = integerValues(permutation);
  if (ifm == nullptr) {
    return {false, detail};
  }
  const npu::Shape& shape = ifm->shape;
  if (shape.rank() == 2) {
    return {true, detail}; // WxC -> CxW
  }
  if (!perm || permutation->shape.rank() != 1) {
    return {false, detail};
  }
  const auto p = [&](std::size_t i) { return i < perm->size() ? (*perm)[i] : -1; };
  const auto dim = [&](int i) { return i < shape.rank() ? shape[i] : -1; };
  bool valid = false;
  if (permutation->shape[0] == 3) {
    valid = (p(0) == 1 && p(1) == 0) ||                // HxWxC -> WxHxC
            (dim(0) == 1 && p(1) == 2 && p(2) == 1) || // 1xWxC -> 1xCxW
            (dim(1) == 1 && p(0) == 2 && p(2) == 0);   // Hx1xC -> Cx1xH
  } else if (permutation->shape[0] == 4) {
    valid = (p(0) == 0 && p(1) == 2 && p(2) == 1) ||                // 1xHxWxC -> 1xWxHxC
            (dim(1) == 1 && p(0) == 0 && p(2) == 3 && p(3) == 2) || // 1x1xWxC -> 1x1xCxW
            (dim(2) == 1 && p(0) == 0 && p(1) == 3 && p(3) == 1);   // 1xHx1xC -> 1xCx1xH
  }
  return {valid, detail};
}

} // namespace

const Constraint resize{"resize",
                        "The width and height of the IFM and OFM must match one of the following criteria:\n"
                        "        IFM W and H must both be 1\n"
                        "        IFM must match OFM\n"
                        "        W and H scaling must be equal and OFM W-1 and H-1 must be 2x/4x/8x IFM W-1 and H-1, "
                        "if align_corners is True\n"
                        "        W and H scaling must be equal and OFM W and H must be 2x/4x/8x IFM W and H, if "
                        "align_corners is False",
                        checkResize};
const Constraint resizeSize{"resize_size", "The size tensor must match the output tensor shape", checkResizeSize};
const Constraint resizeAttrs{"resize_attrs", "Both align_corners and half_pixel_centers can't be True",
                             checkResizeAttrs};
const Constraint resizeBilinearHalfPixelCentersDims{
    "resizebi_half_pixel_centers_dims",
    "For half_pixel_centers the width and height of the IFM and OFM must match one of the following criteria:\n"
    "        IFM W and H are both 1\n"
    "        OFM W and H is 2x IFM W and H",
    checkResizeBilinearHalfPixelCentersDims};
const Constraint matchingQuantizationParameters{"matching_quantization_parameters",
                                                "Both Input quantization parameters must match OFM quantization "
                                                "parameters",
                                                checkMatchingQuantizationParameters};
const Constraint broadcastShapes{"broadcast_shapes",
                                 "Broadcasting is only allowed for rank indices with dimension 1, from either IFM1 or "
                                 "IFM2",
                                 checkBroadcastShapes};
const Constraint inputsInt32{"inputs_int32", "Both Input data types must be int32", checkInputsInt32};
const Constraint outputInt32{"output_int32", "OFM must be int32", checkOutputInt32};
const Constraint stridedSliceStrideValues{"stridedslice_stride_values", "All Strides values must be 1",
                                          checkStridedSliceStrideValues};
const Constraint stridedSliceOffsetFalse{"stridedslice_offset_false", "Offset attribute must be False",
                                         checkStridedSliceOffsetFalse};
const Constraint padShape{"pad_shape", "The padding tensor must have the shape [3,2] or [4,2]", checkPadShape};
const Constraint paddingDimensions{"padding_dimensions", "The pad tensor can only pad width and height",
                                   checkPaddingDimensions};
const Constraint padType{"pad_type", "Pad tensor must be of type: int32, int64", checkPadType};
const Constraint meanHeightWidthProduct{"mean_height_width_product",
                                        "Product of reduced axes must be no greater than:\n"
                                        "        - 16777216 for signed 8-bit inputs.\n"
                                        "        - 8388608 for unsigned 8-bit inputs.\n"
                                        "        - 65536 for signed 16-bit inputs.",
                                        checkMeanHeightWidthProduct};
const Constraint meanWidth{"mean_width", "If Width axis is reduced its shape must be no greater than 4096.",
                           checkMeanWidth};
const Constraint meanDepth{"mean_depth", "If Depth axis is reduced its shape must be no greater than 4096.",
                           checkMeanDepth};
const Constraint reshapeShapeConstant{"reshape_shape_constant", "Shape must be constant", checkReshapeShapeConstant};
const Constraint argmaxAxis{"argmax_axis", "Operation must be performed along the depth axis", checkArgmaxAxis};
const Constraint argmaxDepth{"argmax_depth", "IFM depth must be no greater than 127", checkArgmaxDepth};
const Constraint lstmNoCifg{"lstm_no_cifg", "Must not use CIFG", checkLstmNoCifg};
const Constraint lstmNoPeepHole{"lstm_no_peep_hole", "Must not use Peephole", checkLstmNoPeepHole};
const Constraint lstmNoProjection{"lstm_no_projection", "Must not use Projection", checkLstmNoProjection};
const Constraint lstmNoNormalisation{"lstm_no_normalisation", "Must not use Normalisation", checkLstmNoNormalisation};
const Constraint lstmWeights{"lstm_weights", "All input and recurrent weights must be available", checkLstmWeights};
const Constraint lstmWeightDimensions{"lstm_weight_dimensions", "All recurrent weights must be 2D",
                                      checkLstmWeightDimensions};
const Constraint rsqrtInputInt8{"rsqrt_input_int8", "IFM must be int8", checkRsqrtInputInt8};
const Constraint sliceInputsConst{"slice_inputs_const", "Begin and Size Input tensors must be constant",
                                  checkSliceInputsConst};
const Constraint transpose{"transpose",
                           "The following shape/permutations are supported for transpose:\n"
                           "        When ifm rank is 2: WxC -> CxW\n"
                           "        When ifm rank is 3: HxWxC -> WxHxC, 1xWxC -> 1xCxW, Hx1xC -> Cx1xH\n"
                           "        When ifm rank is 4: 1xHxWxC -> 1xWxHxC, 1x1xWxC -> 1x1xCxW, 1xHx1xC -> 1xCx1xW",
                           checkTranspose};

} // namespace ethosu::support::npu_specific
