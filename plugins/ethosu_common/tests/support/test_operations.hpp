// SPDX-License-Identifier: Apache-2.0
#pragma once

// Baseline operations that the NPU accepts, and the runner of the reasons tables: each case builds one
// operation twice, once just inside a constraint (it must be supported) and once just outside (it must
// fail that constraint with Vela's detail text).

#include "test_graph.hpp"

#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ethosu::test {

using npu::DataType;
using npu::OpType;

/// CONV_2D 3x3, 4 -> 8 channels on 8x8, SAME padding.
inline TestGraph convolution() {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4});
  const auto weights = g.filled("weights", {8, 3, 3, 4}, DataType::Int8, 1);
  const auto bias = g.filled("bias", {8}, DataType::Int32, 0);
  const auto ofm = g.featureMap("ofm", {1, 8, 8, 8});
  auto& op = g.operation(OpType::Conv2DBias, "CONV_2D", {ifm, weights, bias}, {ofm});
  op.kernel = kernelOf(3, 3);
  op.padding = npu::Padding::Same;
  return g;
}

/// DEPTHWISE_CONV_2D 3x3 over 4 channels, depth multiplier 1.
inline TestGraph depthwiseConvolution() {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4});
  const auto weights = g.filled("weights", {1, 3, 3, 4}, DataType::Int8, 1);
  const auto bias = g.filled("bias", {4}, DataType::Int32, 0);
  const auto ofm = g.featureMap("ofm", {1, 8, 8, 4});
  auto& op = g.operation(OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D", {ifm, weights, bias}, {ofm});
  op.kernel = kernelOf(3, 3);
  op.padding = npu::Padding::Same;
  op.attributes.set("depth_multiplier", std::int64_t{1});
  return g;
}

/// TRANSPOSE_CONV 3x3, stride 2, 4x4 -> 8x8, SAME padding.
inline TestGraph transposeConvolution() {
  TestGraph g;
  const auto outputShape = g.constant("output_shape", {4}, DataType::Int32, {1, 8, 8, 8});
  const auto weights = g.filled("weights", {8, 3, 3, 4}, DataType::Int8, 1);
  const auto ifm = g.featureMap("ifm", {1, 4, 4, 4});
  const auto bias = g.filled("bias", {8}, DataType::Int32, 0);
  const auto ofm = g.featureMap("ofm", {1, 8, 8, 8});
  auto& op = g.operation(OpType::Conv2DBackpropInput, "TRANSPOSE_CONV", {outputShape, weights, ifm, bias}, {ofm});
  op.kernel = kernelOf(3, 3, 2, 2);
  op.padding = npu::Padding::Same;
  return g;
}

/// FULLY_CONNECTED 16 -> 8.
inline TestGraph fullyConnected() {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 16});
  const auto weights = g.filled("weights", {8, 16}, DataType::Int8, 1);
  const auto bias = g.filled("bias", {8}, DataType::Int32, 0);
  const auto ofm = g.featureMap("ofm", {1, 8});
  g.operation(OpType::FullyConnected, "FULLY_CONNECTED", {ifm, weights, bias}, {ofm});
  return g;
}

/// AVERAGE_POOL_2D or MAX_POOL_2D 2x2, stride 2, 8x8 -> 4x4, VALID padding.
inline TestGraph pooling(OpType type = OpType::AvgPool) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4});
  const auto ofm = g.featureMap("ofm", {1, 4, 4, 4});
  auto& op = g.operation(type, type == OpType::AvgPool ? "AVERAGE_POOL_2D" : "MAX_POOL_2D", {ifm}, {ofm});
  op.kernel = kernelOf(2, 2, 2, 2);
  op.padding = npu::Padding::Valid;
  return g;
}

/// A binary element-wise operation on equal shapes.
inline TestGraph binary(OpType type, const std::string& sourceType, DataType dataType = DataType::Int8) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4}, dataType);
  const auto ifm2 = g.featureMap("ifm2", {1, 8, 8, 4}, dataType);
  const auto ofm = g.featureMap("ofm", {1, 8, 8, 4}, dataType);
  g.operation(type, sourceType, {ifm, ifm2}, {ofm});
  return g;
}

/// A single-input operation (unary element-wise, activation, ...) on equal shapes.
inline TestGraph unary(OpType type, const std::string& sourceType, DataType dataType = DataType::Int8) {
  TestGraph g;
  const auto ifm = g.featureMap("ifm", {1, 8, 8, 4}, dataType);
  const auto ofm = g.featureMap("ofm", {1, 8, 8, 4}, dataType);
  g.operation(type, sourceType, {ifm}, {ofm});
  return g;
}

/// UNIDIRECTIONAL_SEQUENCE_LSTM with the 24 inputs of a plain (no CIFG, peephole, projection) LSTM.
inline TestGraph lstm() {
  TestGraph g;
  std::vector<npu::TensorId> inputs(24, npu::kNoTensor);
  inputs[0] = g.featureMap("ifm", {1, 28, 28});
  for (std::size_t i = 1; i <= 8; ++i) {
    inputs[i] = g.filled("weights" + std::to_string(i), {20, i <= 4 ? 28 : 20}, DataType::Int8, 1);
  }
  for (std::size_t i = 12; i <= 15; ++i) {
    inputs[i] = g.filled("bias" + std::to_string(i), {20}, DataType::Int32, 0);
  }
  inputs[18] = g.featureMap("output_state", {1, 20});
  inputs[19] = g.featureMap("cell_state", {1, 20}, DataType::Int16);
  g.tensor("output_state").isVariable = true;
  g.tensor("cell_state").isVariable = true;
  const auto ofm = g.featureMap("ofm", {1, 28, 20});
  auto& op = g.operation(OpType::UnidirectionalSequenceLstm, "UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, {ofm});
  for (int i = 0; i < 5; ++i) {
    op.intermediates.push_back(g.featureMap("intermediate" + std::to_string(i), {1, 20}, DataType::Int16));
  }
  return g;
}

struct ReasonCase {
  std::string constraint;                       ///< the id the failing variant must report
  std::function<TestGraph(bool failing)> build; ///< builds the passing or the failing variant
  std::string detail;                           ///< Vela's detail text for the failing variant
};

/// Every passing variant is supported; every failing variant fails its constraint with its detail.
inline void checkReasonTable(const std::vector<ReasonCase>& cases) {
  for (const ReasonCase& reasonCase : cases) {
    BOOST_TEST_CONTEXT("constraint " << reasonCase.constraint) {
      const SupportDiagnosis passing = reasonCase.build(false).diagnose();
      BOOST_TEST(passing.supported, "passing variant rejected by " << passing.constraint << ": " << passing.detail);
      const SupportDiagnosis failing = reasonCase.build(true).diagnose();
      BOOST_TEST(!failing.supported);
      BOOST_TEST(failing.constraint == reasonCase.constraint);
      BOOST_TEST(failing.detail == reasonCase.detail);
    }
  }
}

} // namespace ethosu::test
