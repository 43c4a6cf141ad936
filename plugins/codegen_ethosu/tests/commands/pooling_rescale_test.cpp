// SPDX-License-Identifier: Apache-2.0
// A memory operation that rescales (a SPLIT whose parts are quantised unlike its input) becomes an
// average pool whose OFM_SCALE carries the IFM/OFM scale ratio. The support checks only require that
// ratio to be finite in float32, so it can be far beyond 64 bits either way. Found by fuzz_pipeline: a
// 1e-22 / 1.6e-3 ratio converted 2^64 to a 64-bit integer (UBSan, scaling_registers.cpp). A ratio the
// registers cannot hold is a compile error naming the operation.
#include "model_generator/tflite_model_builder.hpp"
#include "reference_compile.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

using npu::modelgen::QuantisationSpec;
using npu::modelgen::TfliteModelBuilder;

namespace {

/// input [1, 4, 4, 8] (scale `inputScale`) -> SPLIT along the channels into two [1, 4, 4, 4] parts of
/// scale `partScale`, both outputs.
std::vector<std::uint8_t> rescalingSplit(float inputScale, float partScale) {
  TfliteModelBuilder model;
  const auto split = model.addOperatorCode(tflite::BuiltinOperator::SPLIT);
  const auto subgraph = model.addSubgraph("main");
  const QuantisationSpec input{{inputScale}, {0}, 0, std::nullopt, std::nullopt};
  const QuantisationSpec part{{partScale}, {0}, 0, std::nullopt, std::nullopt};
  const std::vector<std::int32_t> axis{3};
  const auto source = model.addTensor(subgraph, {"input", {1, 4, 4, 8}, tflite::TensorType::INT8, input});
  const auto axisTensor = model.addTensor(
      subgraph, {"axis", {}, tflite::TensorType::INT32, std::nullopt, model.addBufferOf(std::span(axis))});
  const auto first = model.addTensor(subgraph, {"first", {1, 4, 4, 4}, tflite::TensorType::INT8, part});
  const auto second = model.addTensor(subgraph, {"second", {1, 4, 4, 4}, tflite::TensorType::INT8, part});
  const auto options = tflite::CreateSplitOptions(model.flatbuffers(), 2).Union();
  model.addOperator(
      subgraph, {split, {axisTensor, source}, {first, second}, {}, tflite::BuiltinOptions::SplitOptions, options, {}});
  model.setInputs(subgraph, {source});
  model.setOutputs(subgraph, {first, second});
  return model.finish("a rescaling split");
}

/// What compiling the model with configs/reference/C1-cascade.yaml gives: code, or an error.
struct Outcome {
  bool generated = false;
  std::optional<npu::Error> error;
};

Outcome compile(const std::vector<std::uint8_t>& bytes) {
  const ethosu::codegen::test::ReferenceCompiler compiler;
  Outcome outcome;
  try {
    outcome.generated = compiler.compile(bytes).output.has_value();
  } catch (const npu::Error& error) {
    outcome.error = error;
  }
  return outcome;
}

} // namespace

BOOST_AUTO_TEST_SUITE(pooling_rescale)

BOOST_AUTO_TEST_CASE(a_split_into_parts_of_four_times_the_scale_compiles) {
  const Outcome outcome = compile(rescalingSplit(0.01F, 0.04F));
  BOOST_TEST(outcome.generated, (outcome.error ? outcome.error->render() : ""));
}

BOOST_AUTO_TEST_CASE(a_split_into_parts_of_1e19_times_the_scale_is_a_compile_error_naming_the_copy) {
  const auto error = compile(rescalingSplit(1e-22F, 1.6e-3F)).error;
  BOOST_TEST_REQUIRE(error.has_value());
  BOOST_TEST((error->kind() == npu::ErrorKind::Compile), error->render());
  BOOST_TEST(error->message().find("'first") != std::string::npos, error->message());
  BOOST_TEST(error->message().find("shift") != std::string::npos, error->message());
}

BOOST_AUTO_TEST_CASE(a_split_into_parts_of_1e_minus_19_times_the_scale_is_a_compile_error) {
  const auto error = compile(rescalingSplit(1e16F, 1e-3F)).error;
  BOOST_TEST_REQUIRE(error.has_value());
  BOOST_TEST((error->kind() == npu::ErrorKind::Compile), error->render());
}

BOOST_AUTO_TEST_SUITE_END()
