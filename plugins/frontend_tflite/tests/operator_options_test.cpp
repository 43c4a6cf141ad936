// SPDX-License-Identifier: Apache-2.0
#include "test_models.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using namespace npu::tflite_frontend::test;
using tflite::BuiltinOperator;
using tflite::BuiltinOptions;
using tflite::TensorType;

npu::Operation onlyOperation(const Bytes& bytes) {
  return read(bytes).subgraphs.at(0).operations.at(0);
}

template <typename T>
T attribute(const npu::Operation& op, const std::string& name) {
  const std::optional<T> value = op.attributes.get<T>(name);
  BOOST_TEST_REQUIRE(value.has_value(), "attribute " << name << " is missing or has another type");
  return *value;
}

InputSpec feature(std::vector<int> shape) {
  return {std::move(shape), TensorType::INT8, false};
}
InputSpec constant(std::vector<int> shape, TensorType type = TensorType::INT8) {
  return {std::move(shape), type, true};
}

} // namespace

BOOST_AUTO_TEST_SUITE(operator_options)

BOOST_AUTO_TEST_CASE(a_convolution_takes_its_kernel_size_from_the_weights_and_strides_from_its_options) {
  const npu::Operation op = onlyOperation(convolutionModel(3, 5, [](auto& fbb) {
    return OptionsTable{
        BuiltinOptions::Conv2DOptions,
        tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 1, 2, tflite::ActivationFunctionType::RELU6, 2, 1)
            .Union()};
  }, {1, 4, 8, 2}));
  BOOST_TEST((op.type == npu::OpType::Conv2DBias));
  BOOST_TEST(op.sourceType == "CONV_2D");
  BOOST_TEST(op.name == "output");
  BOOST_TEST_REQUIRE(op.kernel.has_value());
  BOOST_TEST((*op.kernel == npu::Kernel{5, 3, 1, 2, 2, 1}));
  BOOST_TEST((op.padding == npu::Padding::Same));
  BOOST_TEST_REQUIRE(op.activation.has_value());
  BOOST_TEST((op.activation->type == npu::OpType::Relu6));
  BOOST_TEST(op.activation->min.value_or(-1.0) == 0.0);
  BOOST_TEST(op.activation->max.value_or(-1.0) == 6.0);
  // What the IR models structurally is not repeated as attributes (only the operator code's version is).
  BOOST_TEST(op.attributes.all().size() == 1U);
  BOOST_TEST(op.attributes.get<std::int64_t>("version").value_or(0) == 1);
}

BOOST_AUTO_TEST_CASE(an_implied_depth_multiplier_is_derived_from_weights_and_input_channels) {
  const auto model = [](int multiplier) {
    return singleOperatorModel(
        BuiltinOperator::DEPTHWISE_CONV_2D,
        {feature({1, 8, 8, 4}), constant({1, 3, 3, 8}), constant({8}, TensorType::INT32)}, {1, 6, 6, 8},
        [multiplier](auto& fbb) {
          return OptionsTable{
              BuiltinOptions::DepthwiseConv2DOptions,
              tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::VALID, 1, 1, multiplier).Union()};
        });
  };
  const npu::Operation implied = onlyOperation(model(0));
  BOOST_TEST((implied.type == npu::OpType::DepthwiseConv2DBias));
  BOOST_TEST(attribute<std::int64_t>(implied, "depth_multiplier") == 2);
  BOOST_TEST((implied.padding == npu::Padding::Valid));
  BOOST_TEST(!implied.activation.has_value());
  BOOST_TEST(attribute<std::int64_t>(onlyOperation(model(2)), "depth_multiplier") == 2);
}

BOOST_AUTO_TEST_CASE(pooling_takes_its_kernel_from_the_filter_size) {
  const npu::Operation op = onlyOperation(
      singleOperatorModel(BuiltinOperator::MAX_POOL_2D, {feature({1, 8, 8, 4})}, {1, 4, 3, 4}, [](auto& fbb) {
        return OptionsTable{
            BuiltinOptions::Pool2DOptions,
            tflite::CreatePool2DOptions(fbb, tflite::Padding::VALID, 2, 2, 3, 2, tflite::ActivationFunctionType::RELU)
                .Union()};
      }));
  BOOST_TEST((op.type == npu::OpType::MaxPool));
  BOOST_TEST((*op.kernel == npu::Kernel{3, 2, 2, 2, 1, 1}));
  BOOST_TEST((op.activation->type == npu::OpType::Relu));
  BOOST_TEST(op.activation->min.value_or(-1.0) == 0.0);
  BOOST_TEST(!op.activation->max.has_value());
}

