// SPDX-License-Identifier: Apache-2.0
#include "test_models.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using namespace npu::tflite_frontend::test;
using tflite::TensorType;

/// A model with the given tensors in subgraph 0 and no operators.
Bytes tensorsModel(const std::function<void(TfliteModelBuilder&, std::uint32_t)>& addTensors) {
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  addTensors(builder, main);
  return builder.finish("tensors");
}

} // namespace

BOOST_AUTO_TEST_SUITE(tensor_reader)

BOOST_AUTO_TEST_CASE(per_channel_quantisation_keeps_every_scale_zero_point_and_the_axis) {
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    b.addTensor(sg, TensorSpec{"depthwise/weights",
                               {1, 3, 3, 4},
                               TensorType::INT8,
                               QuantisationSpec{{0.5F, 0.25F, 0.125F, 2.0F}, {0, 1, 2, 3}, 3, {}, {}},
                               addCountingBuffer(b, 36),
                               false});
  }));
  const npu::Tensor& weights = graph.subgraphs[0].tensors[0];
  BOOST_TEST(weights.quantisation.perChannel());
  BOOST_TEST(weights.quantisation.axis == 3);
  BOOST_TEST(weights.quantisation.scale == (std::vector<double>{0.5, 0.25, 0.125, 2.0}),
             boost::test_tools::per_element());
  BOOST_TEST(weights.quantisation.zeroPoint == (std::vector<std::int64_t>{0, 1, 2, 3}),
             boost::test_tools::per_element());
  BOOST_TEST(weights.quantisation.scaleAt(2) == 0.125);
  BOOST_TEST(weights.quantisation.zeroPointAt(3) == 3);
}

BOOST_AUTO_TEST_CASE(per_tensor_quantisation_keeps_min_and_max) {
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    b.addTensor(sg,
                TensorSpec{"x", {1, 4}, TensorType::INT8, QuantisationSpec{{0.5F}, {-3}, 0, -1.5F, 2.5F}, 0, false});
    b.addTensor(sg, TensorSpec{"f", {1, 4}, TensorType::FLOAT32, std::nullopt, 0, false});
  }));
  const npu::Quantisation& q = graph.subgraphs[0].tensors[0].quantisation;
  BOOST_TEST(!q.perChannel());
  BOOST_TEST(q.scaleAt(0) == 0.5);
  BOOST_TEST(q.zeroPointAt(0) == -3);
  BOOST_TEST(q.min.value_or(0.0) == -1.5);
  BOOST_TEST(q.max.value_or(0.0) == 2.5);
  BOOST_TEST(graph.subgraphs[0].tensors[1].quantisation.empty());
}

BOOST_AUTO_TEST_CASE(a_one_dimensional_bias_with_the_weights_quantized_dimension_gets_axis_zero) {
  // TOCO wrote quantized_dimension 3 on biases of per-channel convolutions (tflm person_detect has it).
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    b.addTensor(sg, TensorSpec{"bias",
                               {2},
                               TensorType::INT32,
                               QuantisationSpec{{0.1F, 0.2F}, {0, 0}, 3, {}, {}},
                               addCountingBuffer(b, 8),
                               false});
  }));
  BOOST_TEST(graph.subgraphs[0].tensors[0].quantisation.axis == 0);
}

BOOST_AUTO_TEST_CASE(tensors_reading_one_buffer_share_its_data_and_equivalence_id) {
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    const std::uint32_t shared = addCountingBuffer(b, 8);
    const std::uint32_t other = addCountingBuffer(b, 8);
    b.addTensor(sg, TensorSpec{"a", {8}, TensorType::INT8, std::nullopt, shared, false});
    b.addTensor(sg, TensorSpec{"b", {2, 4}, TensorType::INT8, std::nullopt, shared, false});
    b.addTensor(sg, TensorSpec{"c", {8}, TensorType::INT8, std::nullopt, other, false});
  }));
  const auto& tensors = graph.subgraphs[0].tensors;
  BOOST_TEST(tensors[0].data.get() == tensors[1].data.get());
  BOOST_TEST(tensors[0].equivalenceId == 1);
  BOOST_TEST(tensors[1].equivalenceId == 1);
  BOOST_TEST(tensors[2].equivalenceId == 2);
  BOOST_TEST(tensors[0].data.get() != tensors[2].data.get());
  BOOST_TEST(tensors[2].bytes()[7] == 8);
}

BOOST_AUTO_TEST_CASE(constants_have_no_purpose_yet_and_everything_else_is_a_feature_map) {
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    b.addTensor(sg, TensorSpec{"weights", {4}, TensorType::INT8, std::nullopt, addCountingBuffer(b, 4), false});
    b.addTensor(sg, TensorSpec{"activations", {4}, TensorType::INT8, std::nullopt, 0, false});
    b.addTensor(sg, TensorSpec{"state", {4}, TensorType::INT16, std::nullopt, 0, true});
  }));
  const auto& tensors = graph.subgraphs[0].tensors;
  BOOST_TEST((tensors[0].purpose == npu::TensorPurpose::Unknown));
  BOOST_TEST(tensors[0].isConstant());
  BOOST_TEST((tensors[1].purpose == npu::TensorPurpose::FeatureMap));
  BOOST_TEST(tensors[1].equivalenceId == -1);
  BOOST_TEST((tensors[2].purpose == npu::TensorPurpose::FeatureMap));
  BOOST_TEST(tensors[2].isVariable);
  BOOST_TEST(!tensors[1].isVariable);
}

