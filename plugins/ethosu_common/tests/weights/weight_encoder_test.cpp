// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_encoder.hpp"
#include "ethosu/weights/weight_preparation.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <thread>

using namespace ethosu::weights;

namespace {

npu::Tensor featureMap(const char* name, npu::Shape shape, npu::DataType type, double scale) {
  npu::Tensor tensor;
  tensor.name = name;
  tensor.shape = std::move(shape);
  tensor.type = type;
  tensor.quantisation.scale = {scale};
  tensor.quantisation.zeroPoint = {0};
  return tensor;
}

template <typename T>
npu::Tensor constant(const char* name, npu::Shape shape, npu::DataType type, const std::vector<T>& values) {
  npu::Tensor tensor;
  tensor.name = name;
  tensor.shape = std::move(shape);
  tensor.type = type;
  tensor.data = npu::makeConstantBuffer(std::span<const T>(values));
  return tensor;
}

/// A subgraph with one weighted operation: ifm -> op(weights, bias) -> ofm.
struct OneOperation {
  npu::Subgraph subgraph;
  npu::OperationId id = 0;
  [[nodiscard]] const npu::Operation& op() const { return subgraph.operation(id); }
};

OneOperation makeOperation(npu::OpType type, const npu::Tensor& ifm, const npu::Tensor& weights,
                           std::optional<npu::Tensor> bias, const npu::Tensor& ofm) {
  OneOperation result;
  npu::Operation op;
  op.type = type;
  op.name = ofm.name;
  op.inputs = {result.subgraph.addTensor(ifm), result.subgraph.addTensor(weights),
               bias ? result.subgraph.addTensor(*bias) : npu::kNoTensor};
  op.outputs = {result.subgraph.addTensor(ofm)};
  if (type != npu::OpType::FullyConnected) {
    op.kernel = npu::Kernel{weights.shape[2], weights.shape[1], 1, 1, 1, 1};
  }
  result.id = result.subgraph.addOperation(std::move(op));
  return result;
}

std::vector<std::int8_t> ramp(std::size_t count) {
  std::vector<std::int8_t> values(count);
  for (std::size_t index = 0; index < count; ++index) {
    values[index] = static_cast<std::int8_t>(static_cast<int>(index * 7 % 255) - 127);
  }
  return values;
}

OneOperation convolution() {
  npu::Tensor weights = constant("w", npu::Shape{16, 3, 3, 8}, npu::DataType::Int8, ramp(16 * 9 * 8));
  weights.quantisation.scale = {0.02};
  weights.quantisation.zeroPoint = {0};
  return makeOperation(npu::OpType::Conv2DBias, featureMap("ifm", {1, 8, 8, 8}, npu::DataType::Int8, 0.5), weights,
                       constant("b", npu::Shape{16}, npu::DataType::Int32, std::vector<std::int32_t>(16, 3)),
                       featureMap("ofm", {1, 8, 8, 16}, npu::DataType::Int8, 0.25));
}

npu::BlockConfig blockOfDepth(int depth) {
  npu::BlockConfig block;
  block.ofmBlock = npu::Shape4(1, 4, 4, depth);
  return block;
}

} // namespace

BOOST_AUTO_TEST_SUITE(weight_encoder)

BOOST_AUTO_TEST_CASE(a_convolution_encodes_its_ohwi_weights_and_per_channel_scales) {
  const OneOperation conv = convolution();
  const std::optional<WeightStreamInput> input = prepareWeightStream(conv.subgraph, conv.op());
  BOOST_REQUIRE(input.has_value());
  BOOST_TEST(input->weights.ofmDepth == 16);
  BOOST_TEST(input->weights.ifmDepth == 8);
  BOOST_TEST((input->traversal == WeightTraversal::PartKernelFirst)); // 8 IFM channels
  BOOST_TEST(input->biases == std::vector<std::int64_t>(16, 3));
  BOOST_TEST((input->scales.front() == quantiseScale(0.5 * 0.02 / 0.25)));

  const EthosUWeightEncoder encoder(WeightEncoderConfig{});
  const std::vector<int> slices{0, 16};
  const npu::EncodedWeights encoded = encoder.encode(conv.subgraph, conv.op(), blockOfDepth(16), slices, true);
  const npu::EncodedWeights direct = encodeWeightsAndScales(*input, WeightEncoderConfig{}, 16, slices, true);
  BOOST_TEST(encoded.totalBytes == direct.totalBytes);
  BOOST_TEST(encoded.stream == direct.stream, boost::test_tools::per_element());
  BOOST_TEST(encoded.originalBytes == 16 * 9 * 8);
  BOOST_TEST(encoded.scaleBytes == 160);
}