BOOST_AUTO_TEST_CASE(a_transpose_convolution_keeps_tflite_input_order_and_reads_its_weights_kernel) {
  const npu::Operation op = onlyOperation(singleOperatorModel(
      BuiltinOperator::TRANSPOSE_CONV,
      {constant({4}, TensorType::INT32), constant({2, 4, 4, 3}), feature({1, 4, 4, 3})}, {1, 8, 8, 2}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::TransposeConvOptions,
                            tflite::CreateTransposeConvOptions(fbb, tflite::Padding::SAME, 2, 2).Union()};
      }));
  BOOST_TEST((op.type == npu::OpType::Conv2DBackpropInput));
  BOOST_TEST(op.ifm() == 2);
  BOOST_TEST(op.weights() == 1);
  BOOST_TEST(op.bias() == npu::kNoTensor);
  BOOST_TEST((*op.kernel == npu::Kernel{4, 4, 2, 2, 1, 1}));
}

BOOST_AUTO_TEST_CASE(fully_connected_options_become_snake_case_attributes) {
  const npu::Operation op = onlyOperation(singleOperatorModel(
      BuiltinOperator::FULLY_CONNECTED, {feature({1, 16}), constant({4, 16}), constant({4}, TensorType::INT32)}, {1, 4},
      [](auto& fbb) {
        return OptionsTable{BuiltinOptions::FullyConnectedOptions,
                            tflite::CreateFullyConnectedOptions(fbb, tflite::ActivationFunctionType::RELU_N1_TO_1,
                                                                tflite::FullyConnectedOptionsWeightsFormat::DEFAULT,
                                                                true)
                                .Union()};
      }));
  BOOST_TEST(attribute<std::string>(op, "weights_format") == "DEFAULT");
  BOOST_TEST(attribute<bool>(op, "keep_num_dims"));
  BOOST_TEST(!attribute<bool>(op, "asymmetric_quantize_inputs"));
  BOOST_TEST((op.activation->type == npu::OpType::ReluN1To1));
  BOOST_TEST(op.activation->min.value_or(0.0) == -1.0);
  BOOST_TEST(op.activation->max.value_or(0.0) == 1.0);
  BOOST_TEST(!op.kernel.has_value());
}

BOOST_AUTO_TEST_CASE(numeric_options_keep_their_values) {
  const npu::Operation softmax =
      onlyOperation(singleOperatorModel(BuiltinOperator::SOFTMAX, {feature({1, 10})}, {1, 10}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::SoftmaxOptions, tflite::CreateSoftmaxOptions(fbb, 0.5F).Union()};
      }));
  BOOST_TEST(attribute<double>(softmax, "beta") == 0.5);
  const npu::Operation leaky =
      onlyOperation(singleOperatorModel(BuiltinOperator::LEAKY_RELU, {feature({1, 10})}, {1, 10}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::LeakyReluOptions, tflite::CreateLeakyReluOptions(fbb, 0.125F).Union()};
      }));
  BOOST_TEST(attribute<double>(leaky, "alpha") == 0.125);
}

BOOST_AUTO_TEST_CASE(concatenation_keeps_its_axis_and_fused_activation) {
  const npu::Operation op = onlyOperation(singleOperatorModel(
      BuiltinOperator::CONCATENATION, {feature({1, 4, 4, 2}), feature({1, 4, 4, 3})}, {1, 4, 4, 5}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::ConcatenationOptions,
                            tflite::CreateConcatenationOptions(fbb, 3, tflite::ActivationFunctionType::TANH).Union()};
      }));
  BOOST_TEST((op.type == npu::OpType::ConcatTFLite));
  BOOST_TEST(attribute<std::int64_t>(op, "axis") == 3);
  BOOST_TEST((op.activation->type == npu::OpType::Tanh));
}

