// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "model_generator/tflite_model_builder.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::test {

/// A model as Vela writes one it compiled: `operators` ethos-u custom operators (command stream and
/// flash as constants, then the scratch and fast scratch tensors, then the feature map), with a CPU
/// SPACE_TO_DEPTH / DEPTH_TO_SPACE pair between consecutive ones. All ethos-u operators read the same
/// flash and scratch tensors, as in Vela's output; each has its own command stream. The command streams are
/// placeholders: nothing runs them.
inline std::vector<std::uint8_t> precompiledModel(int operators) {
  using namespace npu::modelgen;
  TfliteModelBuilder model;
  model.addSubgraph("main");
  const QuantisationSpec quantisation{{0.05F}, {-3}, 0, {}, {}};
  const auto featureMap = [&](const std::string& name, std::vector<std::int32_t> shape) {
    return model.addTensor(0, TensorSpec{name, std::move(shape), tflite::TensorType::INT8, quantisation, 0, false});
  };
  const auto bytes = [&](const std::string& name, std::int32_t size, bool constant) {
    const std::vector<std::uint8_t> data(constant ? static_cast<std::size_t>(size) : 0U, 0x11);
    const std::uint32_t buffer = constant ? model.addBuffer(data) : 0U;
    return model.addTensor(0, TensorSpec{name, {size}, tflite::TensorType::UINT8, std::nullopt, buffer, false});
  };
  const std::int32_t flash = bytes("main_split_1_flash", 256, true);
  const std::int32_t scratch = bytes("main_split_1_scratch", 3072, false);
  const std::int32_t scratchFast = bytes("main_split_1_scratch_fast", 3072, false);
  const std::uint32_t ethosu = model.addCustomOperatorCode("ethos-u");
  std::int32_t current = featureMap("input", {1, 8, 8, 16});
  model.setInputs(0, {current});
  for (int i = 0; i < operators; ++i) {
    const std::string split = "main_split_" + std::to_string(i + 1);
    const std::int32_t out = featureMap("npu_output_" + std::to_string(i), {1, 8, 8, 16});
    model.addOperator(0,
                      OperatorSpec{ethosu,
                                   {bytes(split + "_command_stream", 64, true), flash, scratch, scratchFast, current},
                                   {out},
                                   {},
                                   tflite::BuiltinOptions::NONE,
                                   {},
                                   {}});
    current = out;
    if (i + 1 < operators) { // a CPU round trip between the NPU parts
      const std::int32_t deep = featureMap("space_to_depth_" + std::to_string(i), {1, 4, 4, 64});
      model.addOperator(0, OperatorSpec{model.addOperatorCode(tflite::BuiltinOperator::SPACE_TO_DEPTH),
                                        {current},
                                        {deep},
                                        {},
                                        tflite::BuiltinOptions::SpaceToDepthOptions,
                                        tflite::CreateSpaceToDepthOptions(model.flatbuffers(), 2).Union(),
                                        {}});
      const std::int32_t back = featureMap("depth_to_space_" + std::to_string(i), {1, 8, 8, 16});
      model.addOperator(0, OperatorSpec{model.addOperatorCode(tflite::BuiltinOperator::DEPTH_TO_SPACE),
                                        {deep},
                                        {back},
                                        {},
                                        tflite::BuiltinOptions::DepthToSpaceOptions,
                                        tflite::CreateDepthToSpaceOptions(model.flatbuffers(), 2).Union(),
                                        {}});
      current = back;
    }
  }
  model.setOutputs(0, {current});
  return model.finish("a model compiled by Vela: " + std::to_string(operators) + " ethos-u operators");
}

} // namespace npu::test
