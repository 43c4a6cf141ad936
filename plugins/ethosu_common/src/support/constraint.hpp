// SPDX-License-Identifier: Apache-2.0
#pragma once

// One constraint of Vela's checks: a short id, Vela's text, and a pure function of the operation that
// says whether it holds and, if not, which values broke it (worded as Vela words them).

#include "operation_view.hpp"

#include "npu/ir/graph.hpp"

#include <span>
#include <string>
#include <string_view>

namespace ethosu::support {

struct ConstraintResult {
  bool valid = true;
  std::string detail;
};

using ConstraintCheck = ConstraintResult (*)(const OperationView&);

struct Constraint {
  std::string_view id;
  /// Vela's docstring as its log prints it; continuation lines keep Vela's eight-space indentation.
  std::string_view description;
  ConstraintCheck check = nullptr;
};

/// The constraints that apply to one operation type, in Vela's order (generic ones first, minus the
/// type's exclusions, then the specific ones).
[[nodiscard]] std::span<const Constraint* const> semanticConstraintsFor(npu::OpType type);
[[nodiscard]] std::span<const Constraint* const> npuConstraintsFor(npu::OpType type);
/// Whether the type is one Vela places on the NPU at all (TFLiteSupportedOperators.supported_operators).
[[nodiscard]] bool isNpuOperatorType(npu::OpType type);
/// The types isNpuOperatorType accepts, in Vela's order.
[[nodiscard]] std::span<const npu::OpType> npuOperatorTypes();
/// Operations Vela never checks (graph inputs and constants).
[[nodiscard]] bool isGraphPlaceholder(npu::OpType type);

/// The first constraint of `constraints` that fails, or nullptr.
struct ConstraintFailure {
  const Constraint* constraint = nullptr;
  std::string detail;
};
[[nodiscard]] ConstraintFailure firstFailure(std::span<const Constraint* const> constraints, const OperationView& view);

/// Whether the operation passes every semantic check (Vela's run_on_npu after tflite_semantic_checker).
[[nodiscard]] bool passesSemanticChecks(const npu::Subgraph& subgraph, const npu::Operation& op);

// The constraints, grouped by the file that defines them. Names follow Vela's constraint_* functions.
namespace semantic {
extern const Constraint attributesSpecified, tensNoDynamic, tensOutputScalar, tensInputScalar, tensShapeSize,
    tensQuantNoneCheck, tensQuantScale, quantScaleInf, noneConstTensors;
extern const Constraint convGroupsIfmDepth, convGroupsNumFilters, matchingInOutTypes, axisExists, axisValid,
    matchingDimensionality, validDimensions, validDimensionsAxis, matchingEitherShapes, matchingInputsTypes,
    matchingSigned, unsignedValid, matchingInOutQuant, matchingInOutElements, matchingShapes, betaValueRange, splitAxis,
    splitNumSplits, splitvInferred, stridedSliceInputCount, stridedSliceInputsConst, ellipsisMask, axisMasks,
    sliceRanges, fcOutput2d, keepDimIfmOfm, padInputCount, padConstant, padOutputShape, input8bit, meanInputDims,
    meanAxis, argmaxOutput, inputSigned, lstmDimensions, lstmInputs, lstmIntermediates, lstmVariables,
    transposePermutationSize, transposePermutationValues;
} // namespace semantic

namespace npu_generic {
extern const Constraint tensDtype, tensInt32Ops, tensDimension, tensQuantPerAxis, batchSize, fusedActivation,
    fusedActivationType;
} // namespace npu_generic

namespace kernel {
extern const Constraint strideWidthNoUpperLimit, dilatedHeightRange, dilatedProductRange, weightsType, weightsConst,
    weightsLimit, biasShape, biasType, bias40bit, tconvStride, tconvSame, tconvValid, depthwiseConvStride,
    depthMultiplier, strideRange, strideRangeNoPadding, filterRange, filterHeightRange, filterProductRange,
    filterHeightRangeValidPad, filterProductRangeValidPad;
} // namespace kernel

namespace npu_specific {
extern const Constraint resize, resizeSize, resizeAttrs, resizeBilinearHalfPixelCentersDims,
    matchingQuantizationParameters, broadcastShapes, inputsInt32, outputInt32, stridedSliceStrideValues,
    stridedSliceOffsetFalse, padShape, paddingDimensions, padType, meanHeightWidthProduct, meanWidth, meanDepth,
    reshapeShapeConstant, argmaxAxis, argmaxDepth, lstmNoCifg, lstmNoPeepHole, lstmNoProjection, lstmNoNormalisation,
    lstmWeights, lstmWeightDimensions, rsqrtInputInt8, sliceInputsConst, transpose;
} // namespace npu_specific

} // namespace ethosu::support