BOOST_AUTO_TEST_CASE(reshape_has_new_shape_only_when_the_file_gives_it) {
  const npu::Operation withShape =
      onlyOperation(singleOperatorModel(BuiltinOperator::RESHAPE, {feature({1, 4, 4})}, {1, 16}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::ReshapeOptions,
                            tflite::CreateReshapeOptions(fbb, fbb.CreateVector(std::vector<int>{1, 16})).Union()};
      }));
  BOOST_TEST(attribute<std::vector<std::int64_t>>(withShape, "new_shape") == (std::vector<std::int64_t>{1, 16}),
             boost::test_tools::per_element());
  const npu::Operation fromTensor = onlyOperation(singleOperatorModel(
      BuiltinOperator::RESHAPE, {feature({1, 4, 4}), constant({2}, TensorType::INT32)}, {1, 16}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::ReshapeOptions, tflite::CreateReshapeOptions(fbb).Union()};
      }));
  BOOST_TEST(!fromTensor.attributes.has("new_shape"));
}

BOOST_AUTO_TEST_CASE(strided_slice_keeps_every_mask) {
  const npu::Operation op = onlyOperation(
      singleOperatorModel(BuiltinOperator::STRIDED_SLICE,
                          {feature({1, 8, 8, 4}), constant({4}, TensorType::INT32), constant({4}, TensorType::INT32),
                           constant({4}, TensorType::INT32)},
                          {1, 4, 8, 4}, [](auto& fbb) {
                            return OptionsTable{BuiltinOptions::StridedSliceOptions,
                                                tflite::CreateStridedSliceOptions(fbb, 1, 2, 0, 4, 8, true).Union()};
                          }));
  BOOST_TEST(attribute<std::int64_t>(op, "begin_mask") == 1);
  BOOST_TEST(attribute<std::int64_t>(op, "end_mask") == 2);
  BOOST_TEST(attribute<std::int64_t>(op, "ellipsis_mask") == 0);
  BOOST_TEST(attribute<std::int64_t>(op, "new_axis_mask") == 4);
  BOOST_TEST(attribute<std::int64_t>(op, "shrink_axis_mask") == 8);
  BOOST_TEST(attribute<bool>(op, "offset"));
}

BOOST_AUTO_TEST_CASE(enumerations_keep_their_tflite_spelling_and_tensor_types_use_ir_names) {
  const npu::Operation pad = onlyOperation(singleOperatorModel(
      BuiltinOperator::MIRROR_PAD, {feature({1, 4, 4, 1}), constant({4, 2}, TensorType::INT32)}, {1, 6, 6, 1},
      [](auto& fbb) {
        return OptionsTable{BuiltinOptions::MirrorPadOptions,
                            tflite::CreateMirrorPadOptions(fbb, tflite::MirrorPadMode::SYMMETRIC).Union()};
      }));
  BOOST_TEST(attribute<std::string>(pad, "mode") == "SYMMETRIC");
  const npu::Operation argMax = onlyOperation(singleOperatorModel(
      BuiltinOperator::ARG_MAX, {feature({1, 10}), constant({1}, TensorType::INT32)}, {1},
      [](auto& fbb) {
        return OptionsTable{BuiltinOptions::ArgMaxOptions, tflite::CreateArgMaxOptions(fbb, TensorType::INT64).Union()};
      },
      TensorType::INT64));
  BOOST_TEST(attribute<std::string>(argMax, "output_type") == "int64");
}

BOOST_AUTO_TEST_CASE(cast_gets_its_types_from_the_tensors_when_it_has_no_options) {
  const npu::Operation op =
      onlyOperation(singleOperatorModel(BuiltinOperator::CAST, {feature({4})}, {4}, {}, TensorType::INT32));
  BOOST_TEST(attribute<std::string>(op, "in_data_type") == "int8");
  BOOST_TEST(attribute<std::string>(op, "out_data_type") == "int32");
}