BOOST_AUTO_TEST_CASE(every_tflite_tensor_type_maps_to_its_ir_type) {
  const std::vector<std::pair<TensorType, npu::DataType>> types{
      {TensorType::FLOAT32, npu::DataType::Float32},     {TensorType::FLOAT16, npu::DataType::Float16},
      {TensorType::INT32, npu::DataType::Int32},         {TensorType::UINT8, npu::DataType::UInt8},
      {TensorType::INT64, npu::DataType::Int64},         {TensorType::STRING, npu::DataType::String},
      {TensorType::BOOL, npu::DataType::Bool},           {TensorType::INT16, npu::DataType::Int16},
      {TensorType::COMPLEX64, npu::DataType::Complex64}, {TensorType::INT8, npu::DataType::Int8},
      {TensorType::FLOAT64, npu::DataType::Float64},     {TensorType::COMPLEX128, npu::DataType::Complex128},
      {TensorType::UINT64, npu::DataType::UInt64},       {TensorType::RESOURCE, npu::DataType::Resource},
      {TensorType::VARIANT, npu::DataType::Variant},     {TensorType::UINT32, npu::DataType::UInt32},
      {TensorType::UINT16, npu::DataType::UInt16},       {TensorType::INT4, npu::DataType::Int4},
      {TensorType::BFLOAT16, npu::DataType::BFloat16}};
  const npu::Graph graph = read(tensorsModel([&](TfliteModelBuilder& b, std::uint32_t sg) {
    for (const auto& [type, expected] : types) {
      b.addTensor(sg, TensorSpec{std::string(tflite::EnumNameTensorType(type)), {2}, type, std::nullopt, 0, false});
    }
  }));
  for (std::size_t i = 0; i < types.size(); ++i) {
    BOOST_TEST_CONTEXT(graph.subgraphs[0].tensors[i].name) {
      BOOST_TEST((graph.subgraphs[0].tensors[i].type == types[i].second));
    }
  }
}

BOOST_AUTO_TEST_CASE(int4_constants_hold_two_values_per_byte) {
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    b.addTensor(sg, TensorSpec{"packed", {5}, TensorType::INT4, std::nullopt, addCountingBuffer(b, 3), false});
  }));
  BOOST_TEST(graph.subgraphs[0].tensors[0].bytes().size() == 3U);
}

BOOST_AUTO_TEST_CASE(constants_stored_after_the_flatbuffer_are_read_from_their_file_offset) {
  constexpr std::size_t kOffset = 4096;
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  const std::uint32_t buffer = builder.addExternalBuffer(kOffset, 4);
  builder.addTensor(main, TensorSpec{"large", {4}, TensorType::INT8, std::nullopt, buffer, false});
  Bytes bytes = builder.finish("");
  BOOST_TEST_REQUIRE(bytes.size() <= kOffset);
  bytes.resize(kOffset);
  for (const std::uint8_t value : {7, 8, 9, 10}) {
    bytes.push_back(value);
  }
  const npu::Graph graph = read(bytes);
  const npu::Tensor& tensor = graph.subgraphs[0].tensors[0];
  BOOST_TEST(tensor.bytes() == (std::vector<std::uint8_t>{7, 8, 9, 10}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_tensor_without_a_name_is_named_after_its_index) {
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    b.addTensor(sg, TensorSpec{"first", {1}, TensorType::INT8, std::nullopt, 0, false});
    b.addTensor(sg, TensorSpec{"", {1}, TensorType::INT8, std::nullopt, 0, false});
  }));
  BOOST_TEST(graph.subgraphs[0].tensors[1].name == "tensor_1");
}

BOOST_AUTO_TEST_CASE(shapes_are_copied_and_scalars_have_rank_zero) {
  const npu::Graph graph = read(tensorsModel([](TfliteModelBuilder& b, std::uint32_t sg) {
    b.addTensor(sg, TensorSpec{"image", {1, 96, 96, 3}, TensorType::INT8, std::nullopt, 0, false});
    b.addTensor(sg, TensorSpec{"scalar", {}, TensorType::INT32, std::nullopt, addCountingBuffer(b, 4), false});
  }));
  BOOST_TEST((graph.subgraphs[0].tensors[0].shape == npu::Shape{1, 96, 96, 3}));
  BOOST_TEST(graph.subgraphs[0].tensors[1].shape.isScalar());
  BOOST_TEST(graph.subgraphs[0].tensors[1].bytes().size() == 4U);
}

BOOST_AUTO_TEST_SUITE_END()
