// SPDX-License-Identifier: Apache-2.0
#include "frontend_tflite/builtin_operators.hpp"
#include "test_models.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using namespace npu::tflite_frontend;
using npu::OpType;
using tflite::BuiltinOperator;

std::int32_t code(BuiltinOperator op) {
  return static_cast<std::int32_t>(op);
}

} // namespace

BOOST_AUTO_TEST_SUITE(builtin_operators)

BOOST_AUTO_TEST_CASE(operators_map_to_the_types_vela_gives_them) {
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::CONV_2D)) == OpType::Conv2DBias));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::DEPTHWISE_CONV_2D)) == OpType::DepthwiseConv2DBias));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::CONCATENATION)) == OpType::ConcatTFLite));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::TRANSPOSE_CONV)) == OpType::Conv2DBackpropInput));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::FULLY_CONNECTED)) == OpType::FullyConnected));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::AVERAGE_POOL_2D)) == OpType::AvgPool));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::LOGISTIC)) == OpType::Sigmoid));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::GATHER)) == OpType::GatherV2));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::REDUCE_MAX)) == OpType::Max));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::FAKE_QUANT)) == OpType::FakeQuantWithMinMaxArgs));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::RELU_0_TO_1)) == OpType::Relu0To1));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::RIGHT_SHIFT)) == OpType::RightShift));
  BOOST_TEST((opTypeOfBuiltin(kCustomOperatorCode) == OpType::Custom));
}

BOOST_AUTO_TEST_CASE(operators_vela_does_not_map_are_unknown) {
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::PLACEHOLDER_FOR_GREATER_OP_CODES)) == OpType::Unknown));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::STABLEHLO_ADD)) == OpType::Unknown));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::STABLEHLO_CASE)) == OpType::Unknown));
  BOOST_TEST((opTypeOfBuiltin(code(BuiltinOperator::DILATE)) == OpType::Unknown));
  BOOST_TEST((opTypeOfBuiltin(500) == OpType::Unknown));
}

BOOST_AUTO_TEST_CASE(every_code_up_to_the_newest_has_its_tflite_name) {
  BOOST_TEST(builtinOperatorName(0) == "ADD");
  BOOST_TEST(builtinOperatorName(code(BuiltinOperator::CONV_2D)) == "CONV_2D");
  BOOST_TEST(builtinOperatorName(161) == "RIGHT_SHIFT");
  BOOST_TEST(builtinOperatorName(162) == "STABLEHLO_LOGISTIC");
  BOOST_TEST(builtinOperatorName(209) == "STABLEHLO_CASE");
  for (std::int32_t value = 0; value <= 209; ++value) {
    BOOST_TEST_CONTEXT("code " << value) {
      BOOST_TEST(!builtinOperatorName(value).empty());
    }
  }
  BOOST_TEST(builtinOperatorName(210).empty());
  BOOST_TEST(builtinOperatorName(-1).empty());
}

BOOST_AUTO_TEST_CASE(every_builtin_below_the_stablehlo_range_has_an_operation_type) {
  for (std::int32_t value = 0; value <= code(BuiltinOperator::RIGHT_SHIFT); ++value) {
    if (value != code(BuiltinOperator::PLACEHOLDER_FOR_GREATER_OP_CODES)) {
      BOOST_TEST_CONTEXT(builtinOperatorName(value)) {
        BOOST_TEST((opTypeOfBuiltin(value) != OpType::Unknown));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(source_types_name_custom_operators_and_codes_newer_than_the_schema) {
  BOOST_TEST(sourceTypeName(code(BuiltinOperator::CONV_2D), "") == "CONV_2D");
  BOOST_TEST(sourceTypeName(kCustomOperatorCode, "ethos-u") == "CUSTOM:ethos-u");
  BOOST_TEST(sourceTypeName(321, "") == "BUILTIN_321");
}

BOOST_AUTO_TEST_CASE(the_operator_code_is_the_larger_of_the_deprecated_and_the_extended_field) {
  using namespace npu::tflite_frontend::test;
  // Files written before builtin_code existed leave it 0 (ADD) and keep the code in the old field.
  TfliteModelBuilder builder;
  auto& fbb = builder.flatbuffers();
  const std::uint32_t main = builder.addSubgraph("main");
  const std::int32_t x = builder.addTensor(main, TensorSpec{"x", {1, 4}, tflite::TensorType::INT8, {}, 0, false});
  const std::int32_t y = builder.addTensor(main, TensorSpec{"y", {1, 4}, tflite::TensorType::INT8, {}, 0, false});
  const std::int32_t z = builder.addTensor(main, TensorSpec{"z", {1, 4}, tflite::TensorType::INT8, {}, 0, false});
  builder.addOperator(
      main,
      OperatorSpec{
          builder.addLegacyOperatorCode(BuiltinOperator::TANH), {x}, {y}, {}, tflite::BuiltinOptions::NONE, {}, {}});
  builder.addOperator(main, OperatorSpec{builder.addOperatorCode(BuiltinOperator::GELU),
                                         {y},
                                         {z},
                                         {},
                                         tflite::BuiltinOptions::GeluOptions,
                                         tflite::CreateGeluOptions(fbb).Union(),
                                         {}});
  const npu::Graph graph = read(builder.finish(""));
  BOOST_TEST(graph.subgraphs[0].operations[0].sourceType == "TANH");
  BOOST_TEST(graph.subgraphs[0].operations[1].sourceType == "GELU"); // deprecated field holds 127
  BOOST_TEST((graph.subgraphs[0].operations[1].type == OpType::Gelu));
}

BOOST_AUTO_TEST_SUITE_END()
