// SPDX-License-Identifier: Apache-2.0
#include "builtin_operator_table.hpp"

#include "frontend_tflite/builtin_operators.hpp"

namespace npu::tflite_frontend {

namespace detail {

// The operator types follow Vela 3.10's builtin_operator_map (ethosu/vela/tflite_mapping.py); Vela maps
// none of PLACEHOLDER_FOR_GREATER_OP_CODES and the StableHLO operators, which stay Unknown. The switch has
// no default so that the compiler reports a BuiltinOperator added to the schema but not to this table.
BuiltinOperatorEntry builtinOperatorEntry(std::int32_t code) {
  using B = tflite::BuiltinOperator;
  using O = tflite::BuiltinOptions;
  switch (static_cast<B>(code)) {
  case B::ADD:
    return {OpType::Add, O::AddOptions};
  case B::AVERAGE_POOL_2D:
    return {OpType::AvgPool, O::Pool2DOptions};
  case B::CONCATENATION:
    return {OpType::ConcatTFLite, O::ConcatenationOptions};
  case B::CONV_2D:
    return {OpType::Conv2DBias, O::Conv2DOptions};
  case B::DEPTHWISE_CONV_2D:
    return {OpType::DepthwiseConv2DBias, O::DepthwiseConv2DOptions};
  case B::DEPTH_TO_SPACE:
    return {OpType::DepthToSpace, O::DepthToSpaceOptions};
  case B::DEQUANTIZE:
    return {OpType::Dequantize, O::DequantizeOptions};
  case B::EMBEDDING_LOOKUP:
    return {OpType::EmbeddingLookup, O::NONE};
  case B::FLOOR:
    return {OpType::Floor, O::NONE};
  case B::FULLY_CONNECTED:
    return {OpType::FullyConnected, O::FullyConnectedOptions};
  case B::HASHTABLE_LOOKUP:
    return {OpType::HashtableLookup, O::NONE};
  case B::L2_NORMALIZATION:
    return {OpType::L2Norm, O::L2NormOptions};
  case B::L2_POOL_2D:
    return {OpType::L2Pool2D, O::Pool2DOptions};
  case B::LOCAL_RESPONSE_NORMALIZATION:
    return {OpType::LRN, O::LocalResponseNormalizationOptions};
  case B::LOGISTIC:
    return {OpType::Sigmoid, O::NONE};
  case B::LSH_PROJECTION:
    return {OpType::LSHProjection, O::LSHProjectionOptions};
  case B::LSTM:
    return {OpType::Lstm, O::LSTMOptions};
  case B::MAX_POOL_2D:
    return {OpType::MaxPool, O::Pool2DOptions};
  case B::MUL:
    return {OpType::Mul, O::MulOptions};
  case B::RELU:
    return {OpType::Relu, O::NONE};
  case B::RELU_N1_TO_1:
    return {OpType::ReluN1To1, O::NONE};
  case B::RELU6:
    return {OpType::Relu6, O::NONE};
  case B::RESHAPE:
    return {OpType::Reshape, O::ReshapeOptions};
  case B::RESIZE_BILINEAR:
    return {OpType::ResizeBilinear, O::ResizeBilinearOptions};
  case B::RNN:
    return {OpType::Rnn, O::RNNOptions};
  case B::SOFTMAX:
    return {OpType::Softmax, O::SoftmaxOptions};
  case B::SPACE_TO_DEPTH:
    return {OpType::SpaceToDepth, O::SpaceToDepthOptions};
  case B::SVDF:
    return {OpType::Svdf, O::SVDFOptions};
  case B::TANH:
    return {OpType::Tanh, O::NONE};
  case B::CONCAT_EMBEDDINGS:
    return {OpType::ConcatEmbeddings, O::ConcatEmbeddingsOptions};
  case B::SKIP_GRAM:
    return {OpType::SkipGram, O::SkipGramOptions};
  case B::CALL:
    return {OpType::Call, O::CallOptions};
  case B::CUSTOM:
    return {OpType::Custom, O::NONE};
  case B::EMBEDDING_LOOKUP_SPARSE:
    return {OpType::EmbeddingLookupSparse, O::EmbeddingLookupSparseOptions};
  case B::PAD:
    return {OpType::Pad, O::PadOptions};
  case B::UNIDIRECTIONAL_SEQUENCE_RNN:
    return {OpType::UnidirectionalSequenceRnn, O::SequenceRNNOptions};
  case B::GATHER:
    return {OpType::GatherV2, O::GatherOptions};
  case B::BATCH_TO_SPACE_ND:
    return {OpType::BatchToSpaceND, O::BatchToSpaceNDOptions};
  case B::SPACE_TO_BATCH_ND:
    return {OpType::SpaceToBatchND, O::SpaceToBatchNDOptions};
  case B::TRANSPOSE:
    return {OpType::Transpose, O::TransposeOptions};
  case B::MEAN:
    return {OpType::Mean, O::ReducerOptions};
  case B::SUB:
    return {OpType::Sub, O::SubOptions};
  case B::DIV:
    return {OpType::Div, O::DivOptions};
  case B::SQUEEZE:
    return {OpType::Squeeze, O::SqueezeOptions};
  case B::UNIDIRECTIONAL_SEQUENCE_LSTM:
    return {OpType::UnidirectionalSequenceLstm, O::UnidirectionalSequenceLSTMOptions};
  case B::STRIDED_SLICE:
    return {OpType::StridedSlice, O::StridedSliceOptions};
  case B::BIDIRECTIONAL_SEQUENCE_RNN:
    return {OpType::BidirectionalSequenceRnn, O::BidirectionalSequenceRNNOptions};
  case B::EXP:
    return {OpType::Exp, O::ExpOptions};
  case B::TOPK_V2:
    return {OpType::TopKV2, O::TopKV2Options};
  case B::SPLIT:
    return {OpType::Split, O::SplitOptions};
  case B::LOG_SOFTMAX:
    return {OpType::LogSoftmax, O::LogSoftmaxOptions};
  case B::DELEGATE:
    return {OpType::Delegate, O::NONE};
  case B::BIDIRECTIONAL_SEQUENCE_LSTM:
    return {OpType::BidirectionalSequenceLstm, O::BidirectionalSequenceLSTMOptions};
  case B::CAST:
    return {OpType::Cast, O::CastOptions};
  case B::PRELU:
    return {OpType::Prelu, O::NONE};
  case B::MAXIMUM:
    return {OpType::Maximum, O::MaximumMinimumOptions};
  case B::ARG_MAX:
    return {OpType::ArgMax, O::ArgMaxOptions};
  case B::MINIMUM:
    return {OpType::Minimum, O::MaximumMinimumOptions};
  case B::LESS:
    return {OpType::Less, O::LessOptions};
  case B::NEG:
    return {OpType::Neg, O::NegOptions};
  case B::PADV2:
    return {OpType::PadV2, O::PadV2Options};
  case B::GREATER:
    return {OpType::Greater, O::GreaterOptions};
  case B::GREATER_EQUAL:
    return {OpType::GreaterEqual, O::GreaterEqualOptions};
  case B::LESS_EQUAL:
    return {OpType::LessEqual, O::LessEqualOptions};
  case B::SELECT:
    return {OpType::Select, O::SelectOptions};
  case B::SLICE:
    return {OpType::Slice, O::SliceOptions};
  case B::SIN:
    return {OpType::Sin, O::NONE};
  case B::TRANSPOSE_CONV:
    return {OpType::Conv2DBackpropInput, O::TransposeConvOptions};
  case B::SPARSE_TO_DENSE:
    return {OpType::SparseToDense, O::SparseToDenseOptions};
  case B::TILE:
    return {OpType::Tile, O::TileOptions};
  case B::EXPAND_DIMS:
    return {OpType::ExpandDims, O::ExpandDimsOptions};
  case B::EQUAL:
    return {OpType::Equal, O::EqualOptions};
  case B::NOT_EQUAL:
    return {OpType::NotEqual, O::NotEqualOptions};
  case B::LOG:
    return {OpType::Log, O::NONE};
  case B::SUM:
    return {OpType::Sum, O::ReducerOptions};
  case B::SQRT:
    return {OpType::Sqrt, O::NONE};
  case B::RSQRT:
    return {OpType::Rsqrt, O::NONE};
  case B::SHAPE:
    return {OpType::Shape, O::ShapeOptions};
  case B::POW:
    return {OpType::Pow, O::PowOptions};
  case B::ARG_MIN:
    return {OpType::ArgMin, O::ArgMinOptions};
  case B::FAKE_QUANT:
    return {OpType::FakeQuantWithMinMaxArgs, O::FakeQuantOptions};
  case B::REDUCE_PROD:
    return {OpType::Prod, O::ReducerOptions};
  case B::REDUCE_MAX:
    return {OpType::Max, O::ReducerOptions};
  case B::PACK:
    return {OpType::Pack, O::PackOptions};
  case B::LOGICAL_OR:
    return {OpType::LogicalOr, O::LogicalOrOptions};
  case B::ONE_HOT:
    return {OpType::OneHot, O::OneHotOptions};
  case B::LOGICAL_AND:
    return {OpType::LogicalAnd, O::LogicalAndOptions};
  case B::LOGICAL_NOT:
    return {OpType::LogicalNot, O::LogicalNotOptions};
  case B::UNPACK:
    return {OpType::Unpack, O::UnpackOptions};
  case B::REDUCE_MIN:
    return {OpType::Min, O::ReducerOptions};
  case B::FLOOR_DIV:
    return {OpType::FloorDiv, O::FloorDivOptions};
  case B::REDUCE_ANY:
    return {OpType::Any, O::ReducerOptions};
  case B::SQUARE:
    return {OpType::Square, O::SquareOptions};
  case B::ZEROS_LIKE:
    return {OpType::ZerosLike, O::ZerosLikeOptions};
  case B::FILL:
    return {OpType::Fill, O::FillOptions};
  case B::FLOOR_MOD:
    return {OpType::FloorMod, O::FloorModOptions};
  case B::RANGE:
    return {OpType::Range, O::RangeOptions};
  case B::RESIZE_NEAREST_NEIGHBOR:
    return {OpType::ResizeNearestNeighbor, O::ResizeNearestNeighborOptions};
  case B::LEAKY_RELU:
    return {OpType::LeakyRelu, O::LeakyReluOptions};
  case B::SQUARED_DIFFERENCE:
    return {OpType::SquaredDifference, O::SquaredDifferenceOptions};
  case B::MIRROR_PAD:
    return {OpType::MirrorPad, O::MirrorPadOptions};
  case B::ABS:
    return {OpType::Abs, O::AbsOptions};
  case B::SPLIT_V:
    return {OpType::SplitV, O::SplitVOptions};
  case B::UNIQUE:
    return {OpType::Unique, O::UniqueOptions};
  case B::CEIL:
    return {OpType::Ceil, O::NONE};
  case B::REVERSE_V2:
    return {OpType::ReverseV2, O::ReverseV2Options};
  case B::ADD_N:
    return {OpType::AddN, O::AddNOptions};
  case B::GATHER_ND:
    return {OpType::GatherNd, O::GatherNdOptions};
  case B::COS:
    return {OpType::Cos, O::CosOptions};
  case B::WHERE:
    return {OpType::Where, O::WhereOptions};
  case B::RANK:
    return {OpType::Rank, O::RankOptions};
  case B::ELU:
    return {OpType::Elu, O::NONE};
  case B::REVERSE_SEQUENCE:
    return {OpType::ReverseSequence, O::ReverseSequenceOptions};
  case B::MATRIX_DIAG:
    return {OpType::MatrixDiag, O::MatrixDiagOptions};
  case B::QUANTIZE:
    return {OpType::Quantize, O::QuantizeOptions};
  case B::MATRIX_SET_DIAG:
    return {OpType::MatrixSetDiag, O::MatrixSetDiagOptions};
  case B::ROUND:
    return {OpType::Round, O::NONE};
  case B::HARD_SWISH:
    return {OpType::HardSwish, O::HardSwishOptions};
  case B::IF:
    return {OpType::If, O::IfOptions};
  case B::WHILE:
    return {OpType::While, O::WhileOptions};
  case B::NON_MAX_SUPPRESSION_V4:
    return {OpType::NonMaxSuppressionV4, O::NonMaxSuppressionV4Options};
  case B::NON_MAX_SUPPRESSION_V5:
    return {OpType::NonMaxSuppressionV5, O::NonMaxSuppressionV5Options};
  case B::SCATTER_ND:
    return {OpType::ScatterNd, O::ScatterNdOptions};
  case B::SELECT_V2:
    return {OpType::SelectV2, O::SelectV2Options};
  case B::DENSIFY:
    return {OpType::Densify, O::DensifyOptions};
  case B::SEGMENT_SUM:
    return {OpType::SegmentSum, O::SegmentSumOptions};
  case B::BATCH_MATMUL:
    return {OpType::BatchMatMul, O::BatchMatMulOptions};
  case B::CUMSUM:
    return {OpType::Cumsum, O::CumsumOptions};
  case B::CALL_ONCE:
    return {OpType::CallOnce, O::CallOnceOptions};
  case B::BROADCAST_TO:
    return {OpType::BroadcastTo, O::BroadcastToOptions};
  case B::RFFT2D:
    return {OpType::Rfft2D, O::Rfft2dOptions};
  case B::CONV_3D:
    return {OpType::Conv3D, O::Conv3DOptions};
  case B::IMAG:
    return {OpType::Imag, O::NONE};
  case B::REAL:
    return {OpType::Real, O::NONE};
  case B::COMPLEX_ABS:
    return {OpType::ComplexAbs, O::NONE};
  case B::HASHTABLE:
    return {OpType::Hashtable, O::HashtableOptions};
  case B::HASHTABLE_FIND:
    return {OpType::HashtableFind, O::HashtableFindOptions};
  case B::HASHTABLE_IMPORT:
    return {OpType::HashtableImport, O::HashtableImportOptions};
  case B::HASHTABLE_SIZE:
    return {OpType::HashtableSize, O::HashtableSizeOptions};
  case B::REDUCE_ALL:
    return {OpType::ReduceAll, O::ReducerOptions};
  case B::CONV_3D_TRANSPOSE:
    return {OpType::Conv3DTranspose, O::Conv3DOptions};
  case B::VAR_HANDLE:
    return {OpType::VarHandle, O::VarHandleOptions};
  case B::READ_VARIABLE:
    return {OpType::ReadVariable, O::ReadVariableOptions};
  case B::ASSIGN_VARIABLE:
    return {OpType::AssignVariable, O::AssignVariableOptions};
  case B::BROADCAST_ARGS:
    return {OpType::BroadcastArgs, O::NONE};
  case B::RANDOM_STANDARD_NORMAL:
    return {OpType::RandomStandardNormal, O::RandomOptions};
  case B::BUCKETIZE:
    return {OpType::Bucketize, O::BucketizeOptions};
  case B::RANDOM_UNIFORM:
    return {OpType::RandomUniform, O::RandomOptions};
  case B::MULTINOMIAL:
    return {OpType::Multinomial, O::RandomOptions};
  case B::GELU:
    return {OpType::Gelu, O::GeluOptions};
  case B::DYNAMIC_UPDATE_SLICE:
    return {OpType::DynamicUpdateSlice, O::DynamicUpdateSliceOptions};
  case B::RELU_0_TO_1:
    return {OpType::Relu0To1, O::NONE};
  case B::UNSORTED_SEGMENT_PROD:
    return {OpType::UnsortedSegmentProd, O::UnsortedSegmentProdOptions};
  case B::UNSORTED_SEGMENT_MAX:
    return {OpType::UnsortedSegmentMax, O::UnsortedSegmentMaxOptions};
  case B::UNSORTED_SEGMENT_SUM:
    return {OpType::UnsortedSegmentSum, O::UnsortedSegmentSumOptions};
  case B::ATAN2:
    return {OpType::Atan2, O::ATan2Options};
  case B::UNSORTED_SEGMENT_MIN:
    return {OpType::UnsortedSegmentMin, O::UnsortedSegmentMinOptions};
  case B::SIGN:
    return {OpType::Sign, O::SignOptions};
  case B::BITCAST:
    return {OpType::Bitcast, O::BitcastOptions};
  case B::BITWISE_XOR:
    return {OpType::BitwiseXor, O::BitwiseXorOptions};
  case B::RIGHT_SHIFT:
    return {OpType::RightShift, O::RightShiftOptions};
  case B::PLACEHOLDER_FOR_GREATER_OP_CODES:
  case B::STABLEHLO_LOGISTIC:
  case B::STABLEHLO_ADD:
  case B::STABLEHLO_DIVIDE:
  case B::STABLEHLO_MULTIPLY:
  case B::STABLEHLO_MAXIMUM:
  case B::STABLEHLO_RESHAPE:
  case B::STABLEHLO_CLAMP:
  case B::STABLEHLO_CONCATENATE:
  case B::STABLEHLO_BROADCAST_IN_DIM:
  case B::STABLEHLO_CONVOLUTION:
  case B::STABLEHLO_SLICE:
  case B::STABLEHLO_CUSTOM_CALL:
  case B::STABLEHLO_REDUCE:
  case B::STABLEHLO_ABS:
  case B::STABLEHLO_AND:
  case B::STABLEHLO_COSINE:
  case B::STABLEHLO_EXPONENTIAL:
  case B::STABLEHLO_FLOOR:
  case B::STABLEHLO_LOG:
  case B::STABLEHLO_MINIMUM:
  case B::STABLEHLO_NEGATE:
  case B::STABLEHLO_OR:
  case B::STABLEHLO_POWER:
  case B::STABLEHLO_REMAINDER:
  case B::STABLEHLO_RSQRT:
  case B::STABLEHLO_SELECT:
  case B::STABLEHLO_SUBTRACT:
  case B::STABLEHLO_TANH:
  case B::STABLEHLO_SCATTER:
  case B::STABLEHLO_COMPARE:
  case B::STABLEHLO_CONVERT:
  case B::STABLEHLO_DYNAMIC_SLICE:
  case B::STABLEHLO_DYNAMIC_UPDATE_SLICE:
  case B::STABLEHLO_PAD:
  case B::STABLEHLO_IOTA:
  case B::STABLEHLO_DOT_GENERAL:
  case B::STABLEHLO_REDUCE_WINDOW:
  case B::STABLEHLO_SORT:
  case B::STABLEHLO_WHILE:
  case B::STABLEHLO_GATHER:
  case B::STABLEHLO_TRANSPOSE:
  case B::DILATE:
  case B::STABLEHLO_RNG_BIT_GENERATOR:
  case B::REDUCE_WINDOW:
  case B::STABLEHLO_COMPOSITE:
  case B::STABLEHLO_SHIFT_LEFT:
  case B::STABLEHLO_CBRT:
  case B::STABLEHLO_CASE:
    return {};
  }
  return {};
}

} // namespace detail

std::string_view builtinOperatorName(std::int32_t code) {
  if (code < static_cast<std::int32_t>(tflite::BuiltinOperator::MIN) ||
      code > static_cast<std::int32_t>(tflite::BuiltinOperator::MAX)) {
    return {};
  }
  return tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code));
}

OpType opTypeOfBuiltin(std::int32_t code) {
  return detail::builtinOperatorEntry(code).type;
}

std::string sourceTypeName(std::int32_t code, std::string_view customCode) {
  if (code == kCustomOperatorCode) {
    return "CUSTOM:" + std::string(customCode);
  }
  const std::string_view name = builtinOperatorName(code);
  return name.empty() ? "BUILTIN_" + std::to_string(code) : std::string(name);
}

} // namespace npu::tflite_frontend
