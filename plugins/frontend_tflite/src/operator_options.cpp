// SPDX-License-Identifier: Apache-2.0
#include "operator_options.hpp"

#include "option_reader.hpp"

namespace npu::tflite_frontend::detail {

namespace {

using tflite::BuiltinOptions;

/// Options of convolutions, pooling and other operators whose geometry the IR models.
bool readGeometryOptions(const tflite::Operator& op, BuiltinOptions type, OptionReader& r) {
  switch (type) {
  case BuiltinOptions::Conv2DOptions: {
    const auto* o = op.builtin_options_as_Conv2DOptions();
    r.padding(o->padding());
    r.convolutionKernel(o->stride_w(), o->stride_h(), o->dilation_w_factor(), o->dilation_h_factor());
    r.activation(o->fused_activation_function());
    return true;
  }
  case BuiltinOptions::DepthwiseConv2DOptions: {
    const auto* o = op.builtin_options_as_DepthwiseConv2DOptions();
    r.padding(o->padding());
    r.convolutionKernel(o->stride_w(), o->stride_h(), o->dilation_w_factor(), o->dilation_h_factor());
    r.activation(o->fused_activation_function());
    r.depthMultiplier(o->depth_multiplier());
    return true;
  }
  case BuiltinOptions::TransposeConvOptions: {
    const auto* o = op.builtin_options_as_TransposeConvOptions();
    r.padding(o->padding());
    r.convolutionKernel(o->stride_w(), o->stride_h(), 1, 1);
    r.activation(o->fused_activation_function());
    return true;
  }
  case BuiltinOptions::Pool2DOptions: {
    const auto* o = op.builtin_options_as_Pool2DOptions();
    r.padding(o->padding());
    r.poolingKernel(o->filter_width(), o->filter_height(), o->stride_w(), o->stride_h());
    r.activation(o->fused_activation_function());
    return true;
  }
  case BuiltinOptions::Conv3DOptions: { // no 3D kernel in the IR: depth, height and width as attributes
    const auto* o = op.builtin_options_as_Conv3DOptions();
    r.padding(o->padding());
    r.activation(o->fused_activation_function());
    r.integer("stride_d", o->stride_d());
    r.integer("stride_h", o->stride_h());
    r.integer("stride_w", o->stride_w());
    r.integer("dilation_d_factor", o->dilation_d_factor());
    r.integer("dilation_h_factor", o->dilation_h_factor());
    r.integer("dilation_w_factor", o->dilation_w_factor());
    return true;
  }
  default:
    return false;
  }
}

/// Options of element-wise and normalisation operators.
bool readArithmeticOptions(const tflite::Operator& op, BuiltinOptions type, OptionReader& r) {
  switch (type) {
  case BuiltinOptions::AddOptions: {
    const auto* o = op.builtin_options_as_AddOptions();
    r.activation(o->fused_activation_function());
    r.flag("pot_scale_int16", o->pot_scale_int16());
    return true;
  }
  case BuiltinOptions::SubOptions: {
    const auto* o = op.builtin_options_as_SubOptions();
    r.activation(o->fused_activation_function());
    r.flag("pot_scale_int16", o->pot_scale_int16());
    return true;
  }
  case BuiltinOptions::MulOptions:
    r.activation(op.builtin_options_as_MulOptions()->fused_activation_function());
    return true;
  case BuiltinOptions::DivOptions:
    r.activation(op.builtin_options_as_DivOptions()->fused_activation_function());
    return true;
  case BuiltinOptions::L2NormOptions:
    r.activation(op.builtin_options_as_L2NormOptions()->fused_activation_function());
    return true;
  case BuiltinOptions::FullyConnectedOptions: {
    const auto* o = op.builtin_options_as_FullyConnectedOptions();
    r.activation(o->fused_activation_function());
    r.enumeration("weights_format", tflite::EnumNameFullyConnectedOptionsWeightsFormat(o->weights_format()),
                  static_cast<int>(o->weights_format()));
    r.flag("keep_num_dims", o->keep_num_dims());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  case BuiltinOptions::ConcatenationOptions: {
    const auto* o = op.builtin_options_as_ConcatenationOptions();
    r.integer("axis", o->axis());
    r.activation(o->fused_activation_function());
    return true;
  }
  case BuiltinOptions::SoftmaxOptions:
    r.number("beta", op.builtin_options_as_SoftmaxOptions()->beta());
    return true;
  case BuiltinOptions::LeakyReluOptions:
    r.number("alpha", op.builtin_options_as_LeakyReluOptions()->alpha());
    return true;
  case BuiltinOptions::LocalResponseNormalizationOptions: {
    const auto* o = op.builtin_options_as_LocalResponseNormalizationOptions();
    r.integer("radius", o->radius());
    r.number("bias", o->bias());
    r.number("alpha", o->alpha());
    r.number("beta", o->beta());
    return true;
  }
  case BuiltinOptions::FakeQuantOptions: {
    const auto* o = op.builtin_options_as_FakeQuantOptions();
    r.number("min", o->min());
    r.number("max", o->max());
    r.integer("num_bits", o->num_bits());
    r.flag("narrow_range", o->narrow_range());
    return true;
  }
  case BuiltinOptions::GeluOptions:
    r.flag("approximate", op.builtin_options_as_GeluOptions()->approximate());
    return true;
  default:
    return false;
  }
}

/// Options of reshaping, slicing, gathering and reduction operators.
bool readShapeOptions(const tflite::Operator& op, BuiltinOptions type, OptionReader& r) {
  switch (type) {
  case BuiltinOptions::ReshapeOptions:
    r.integers("new_shape", op.builtin_options_as_ReshapeOptions()->new_shape());
    return true;
  case BuiltinOptions::SqueezeOptions:
    r.integers("squeeze_dims", op.builtin_options_as_SqueezeOptions()->squeeze_dims());
    return true;
  case BuiltinOptions::ReducerOptions:
    r.flag("keep_dims", op.builtin_options_as_ReducerOptions()->keep_dims());
    return true;
  case BuiltinOptions::SplitOptions:
    r.integer("num_splits", op.builtin_options_as_SplitOptions()->num_splits());
    return true;
  case BuiltinOptions::SplitVOptions:
    r.integer("num_splits", op.builtin_options_as_SplitVOptions()->num_splits());
    return true;
  case BuiltinOptions::StridedSliceOptions: {
    const auto* o = op.builtin_options_as_StridedSliceOptions();
    r.integer("begin_mask", o->begin_mask());
    r.integer("end_mask", o->end_mask());
    r.integer("ellipsis_mask", o->ellipsis_mask());
    r.integer("new_axis_mask", o->new_axis_mask());
    r.integer("shrink_axis_mask", o->shrink_axis_mask());
    r.flag("offset", o->offset());
    return true;
  }
  case BuiltinOptions::PackOptions: {
    const auto* o = op.builtin_options_as_PackOptions();
    r.integer("values_count", o->values_count());
    r.integer("axis", o->axis());
    return true;
  }
  case BuiltinOptions::UnpackOptions: {
    const auto* o = op.builtin_options_as_UnpackOptions();
    r.integer("num", o->num());
    r.integer("axis", o->axis());
    return true;
  }
  case BuiltinOptions::GatherOptions: {
    const auto* o = op.builtin_options_as_GatherOptions();
    r.integer("axis", o->axis());
    r.integer("batch_dims", o->batch_dims());
    return true;
  }
  case BuiltinOptions::OneHotOptions:
    r.integer("axis", op.builtin_options_as_OneHotOptions()->axis());
    return true;
  case BuiltinOptions::SpaceToDepthOptions:
    r.integer("block_size", op.builtin_options_as_SpaceToDepthOptions()->block_size());
    return true;
  case BuiltinOptions::DepthToSpaceOptions:
    r.integer("block_size", op.builtin_options_as_DepthToSpaceOptions()->block_size());
    return true;
  case BuiltinOptions::ResizeBilinearOptions: {
    const auto* o = op.builtin_options_as_ResizeBilinearOptions();
    r.flag("align_corners", o->align_corners());
    r.flag("half_pixel_centers", o->half_pixel_centers());
    return true;
  }
  case BuiltinOptions::ResizeNearestNeighborOptions: {
    const auto* o = op.builtin_options_as_ResizeNearestNeighborOptions();
    r.flag("align_corners", o->align_corners());
    r.flag("half_pixel_centers", o->half_pixel_centers());
    return true;
  }
  case BuiltinOptions::MirrorPadOptions: {
    const auto mode = op.builtin_options_as_MirrorPadOptions()->mode();
    r.enumeration("mode", tflite::EnumNameMirrorPadMode(mode), static_cast<int>(mode));
    return true;
  }
  case BuiltinOptions::ReverseSequenceOptions: {
    const auto* o = op.builtin_options_as_ReverseSequenceOptions();
    r.integer("seq_dim", o->seq_dim());
    r.integer("batch_dim", o->batch_dim());
    return true;
  }
  case BuiltinOptions::CumsumOptions: {
    const auto* o = op.builtin_options_as_CumsumOptions();
    r.flag("exclusive", o->exclusive());
    r.flag("reverse", o->reverse());
    return true;
  }
  case BuiltinOptions::BatchMatMulOptions: {
    const auto* o = op.builtin_options_as_BatchMatMulOptions();
    r.flag("adj_x", o->adj_x());
    r.flag("adj_y", o->adj_y());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  case BuiltinOptions::SparseToDenseOptions:
    r.flag("validate_indices", op.builtin_options_as_SparseToDenseOptions()->validate_indices());
    return true;
  case BuiltinOptions::BucketizeOptions:
    r.numbers("boundaries", op.builtin_options_as_BucketizeOptions()->boundaries());
    return true;
  default:
    return false;
  }
}

/// Options naming tensor types: casts, arg min/max, shape, unique, hash tables.
bool readTypeOptions(const tflite::Operator& op, BuiltinOptions type, OptionReader& r) {
  switch (type) {
  case BuiltinOptions::CastOptions: {
    const auto* o = op.builtin_options_as_CastOptions();
    r.tensorType("in_data_type", o->in_data_type());
    r.tensorType("out_data_type", o->out_data_type());
    return true;
  }
  case BuiltinOptions::ArgMaxOptions:
    r.tensorType("output_type", op.builtin_options_as_ArgMaxOptions()->output_type());
    return true;
  case BuiltinOptions::ArgMinOptions:
    r.tensorType("output_type", op.builtin_options_as_ArgMinOptions()->output_type());
    return true;
  case BuiltinOptions::ShapeOptions:
    r.tensorType("out_type", op.builtin_options_as_ShapeOptions()->out_type());
    return true;
  case BuiltinOptions::UniqueOptions:
    r.tensorType("idx_out_type", op.builtin_options_as_UniqueOptions()->idx_out_type());
    return true;
  case BuiltinOptions::HashtableOptions: {
    const auto* o = op.builtin_options_as_HashtableOptions();
    r.integer("table_id", o->table_id());
    r.tensorType("key_dtype", o->key_dtype());
    r.tensorType("value_dtype", o->value_dtype());
    return true;
  }
  default:
    return false;
  }
}

/// Options of recurrent operators (their fused activation is the cell activation; Vela keeps it as the
/// operation's activation all the same).
bool readRecurrentOptions(const tflite::Operator& op, BuiltinOptions type, OptionReader& r) {
  switch (type) {
  case BuiltinOptions::LSTMOptions: {
    const auto* o = op.builtin_options_as_LSTMOptions();
    r.activation(o->fused_activation_function());
    r.number("cell_clip", o->cell_clip());
    r.number("proj_clip", o->proj_clip());
    r.enumeration("kernel_type", tflite::EnumNameLSTMKernelType(o->kernel_type()), static_cast<int>(o->kernel_type()));
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  case BuiltinOptions::UnidirectionalSequenceLSTMOptions: {
    const auto* o = op.builtin_options_as_UnidirectionalSequenceLSTMOptions();
    r.activation(o->fused_activation_function());
    r.number("cell_clip", o->cell_clip());
    r.number("proj_clip", o->proj_clip());
    r.flag("time_major", o->time_major());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    r.flag("diagonal_recurrent_tensors", o->diagonal_recurrent_tensors());
    return true;
  }
  case BuiltinOptions::BidirectionalSequenceLSTMOptions: {
    const auto* o = op.builtin_options_as_BidirectionalSequenceLSTMOptions();
    r.activation(o->fused_activation_function());
    r.number("cell_clip", o->cell_clip());
    r.number("proj_clip", o->proj_clip());
    r.flag("merge_outputs", o->merge_outputs());
    r.flag("time_major", o->time_major());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  case BuiltinOptions::RNNOptions: {
    const auto* o = op.builtin_options_as_RNNOptions();
    r.activation(o->fused_activation_function());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  case BuiltinOptions::SequenceRNNOptions: {
    const auto* o = op.builtin_options_as_SequenceRNNOptions();
    r.flag("time_major", o->time_major());
    r.activation(o->fused_activation_function());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  case BuiltinOptions::BidirectionalSequenceRNNOptions: {
    const auto* o = op.builtin_options_as_BidirectionalSequenceRNNOptions();
    r.flag("time_major", o->time_major());
    r.activation(o->fused_activation_function());
    r.flag("merge_outputs", o->merge_outputs());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  case BuiltinOptions::SVDFOptions: {
    const auto* o = op.builtin_options_as_SVDFOptions();
    r.integer("rank", o->rank());
    r.activation(o->fused_activation_function());
    r.flag("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs());
    return true;
  }
  default:
    return false;
  }
}

/// Options of control flow, resource and text operators.
bool readOtherOptions(const tflite::Operator& op, BuiltinOptions type, OptionReader& r) {
  switch (type) {
  case BuiltinOptions::CallOptions:
    r.subgraphIndex("subgraph", op.builtin_options_as_CallOptions()->subgraph());
    return true;
  case BuiltinOptions::IfOptions: {
    const auto* o = op.builtin_options_as_IfOptions();
    r.subgraphIndex("then_subgraph_index", o->then_subgraph_index());
    r.subgraphIndex("else_subgraph_index", o->else_subgraph_index());
    return true;
  }
  case BuiltinOptions::WhileOptions: {
    const auto* o = op.builtin_options_as_WhileOptions();
    r.subgraphIndex("cond_subgraph_index", o->cond_subgraph_index());
    r.subgraphIndex("body_subgraph_index", o->body_subgraph_index());
    return true;
  }
  case BuiltinOptions::CallOnceOptions:
    r.subgraphIndex("init_subgraph_index", op.builtin_options_as_CallOnceOptions()->init_subgraph_index());
    return true;
  case BuiltinOptions::VarHandleOptions: {
    const auto* o = op.builtin_options_as_VarHandleOptions();
    r.text("container", o->container());
    r.text("shared_name", o->shared_name());
    return true;
  }
  case BuiltinOptions::RandomOptions: {
    const auto* o = op.builtin_options_as_RandomOptions();
    r.integer("seed", o->seed());
    r.integer("seed2", o->seed2());
    return true;
  }
  case BuiltinOptions::SkipGramOptions: {
    const auto* o = op.builtin_options_as_SkipGramOptions();
    r.integer("ngram_size", o->ngram_size());
    r.integer("max_skip_size", o->max_skip_size());
    r.flag("include_all_ngrams", o->include_all_ngrams());
    return true;
  }
  case BuiltinOptions::LSHProjectionOptions: {
    const auto projection = op.builtin_options_as_LSHProjectionOptions()->type();
    r.enumeration("type", tflite::EnumNameLSHProjectionType(projection), static_cast<int>(projection));
    return true;
  }
  case BuiltinOptions::EmbeddingLookupSparseOptions: {
    const auto combiner = op.builtin_options_as_EmbeddingLookupSparseOptions()->combiner();
    r.enumeration("combiner", tflite::EnumNameCombinerType(combiner), static_cast<int>(combiner));
    return true;
  }
  case BuiltinOptions::ConcatEmbeddingsOptions: {
    const auto* o = op.builtin_options_as_ConcatEmbeddingsOptions();
    r.integer("num_channels", o->num_channels());
    r.integers("num_columns_per_channel", o->num_columns_per_channel());
    r.integers("embedding_dim_per_channel", o->embedding_dim_per_channel());
    return true;
  }
  default:
    return false; // options tables without fields
  }
}

bool needsGeometry(OpType type) {
  switch (type) {
  case OpType::Conv2DBias:
  case OpType::DepthwiseConv2DBias:
  case OpType::Conv2DBackpropInput:
  case OpType::AvgPool:
  case OpType::MaxPool:
  case OpType::L2Pool2D:
    return true;
  default:
    return false;
  }
}

} // namespace

void readBuiltinOptions(const ReaderContext& context, const OperatorSource& source, const std::vector<Tensor>& tensors,
                        Operation& operation) {
  OptionReader reader(context, source, tensors, operation);
  const BuiltinOptions type = source.op.builtin_options_type();
  const bool hasOptions =
      type != BuiltinOptions::NONE && type == source.expectedOptions && source.op.builtin_options() != nullptr;
  if (hasOptions) {
    const auto& op = source.op;
    [[maybe_unused]] const bool known = readGeometryOptions(op, type, reader) ||
                                        readArithmeticOptions(op, type, reader) || readShapeOptions(op, type, reader) ||
                                        readTypeOptions(op, type, reader) || readRecurrentOptions(op, type, reader) ||
                                        readOtherOptions(op, type, reader);
  } else if (needsGeometry(operation.type)) {
    context.fail(std::string("the operator has no ") + tflite::EnumNameBuiltinOptions(source.expectedOptions),
                 source.who, "its padding, strides and kernel size are part of those options");
  }
  if (operation.type == OpType::Cast) {
    reader.castTypes();
  }
}

void readCustomOptions(const ReaderContext& context, const OperatorSource& source, const std::string& customCode,
                       Operation& operation) {
  operation.attributes.set("custom_code", customCode);
  std::span<const std::uint8_t> bytes;
  if (source.op.custom_options() != nullptr) {
    bytes = std::span<const std::uint8_t>(source.op.custom_options()->data(), source.op.custom_options()->size());
  } else if (source.op.large_custom_options_offset() > 1) {
    bytes =
        context.fileRange(source.op.large_custom_options_offset(), source.op.large_custom_options_size(), source.who);
  }
  operation.attributes.set("custom_options", std::vector<std::int64_t>(bytes.begin(), bytes.end()));
}

} // namespace npu::tflite_frontend::detail
