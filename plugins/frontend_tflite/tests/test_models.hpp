// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small TFLite models built in memory for the frontend's tests, and helpers to read them.
#include "model_generator/tflite_model_builder.hpp"
#include "npu/core/diagnostics.hpp"
#include "npu/ir/graph.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npu::tflite_frontend::test {

using modelgen::OperatorSpec;
using modelgen::QuantisationSpec;
using modelgen::TensorSpec;
using modelgen::TfliteModelBuilder;
using Bytes = std::vector<std::uint8_t>;

/// Per-tensor quantisation.
[[nodiscard]] QuantisationSpec quantised(float scale, std::int64_t zeroPoint);
/// A buffer of `size` bytes counting up from 1 (so shared and distinct buffers can be told apart).
std::uint32_t addCountingBuffer(TfliteModelBuilder& builder, std::size_t size);

/// The options table of an operator, made with the builder's FlatBufferBuilder.
struct OptionsTable {
  tflite::BuiltinOptions type = tflite::BuiltinOptions::NONE;
  flatbuffers::Offset<void> offset;
};
using OptionsFactory = std::function<OptionsTable(flatbuffers::FlatBufferBuilder&)>;

struct InputSpec {
  std::vector<int> shape;
  tflite::TensorType type = tflite::TensorType::INT8;
  bool constant = false; ///< constants get a counting buffer of the right size
};

/// A model with one operator `code` reading `inputs` and writing one tensor "output" of `outputShape`,
/// for tests of one operator's options. Tensors are "input_<i>" and "output".
[[nodiscard]] Bytes singleOperatorModel(tflite::BuiltinOperator code, const std::vector<InputSpec>& inputs,
                                        const std::vector<int>& outputShape, const OptionsFactory& options,
                                        tflite::TensorType outputType = tflite::TensorType::INT8);

/// CONV_2D of input [1, 8, 8, 4] with OHWI weights [2, kernelHeight, kernelWidth, 4] and a bias, writing
/// `outputShape` (which must agree with the options' padding and strides).
[[nodiscard]] Bytes convolutionModel(int kernelHeight, int kernelWidth, const OptionsFactory& options,
                                     const std::vector<int>& outputShape = {1, 8, 8, 2});

/// A small, valid int8 MobileNet v1 from the model generator (a few KiB).
[[nodiscard]] const Bytes& smallGeneratedModel();

/// Reads bytes as a model called "test.tflite".
[[nodiscard]] Graph read(const Bytes& bytes);
/// Reads bytes that must be rejected; returns the Model error (fails the test for anything else).
[[nodiscard]] Error readError(const Bytes& bytes);

} // namespace npu::tflite_frontend::test
