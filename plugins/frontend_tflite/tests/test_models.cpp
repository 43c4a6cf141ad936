// SPDX-License-Identifier: Apache-2.0
#include "test_models.hpp"

#include "frontend_tflite/model_reader.hpp"
#include "model_generator/model_generator.hpp"

#include <boost/test/unit_test.hpp>

namespace npu::tflite_frontend::test {

QuantisationSpec quantised(float scale, std::int64_t zeroPoint) {
  return {{scale}, {zeroPoint}, 0, {}, {}};
}

std::uint32_t addCountingBuffer(TfliteModelBuilder& builder, std::size_t size) {
  Bytes bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<std::uint8_t>(i + 1);
  }
  return builder.addBuffer(bytes);
}

namespace {
std::size_t elementBytes(tflite::TensorType type) {
  switch (type) {
  case tflite::TensorType::INT32:
  case tflite::TensorType::FLOAT32:
    return 4;
  case tflite::TensorType::INT16:
    return 2;
  case tflite::TensorType::INT64:
    return 8;
  default:
    return 1;
  }
}
} // namespace

Bytes singleOperatorModel(tflite::BuiltinOperator code, const std::vector<InputSpec>& inputs,
                          const std::vector<int>& outputShape, const OptionsFactory& options,
                          tflite::TensorType outputType) {
  TfliteModelBuilder builder;
  const std::uint32_t main = builder.addSubgraph("main");
  std::vector<std::int32_t> inputIds;
  std::vector<std::int32_t> graphInputs;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const InputSpec& input = inputs[i];
    std::uint32_t buffer = 0;
    if (input.constant) {
      std::size_t elements = 1;
      for (const int dim : input.shape) {
        elements *= static_cast<std::size_t>(dim);
      }
      buffer = addCountingBuffer(builder, elements * elementBytes(input.type));
    }
    const std::int32_t id = builder.addTensor(
        main, TensorSpec{"input_" + std::to_string(i), input.shape, input.type, quantised(0.5F, 0), buffer, false});
    inputIds.push_back(id);
    if (!input.constant) {
      graphInputs.push_back(id);
    }
  }
  const std::int32_t output =
      builder.addTensor(main, TensorSpec{"output", outputShape, outputType, quantised(0.25F, 1), 0, false});
  const OptionsTable table = options ? options(builder.flatbuffers()) : OptionsTable{};
  builder.addOperator(
      main, OperatorSpec{builder.addOperatorCode(code), inputIds, {output}, {}, table.type, table.offset, {}});
  builder.setInputs(main, graphInputs);
  builder.setOutputs(main, {output});
  return builder.finish("single operator");
}

Bytes convolutionModel(int kernelHeight, int kernelWidth, const OptionsFactory& options,
                       const std::vector<int>& outputShape) {
  return singleOperatorModel(tflite::BuiltinOperator::CONV_2D,
                             {{{1, 8, 8, 4}},
                              {{2, kernelHeight, kernelWidth, 4}, tflite::TensorType::INT8, true},
                              {{2}, tflite::TensorType::INT32, true}},
                             outputShape, options);
}

const Bytes& smallGeneratedModel() {
  static const Bytes bytes = [] {
    modelgen::NetworkOptions options;
    options.architecture = modelgen::Architecture::MobileNetV1;
    options.alpha = 0.25;
    options.resolution = 8;
    options.blocks = 1;
    options.classes = 4;
    return modelgen::generate(options).bytes;
  }();
  return bytes;
}

Graph read(const Bytes& bytes) {
  return readModel(bytes, "test.tflite");
}

Error readError(const Bytes& bytes) {
  try {
    (void)read(bytes);
  } catch (const Error& error) {
    BOOST_TEST((error.kind() == ErrorKind::Model), "expected a Model error, got: " << error.render());
    BOOST_TEST(error.location().file == "test.tflite");
    return error;
  }
  BOOST_FAIL("the model was read although it is malformed");
  throw std::logic_error("unreachable");
}

} // namespace npu::tflite_frontend::test