BOOST_AUTO_TEST_CASE(depthwise_weights_are_read_channel_last_and_uint8_zero_points_removed) {
  std::vector<std::uint8_t> values(2 * 2 * 4);
  for (std::size_t index = 0; index < values.size(); ++index) {
    values[index] = static_cast<std::uint8_t>(100 + index);
  }
  npu::Tensor weights = constant("w", npu::Shape{1, 2, 2, 4}, npu::DataType::UInt8, values);
  weights.quantisation.scale = {0.1};
  weights.quantisation.zeroPoint = {128};
  const OneOperation depthwise =
      makeOperation(npu::OpType::DepthwiseConv2DBias, featureMap("ifm", {1, 5, 5, 4}, npu::DataType::UInt8, 1.0),
                    weights, std::nullopt, featureMap("ofm", {1, 4, 4, 4}, npu::DataType::UInt8, 1.0));
  const std::optional<WeightStreamInput> input = prepareWeightStream(depthwise.subgraph, depthwise.op());
  BOOST_REQUIRE(input.has_value());
  BOOST_TEST((input->traversal == WeightTraversal::Depthwise));
  BOOST_TEST(input->weights.ofmDepth == 4);
  BOOST_TEST(input->weights.ifmDepth == 1);
  // [1, y, x, c] -> [c, y, x, 0], minus the zero point 128.
  BOOST_TEST(input->weights.at(2, 1, 0, 0) == 100 + (1 * 2 + 0) * 4 + 2 - 128);
  BOOST_TEST(input->biases == std::vector<std::int64_t>(4, 0)); // no bias: zeros
}

BOOST_AUTO_TEST_CASE(fully_connected_weights_are_one_by_one_kernels_traversed_depth_first) {
  npu::Tensor weights = constant("w", npu::Shape{10, 40}, npu::DataType::Int8, ramp(400));
  weights.quantisation.scale = {0.01};
  const OneOperation fc =
      makeOperation(npu::OpType::FullyConnected, featureMap("ifm", {1, 40}, npu::DataType::Int8, 1.0), weights,
                    std::nullopt, featureMap("ofm", {1, 10}, npu::DataType::Int8, 1.0));
  const std::optional<WeightStreamInput> input = prepareWeightStream(fc.subgraph, fc.op());
  BOOST_REQUIRE(input.has_value());
  BOOST_TEST((input->traversal == WeightTraversal::DepthFirst));
  BOOST_TEST(input->weights.at(3, 0, 0, 7) == ramp(400)[3 * 40 + 7]);
}

