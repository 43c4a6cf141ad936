// SPDX-License-Identifier: Apache-2.0
// A convolution whose OFM is one row accepts any height stride (Vela's stride check skips a one-row
// OFM), but the hardware encodes strides 1 to 4. Found by the pipeline fuzzer: a huge stride on such
// a convolution reading a SPLIT part overflowed the IFM box arithmetic (UBSan, stream/box.cpp).
#include "codegen_ethosu/registers.hpp"
#include "decoder/command_decoder.hpp"
#include "model_generator/tflite_model_builder.hpp"
#include "reference_compile.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>

using namespace ethosu::codegen;
using npu::modelgen::OperatorSpec;
using npu::modelgen::QuantisationSpec;
using npu::modelgen::TensorSpec;
using npu::modelgen::TfliteModelBuilder;

namespace {

/// input [1, 8, 8, 8] -> SPLIT along the height into two [1, 4, 8, 8] -> a 1x1 CONV_2D of the second
/// part with `strideY`, VALID padding, so its OFM is [1, 1, 8, 8]. Both the conv and the first part
/// are outputs.
std::vector<std::uint8_t> splitThenStridedConvolution(int strideY) {
  TfliteModelBuilder model;
  const auto split = model.addOperatorCode(tflite::BuiltinOperator::SPLIT);
  const auto conv = model.addOperatorCode(tflite::BuiltinOperator::CONV_2D);
  const auto subgraph = model.addSubgraph("main");
  const QuantisationSpec activations{{0.05F}, {0}, 0, std::nullopt, std::nullopt};
  const std::vector<std::int8_t> weights(64, 3);
  const std::vector<std::int32_t> bias(8, 10);
  const std::vector<std::int32_t> axis{1};
  const auto input = model.addTensor(subgraph, {"input", {1, 8, 8, 8}, tflite::TensorType::INT8, activations});
  const auto axisTensor = model.addTensor(
      subgraph, {"axis", {}, tflite::TensorType::INT32, std::nullopt, model.addBufferOf(std::span(axis))});
  const auto top = model.addTensor(subgraph, {"top", {1, 4, 8, 8}, tflite::TensorType::INT8, activations});
  const auto bottom = model.addTensor(subgraph, {"bottom", {1, 4, 8, 8}, tflite::TensorType::INT8, activations});
  const auto weightTensor = model.addTensor(subgraph, {"weights",
                                                       {8, 1, 1, 8},
                                                       tflite::TensorType::INT8,
                                                       QuantisationSpec{{0.01F}, {0}, 0, std::nullopt, std::nullopt},
                                                       model.addBufferOf(std::span(weights))});
  const auto biasTensor = model.addTensor(subgraph, {"bias",
                                                     {8},
                                                     tflite::TensorType::INT32,
                                                     QuantisationSpec{{0.0005F}, {0}, 0, std::nullopt, std::nullopt},
                                                     model.addBufferOf(std::span(bias))});
  const auto output = model.addTensor(subgraph, {"output", {1, 1, 8, 8}, tflite::TensorType::INT8, activations});
  const auto splitOptions = tflite::CreateSplitOptions(model.flatbuffers(), 2).Union();
  model.addOperator(
      subgraph,
      {split, {axisTensor, input}, {top, bottom}, {}, tflite::BuiltinOptions::SplitOptions, splitOptions, {}});
  const auto convOptions = tflite::CreateConv2DOptions(model.flatbuffers(), tflite::Padding::VALID, 1, strideY).Union();
  model.addOperator(
      subgraph,
      {conv, {bottom, weightTensor, biasTensor}, {output}, {}, tflite::BuiltinOptions::Conv2DOptions, convOptions, {}});
  model.setInputs(subgraph, {input});
  model.setOutputs(subgraph, {output, top});
  return model.finish("split then a strided convolution");
}

/// The KERNEL_STRIDE parameter of the first convolution of a stream.
std::optional<int> convolutionStride(const std::vector<std::uint8_t>& payload) {
  std::optional<int> stride;
  for (const DecodedCommand& command : decodeCommands(readDriverPayload(payload).registerStream)) {
    if (command.hasPayload) {
      continue;
    }
    if (command.command() == static_cast<std::uint16_t>(Cmd0::KernelStride)) {
      stride = command.param;
    } else if (command.command() == static_cast<std::uint16_t>(Cmd0::OpConv)) {
      return stride;
    }
  }
  return std::nullopt;
}

} // namespace

BOOST_AUTO_TEST_SUITE(unrunnable_stride)

BOOST_AUTO_TEST_CASE(a_one_row_convolution_with_a_huge_height_stride_compiles_and_runs_at_stride_one) {
  const test::ReferenceCompiler compiler;
  const npu::Compilation compilation = compiler.compile(splitThenStridedConvolution(1 << 30));
  BOOST_TEST_REQUIRE(compilation.output.has_value());
  std::optional<int> stride;
  for (const auto& payload : test::ethosuPayloads(compilation)) {
    stride = convolutionStride(payload);
  }
  BOOST_TEST_REQUIRE(stride.has_value());
  const int strideYMinus1 = ((*stride >> 1) & 1) | (((*stride >> 9) & 1) << 1);
  BOOST_TEST(strideYMinus1 == 0); // one OFM row: the height stride changes nothing, it runs as 1
}

BOOST_AUTO_TEST_SUITE_END()