BOOST_AUTO_TEST_CASE(reductions_splits_and_packs_keep_their_options) {
  const npu::Operation mean = onlyOperation(singleOperatorModel(
      BuiltinOperator::MEAN, {feature({1, 4, 4, 8}), constant({2}, TensorType::INT32)}, {1, 1, 1, 8}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::ReducerOptions, tflite::CreateReducerOptions(fbb, true).Union()};
      }));
  BOOST_TEST(attribute<bool>(mean, "keep_dims"));
  const npu::Operation split = onlyOperation(singleOperatorModel(
      BuiltinOperator::SPLIT, {constant({}, TensorType::INT32), feature({1, 4, 4, 8})}, {1, 4, 4, 4}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::SplitOptions, tflite::CreateSplitOptions(fbb, 2).Union()};
      }));
  BOOST_TEST(attribute<std::int64_t>(split, "num_splits") == 2);
  BOOST_TEST(split.ifm() == 1); // SPLIT reads the axis first
  const npu::Operation pack =
      onlyOperation(singleOperatorModel(BuiltinOperator::PACK, {feature({4}), feature({4})}, {2, 4}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::PackOptions, tflite::CreatePackOptions(fbb, 2, 0).Union()};
      }));
  BOOST_TEST(attribute<std::int64_t>(pack, "values_count") == 2);
  BOOST_TEST(attribute<std::int64_t>(pack, "axis") == 0);
}

BOOST_AUTO_TEST_CASE(resize_and_recurrent_options_are_read) {
  const npu::Operation resize = onlyOperation(
      singleOperatorModel(BuiltinOperator::RESIZE_BILINEAR, {feature({1, 4, 4, 1}), constant({2}, TensorType::INT32)},
                          {1, 8, 8, 1}, [](auto& fbb) {
                            return OptionsTable{BuiltinOptions::ResizeBilinearOptions,
                                                tflite::CreateResizeBilinearOptions(fbb, false, true).Union()};
                          }));
  BOOST_TEST(!attribute<bool>(resize, "align_corners"));
  BOOST_TEST(attribute<bool>(resize, "half_pixel_centers"));
  const npu::Operation lstm = onlyOperation(singleOperatorModel(
      BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM, {feature({1, 28, 28})}, {1, 28, 20}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::UnidirectionalSequenceLSTMOptions,
                            tflite::CreateUnidirectionalSequenceLSTMOptions(fbb, tflite::ActivationFunctionType::TANH,
                                                                            10.0F, 0.0F, true)
                                .Union()};
      }));
  BOOST_TEST(attribute<double>(lstm, "cell_clip") == 10.0);
  BOOST_TEST(attribute<bool>(lstm, "time_major"));
  BOOST_TEST((lstm.activation->type == npu::OpType::Tanh));
}

BOOST_AUTO_TEST_CASE(defaults_of_the_schema_apply_to_fields_the_file_omits) {
  const npu::Operation op = onlyOperation(
      singleOperatorModel(BuiltinOperator::ADD, {feature({1, 4}), feature({1, 4})}, {1, 4}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::AddOptions, tflite::CreateAddOptions(fbb).Union()};
      }));
  BOOST_TEST(attribute<bool>(op, "pot_scale_int16")); // the schema's default is true
  BOOST_TEST(!op.activation.has_value());
}

BOOST_AUTO_TEST_CASE(options_of_another_operator_are_ignored_as_tflite_ignores_them) {
  const npu::Operation op = onlyOperation(
      singleOperatorModel(BuiltinOperator::ADD, {feature({1, 4}), feature({1, 4})}, {1, 4}, [](auto& fbb) {
        return OptionsTable{BuiltinOptions::SoftmaxOptions, tflite::CreateSoftmaxOptions(fbb, 2.0F).Union()};
      }));
  BOOST_TEST(op.attributes.all().size() == 1U); // the version only
  BOOST_TEST(!op.attributes.find("beta"));
}

BOOST_AUTO_TEST_CASE(sign_bit_is_the_one_activation_without_a_clamp_range) {
  const npu::Operation op = onlyOperation(convolutionModel(1, 1, [](auto& fbb) {
    return OptionsTable{
        BuiltinOptions::Conv2DOptions,
        tflite::CreateConv2DOptions(fbb, tflite::Padding::VALID, 1, 1, tflite::ActivationFunctionType::SIGN_BIT)
            .Union()};
  }));
  BOOST_TEST((op.activation->type == npu::OpType::SignBit));
  BOOST_TEST(!op.activation->min.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