BOOST_AUTO_TEST_CASE(a_volume_prepared_into_a_used_buffer_equals_one_prepared_into_a_fresh_one) {
  const OneOperation conv = convolution();
  const std::optional<WeightStreamInput> fresh = prepareWeightStream(conv.subgraph, conv.op());
  BOOST_REQUIRE(fresh.has_value());
  // Depthwise (general path) and convolution (widening path) volumes, each into a buffer of stale
  // values larger and smaller than the volume: the buffer's capacity is reused, none of its values.
  for (const std::size_t staleSize : {std::size_t{3}, fresh->weights.values.size() * 4}) {
    std::vector<std::int16_t> stale(staleSize, 77);
    const std::int16_t* memory = stale.data();
    const std::optional<WeightStreamInput> reused = prepareWeightStream(conv.subgraph, conv.op(), std::move(stale));
    BOOST_REQUIRE(reused.has_value());
    BOOST_TEST(reused->weights.values == fresh->weights.values, boost::test_tools::per_element());
    if (staleSize > fresh->weights.values.size()) {
      BOOST_TEST(reused->weights.values.data() == memory);
    }
  }
  std::vector<std::uint8_t> values(2 * 2 * 4, 131);
  npu::Tensor weights = constant("w", npu::Shape{1, 2, 2, 4}, npu::DataType::UInt8, values);
  weights.quantisation.scale = {0.1};
  weights.quantisation.zeroPoint = {128};
  const OneOperation depthwise =
      makeOperation(npu::OpType::DepthwiseConv2DBias, featureMap("ifm", {1, 5, 5, 4}, npu::DataType::UInt8, 1.0),
                    weights, std::nullopt, featureMap("ofm", {1, 4, 4, 4}, npu::DataType::UInt8, 1.0));
  const std::optional<WeightStreamInput> reused =
      prepareWeightStream(depthwise.subgraph, depthwise.op(), std::vector<std::int16_t>(100, -5));
  BOOST_REQUIRE(reused.has_value());
  BOOST_TEST(reused->weights.values == std::vector<std::int16_t>(16, 3), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(sixteen_bit_ifms_without_bias_use_reduced_scales) {
  npu::Tensor weights = constant("w", npu::Shape{4, 1, 1, 4}, npu::DataType::Int8, ramp(16));
  weights.quantisation.scale = {0.5};
  const OneOperation conv =
      makeOperation(npu::OpType::Conv2DBias, featureMap("ifm", {1, 2, 2, 4}, npu::DataType::Int16, 1.0), weights,
                    std::nullopt, featureMap("ofm", {1, 2, 2, 4}, npu::DataType::Int16, 1.0));
  const std::optional<WeightStreamInput> input = prepareWeightStream(conv.subgraph, conv.op());
  BOOST_REQUIRE(input.has_value());
  BOOST_TEST(input->ifmBits == 16);
  BOOST_TEST((input->scales.front() == reducedQuantiseScale(0.5)));
}

BOOST_AUTO_TEST_CASE(a_transpose_convolution_reads_its_kernel_mirrored) {
  npu::Tensor weights = constant("w", npu::Shape{1, 2, 3, 1}, npu::DataType::Int8, ramp(6));
  weights.quantisation.scale = {1.0};
  OneOperation transpose =
      makeOperation(npu::OpType::Conv2DBias, featureMap("ifm", {1, 4, 4, 1}, npu::DataType::Int8, 1.0), weights,
                    std::nullopt, featureMap("ofm", {1, 8, 8, 1}, npu::DataType::Int8, 1.0));
  npu::Operation& op = transpose.subgraph.operation(transpose.id);
  op.type = npu::OpType::Conv2DBackpropInputSwitchedBias; // ifm 0, weights 1, bias 3
  const std::optional<WeightStreamInput> input = prepareWeightStream(transpose.subgraph, op);
  BOOST_REQUIRE(input.has_value());
  BOOST_TEST(input->weights.at(0, 0, 0, 0) == ramp(6)[5]);
  BOOST_TEST(input->weights.at(0, 1, 2, 0) == ramp(6)[0]);
}

BOOST_AUTO_TEST_CASE(operations_without_weights_encode_to_nothing) {
  OneOperation conv = convolution();
  npu::Operation& op = conv.subgraph.operation(conv.id);
  op.type = npu::OpType::Add;
  const EthosUWeightEncoder encoder(WeightEncoderConfig{});
  const std::vector<int> slices{0, 16};
  const npu::EncodedWeights encoded = encoder.encode(conv.subgraph, op, blockOfDepth(16), slices, true);
  BOOST_TEST(encoded.totalBytes == 0);
  BOOST_TEST(encoded.slices.empty());
}

BOOST_AUTO_TEST_CASE(weights_the_encoder_cannot_handle_raise_an_error_naming_the_operation) {
  OneOperation lstm = convolution();
  lstm.subgraph.operation(lstm.id).type = npu::OpType::Lstm;
  BOOST_CHECK_EXCEPTION(
      static_cast<void>(prepareWeightStream(lstm.subgraph, lstm.op())), npu::Error,
      [](const npu::Error& error) { return error.location().object.find("'ofm'") != std::string::npos; });
  OneOperation wrongKernel = convolution();
  wrongKernel.subgraph.operation(wrongKernel.id).kernel->width = 5;
  BOOST_CHECK_THROW(static_cast<void>(prepareWeightStream(wrongKernel.subgraph, wrongKernel.op())), npu::Error);
  OneOperation floatWeights = convolution();
  floatWeights.subgraph.tensor(floatWeights.op().weights()).type = npu::DataType::Float32;
  BOOST_CHECK_THROW(static_cast<void>(prepareWeightStream(floatWeights.subgraph, floatWeights.op())), npu::Error);
}

BOOST_AUTO_TEST_CASE(dilations_above_two_are_spread_into_the_kernel) {
  OneOperation conv = convolution();
  conv.subgraph.operation(conv.id).kernel->dilationX = 3;
  conv.subgraph.operation(conv.id).kernel->dilationY = 4;
  const std::optional<WeightStreamInput> input = prepareWeightStream(conv.subgraph, conv.op());
  BOOST_REQUIRE(input.has_value());
  BOOST_TEST(input->dilationX == 1); // odd: spread by 3 in software
  BOOST_TEST(input->dilationY == 2); // even: spread by 2 in software, 2 in hardware
  BOOST_TEST(input->weights.kernelWidth == 7);
  BOOST_TEST(input->weights.kernelHeight == 5);
  BOOST_TEST(input->weights.at(0, 2, 3, 0) == ramp(16 * 9 * 8)[(1 * 3 + 1) * 8]);
  BOOST_TEST(input->weights.at(0, 1, 1, 0) == 0);
}

BOOST_AUTO_TEST_CASE(concurrent_encodes_give_identical_results) {
  const OneOperation conv = convolution();
  const EthosUWeightEncoder encoder(WeightEncoderConfig{2, 8, 8, 8, 8});
  const std::vector<int> slices{0, 8, 16};
  const npu::EncodedWeights reference = encoder.encode(conv.subgraph, conv.op(), blockOfDepth(16), slices, true);
  std::vector<npu::EncodedWeights> results(4);
  std::vector<std::thread> threads;
  for (std::size_t index = 0; index < results.size(); ++index) {
    threads.emplace_back(
        [&, index] { results[index] = encoder.encode(conv.subgraph, conv.op(), blockOfDepth(16), slices, true); });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  for (const npu::EncodedWeights& result : results) {
    BOOST_TEST(result.stream == reference.stream, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_SUITE_END()
