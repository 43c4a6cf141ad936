// SPDX-License-Identifier: Apache-2.0
// Which constraints apply to which operation type, in the order Vela 3.10 evaluates them (the order
// of TFLiteSemantic.__init__ and TFLiteSupportedOperators.__init__): the first that fails is reported.

#include "constraint.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <map>
#include <set>
#include <vector>

namespace ethosu::support {

using npu::OpType;

namespace {

using ConstraintList = std::vector<const Constraint*>;
using TypeSet = std::initializer_list<OpType>;

constexpr std::size_t kTypeCount = static_cast<std::size_t>(OpType::Unknown) + 1;

const TypeSet kConvolutionOps{OpType::Conv2DBias, OpType::Conv2D, OpType::QuantizedConv2D};
const TypeSet kConvolutionLikeOps{OpType::Conv2DBias, OpType::Conv2D, OpType::QuantizedConv2D,
                                  OpType::DepthwiseConv2DBias, OpType::Conv2DBackpropInput};
const TypeSet kMaxPoolOps{OpType::MaxPool, OpType::QuantizedMaxPool};
const TypeSet kAvgPoolOps{OpType::AvgPool, OpType::QuantizedAvgPool};
const TypeSet kUnaryElementwiseOps{OpType::Abs, OpType::CLZ, OpType::Exp, OpType::LeakyRelu, OpType::Rsqrt};
const TypeSet kMinMaxOps{OpType::Minimum, OpType::Maximum};
const TypeSet kShiftOps{OpType::SHL, OpType::SHR};
const TypeSet kAddMulSubOps{OpType::Add, OpType::Mul, OpType::Sub};
const TypeSet kElementwiseOps{OpType::Minimum,
                              OpType::Maximum,
                              OpType::Add,
                              OpType::Mul,
                              OpType::Sub,
                              OpType::SHL,
                              OpType::SHR,
                              OpType::Abs,
                              OpType::CLZ,
                              OpType::Exp,
                              OpType::LeakyRelu,
                              OpType::Rsqrt,
                              OpType::SquaredDifference};
const TypeSet kReshapeOps{OpType::Reshape, OpType::QuantizedReshape, OpType::Squeeze, OpType::ExpandDims};
const TypeSet kResizeOps{OpType::ResizeBilinear, OpType::ResizeNearestNeighbor};
const TypeSet kVectorProductOps{OpType::QuantizedMatMul, OpType::MatMul, OpType::FullyConnected};

/// TFLiteSupportedOperators.supported_operators: pre/post ops, MAC ops, element-wise, pad, memory-only.
const TypeSet kNpuOperatorTypes{OpType::SplitSliceRead,
                                OpType::Shape,
                                OpType::UnidirectionalSequenceLstm,
                                OpType::Conv2DBias,
                                OpType::Conv2D,
                                OpType::QuantizedConv2D,
                                OpType::DepthwiseConv2DBias,
                                OpType::Conv2DBackpropInput,
                                OpType::ReduceSum,
                                OpType::MaxPool,
                                OpType::QuantizedMaxPool,
                                OpType::AvgPool,
                                OpType::QuantizedAvgPool,
                                OpType::ResizeBilinear,
                                OpType::ResizeNearestNeighbor,
                                OpType::QuantizedMatMul,
                                OpType::MatMul,
                                OpType::FullyConnected,
                                OpType::Mean,
                                OpType::ArgMax,
                                OpType::Minimum,
                                OpType::Maximum,
                                OpType::Add,
                                OpType::Mul,
                                OpType::Sub,
                                OpType::SHL,
                                OpType::SHR,
                                OpType::Abs,
                                OpType::CLZ,
                                OpType::Exp,
                                OpType::LeakyRelu,
                                OpType::Rsqrt,
                                OpType::SquaredDifference,
                                OpType::Pad,
                                OpType::Relu,
                                OpType::Relu6,
                                OpType::ReluN1To1,
                                OpType::Clip,
                                OpType::Tanh,
                                OpType::Sigmoid,
                                OpType::Softmax,
                                OpType::HardSwish,
                                OpType::Prelu,
                                OpType::ConcatSliceWrite,
                                OpType::Quantize,
                                OpType::Reshape,
                                OpType::QuantizedReshape,
                                OpType::Squeeze,
                                OpType::ExpandDims,
                                OpType::Transpose,
                                OpType::Concat,
                                OpType::ConcatTFLite,
                                OpType::PackReshaped,
                                OpType::Pack,
                                OpType::Split,
                                OpType::SplitV,
                                OpType::StridedSlice,
                                OpType::Slice,
                                OpType::UnpackReshaped,
                                OpType::Unpack};

/// Per-type lists built by appending, as Vela's constructors do.
class TableBuilder {
public:
  void append(TypeSet types, std::initializer_list<const Constraint*> constraints) {
    for (const OpType type : types) {
      auto& list = lists_[type];
      list.insert(list.end(), constraints.begin(), constraints.end());
    }
  }
  void exclude(TypeSet types, const Constraint* constraint) {
    for (const OpType type : types) {
      excluded_[type].insert(constraint);
    }
  }
  /// Generic constraints minus the type's exclusions, then the type's specific ones, for every type.
  [[nodiscard]] std::array<ConstraintList, kTypeCount> build(const ConstraintList& generic) const {
    std::array<ConstraintList, kTypeCount> tables;
    for (std::size_t index = 0; index < kTypeCount; ++index) {
      const auto type = static_cast<OpType>(index);
      const auto excluded = excluded_.find(type);
      for (const Constraint* constraint : generic) {
        if (excluded == excluded_.end() || !excluded->second.contains(constraint)) {
          tables[index].push_back(constraint);
        }
      }
      if (const auto specific = lists_.find(type); specific != lists_.end()) {
        tables[index].insert(tables[index].end(), specific->second.begin(), specific->second.end());
      }
    }
    return tables;
  }

private:
  std::map<OpType, ConstraintList> lists_;
  std::map<OpType, std::set<const Constraint*>> excluded_;
};

std::array<ConstraintList, kTypeCount> buildSemanticTables() {
  using namespace semantic;
  TableBuilder builder;
  builder.exclude({OpType::Shape, OpType::ArgMax, OpType::Transpose}, &tensQuantNoneCheck);
  builder.exclude({OpType::Quantize}, &tensNoDynamic);
  builder.exclude({OpType::Quantize}, &tensOutputScalar);

  // Vela's stride, dilation and filter "integer type" checks cannot fail on our IR and are left out
  builder.append(kConvolutionOps, {&convGroupsIfmDepth, &convGroupsNumFilters});
  builder.append(kAvgPoolOps, {&matchingInOutTypes});
  builder.append(kMaxPoolOps, {&matchingInOutTypes});
  builder.append({OpType::Concat, OpType::ConcatTFLite},
                 {&axisExists, &axisValid, &matchingDimensionality, &validDimensions, &validDimensionsAxis});
  builder.append(kElementwiseOps, {&matchingEitherShapes});
  builder.append(kUnaryElementwiseOps, {&matchingInOutTypes});
  builder.append(kMinMaxOps, {&matchingInOutTypes});
  builder.append(kAddMulSubOps, {&matchingInputsTypes, &matchingSigned, &unsignedValid});
  builder.append(kReshapeOps, {&matchingInOutQuant, &matchingInOutElements});
  builder.append({OpType::Softmax}, {&matchingShapes, &matchingInOutTypes, &betaValueRange});
  builder.append({OpType::Split}, {&splitAxis, &splitNumSplits});
  builder.append({OpType::SplitV}, {&splitvInferred});
  builder.append({OpType::StridedSlice},
                 {&stridedSliceInputCount, &stridedSliceInputsConst, &ellipsisMask, &axisMasks, &sliceRanges});
  builder.append({OpType::FullyConnected}, {&fcOutput2d, &keepDimIfmOfm});
  builder.append({OpType::Pad}, {&padInputCount, &padConstant, &padOutputShape});
  builder.append({OpType::HardSwish}, {&input8bit, &matchingInOutTypes});
  builder.append({OpType::Mean}, {&meanInputDims, &meanAxis});
  builder.append({OpType::ArgMax}, {&input8bit, &argmaxOutput});
  builder.append({OpType::UnidirectionalSequenceLstm},
                 {&inputSigned, &matchingInOutTypes, &lstmDimensions, &lstmInputs, &lstmIntermediates, &lstmVariables});
  builder.append({OpType::Exp}, {&inputSigned});
  builder.append({OpType::Transpose}, {&transposePermutationSize, &transposePermutationValues});

  return builder.build({&attributesSpecified, &tensNoDynamic, &tensOutputScalar, &tensInputScalar, &tensShapeSize,
                        &tensQuantNoneCheck, &tensQuantScale, &quantScaleInf, &noneConstTensors});
}

std::array<ConstraintList, kTypeCount> buildNpuTables() {
  using namespace kernel;
  using namespace npu_specific;
  using npu_generic::batchSize;
  using npu_generic::tensDtype;
  TableBuilder builder;
  builder.exclude({OpType::ArgMax}, &tensDtype);
  builder.exclude({OpType::FullyConnected, OpType::Softmax, OpType::Reshape, OpType::Shape, OpType::Squeeze,
                   OpType::Split, OpType::SplitV, OpType::StridedSlice, OpType::Slice, OpType::Unpack},
                  &batchSize);

  builder.append(kConvolutionOps, {&strideWidthNoUpperLimit});
  builder.append(kConvolutionLikeOps, {&dilatedHeightRange, &dilatedProductRange, &weightsType, &weightsConst,
                                       &weightsLimit, &biasShape, &biasType, &bias40bit});
  builder.append({OpType::Conv2DBackpropInput}, {&tconvStride, &tconvSame, &tconvValid});
  builder.append({OpType::DepthwiseConv2DBias}, {&depthwiseConvStride, &depthMultiplier});
  builder.append({OpType::ReduceSum, OpType::MaxPool, OpType::QuantizedMaxPool}, {&strideRange});
  builder.append(kAvgPoolOps, {&strideWidthNoUpperLimit, &strideRangeNoPadding, &filterRange,
                               &filterHeightRangeValidPad, &filterProductRangeValidPad});
  builder.append(kMaxPoolOps, {&filterHeightRange, &filterProductRange});
  builder.append(kResizeOps, {&resize, &resizeSize, &resizeAttrs});
  builder.append({OpType::ResizeBilinear}, {&resizeBilinearHalfPixelCentersDims});
  builder.append(kVectorProductOps, {&weightsType, &weightsConst, &biasShape, &biasType, &bias40bit});
  builder.append(kMinMaxOps, {&matchingQuantizationParameters, &broadcastShapes});
  builder.append(kAddMulSubOps, {&broadcastShapes});
  builder.append(kShiftOps, {&inputsInt32, &broadcastShapes});
  builder.append({OpType::SHL, OpType::CLZ}, {&outputInt32});
  builder.append({OpType::StridedSlice}, {&stridedSliceStrideValues, &stridedSliceOffsetFalse});
  builder.append({OpType::Pad}, {&padShape, &paddingDimensions, &padType});
  builder.append({OpType::Mean}, {&meanHeightWidthProduct, &meanWidth, &meanDepth});
  builder.append({OpType::Reshape}, {&reshapeShapeConstant});
  builder.append({OpType::ArgMax}, {&argmaxAxis, &argmaxDepth});
  builder.append({OpType::UnidirectionalSequenceLstm}, {&lstmNoCifg, &lstmNoPeepHole, &lstmNoProjection,
                                                        &lstmNoNormalisation, &lstmWeights, &lstmWeightDimensions});
  builder.append({OpType::Rsqrt}, {&rsqrtInputInt8});
  builder.append({OpType::Slice}, {&sliceInputsConst});
  builder.append({OpType::Transpose}, {&transpose});

  using namespace npu_generic;
  return builder.build({&tensDtype, &tensInt32Ops, &tensDimension, &tensQuantPerAxis, &batchSize, &fusedActivation,
                        &fusedActivationType});
}

std::size_t indexOf(OpType type) { return std::min(static_cast<std::size_t>(type), kTypeCount - 1); }

} // namespace

std::span<const Constraint* const> semanticConstraintsFor(OpType type) {
  static const std::array<ConstraintList, kTypeCount> tables = buildSemanticTables();
  return tables[indexOf(type)];
}

std::span<const Constraint* const> npuConstraintsFor(OpType type) {
  static const std::array<ConstraintList, kTypeCount> tables = buildNpuTables();
  return tables[indexOf(type)];
}

bool isNpuOperatorType(OpType type) {
  return std::find(kNpuOperatorTypes.begin(), kNpuOperatorTypes.end(), type) != kNpuOperatorTypes.end();
}

std::span<const OpType> npuOperatorTypes() { return {kNpuOperatorTypes.begin(), kNpuOperatorTypes.size()}; }

bool isGraphPlaceholder(OpType type) {
  return type == OpType::Placeholder || type == OpType::SubgraphInput || type == OpType::Const;
}

ConstraintFailure firstFailure(std::span<const Constraint* const> constraints, const OperationView& view) {
  for (const Constraint* constraint : constraints) {
    ConstraintResult result = constraint->check(view);
    if (!result.valid) {
      return {constraint, std::move(result.detail)};
    }
  }
  return {};
}

bool passesSemanticChecks(const npu::Subgraph& subgraph, const npu::Operation& op) {
  if (isGraphPlaceholder(op.type)) {
    return true;
  }
  return firstFailure(semanticConstraintsFor(op.type), OperationView(subgraph, op)).constraint == nullptr;
}

} // namespace ethosu::support
