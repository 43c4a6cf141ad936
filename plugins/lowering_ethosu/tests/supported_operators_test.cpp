// SPDX-License-Identifier: Apache-2.0
// Every operator of Vela 3.10's SUPPORTED_OPS.md, in a small graph the Ethos-U-55 checks accept, lowers
// onto the NPU into a valid graph of operations the hardware runs. Users bring models we have never
// seen; this makes sure no supported operator is left without its rewrite.
#include "lowering_test_support.hpp"
#include "reference_accelerator.hpp"

#include "ethosu_lowering/lowering.hpp"

#include "npu/ir/graph_algorithms.hpp"

#include <boost/test/unit_test.hpp>

#include <functional>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

namespace {

using GraphFactory = std::function<void(GraphBuilder&)>;

TensorId int32Constant(GraphBuilder& builder, const std::string& name, Shape shape, std::vector<std::int64_t> values) {
  return builder.constant(name, std::move(shape), DataType::Int32, values, 1.0);
}

/// input [1, 4, 4, 8] -> operator -> output of `outputShape`.
GraphFactory unary(OpType type, const std::string& tflite, Shape outputShape = Shape{1, 4, 4, 8},
                   double outputScale = 0.05, std::int64_t outputZeroPoint = 0) {
  return [=](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
    const TensorId out = builder.featureMap(tflite, outputShape, DataType::Int8, outputScale, outputZeroPoint);
    builder.operation(type, tflite, {in}, {out});
    builder.output(out);
  };
}

/// int16 input [1, 4, 4, 8] -> operator -> int16 output.
GraphFactory unaryInt16(OpType type, const std::string& tflite, double outputScale) {
  return [=](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8}, DataType::Int16);
    builder.subgraph().tensor(in).quantisation.scale = {1.0 / 4096};
    const TensorId out = builder.featureMap(tflite, Shape{1, 4, 4, 8}, DataType::Int16, outputScale, 0);
    builder.operation(type, tflite, {in}, {out});
    builder.output(out);
  };
}

GraphFactory binary(OpType type, const std::string& tflite, double outputScale = 0.1) {
  return [=](GraphBuilder& builder) {
    const TensorId a = builder.input("a", Shape{1, 4, 4, 8});
    const TensorId b = builder.input("b", Shape{1, 4, 4, 8});
    const TensorId out = builder.featureMap(tflite, Shape{1, 4, 4, 8}, DataType::Int8, outputScale, 0);
    builder.operation(type, tflite, {a, b}, {out});
    builder.output(out);
  };
}

GraphFactory pool(OpType type, const std::string& tflite) {
  return [=](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 8, 8, 8});
    const TensorId out = builder.featureMap(tflite, Shape{1, 4, 4, 8});
    builder.operation(type, tflite, {in}, {out}).kernel = Kernel{2, 2, 2, 2, 1, 1};
    builder.output(out);
  };
}

/// input -> operator with constant operands -> output.
GraphFactory withConstants(OpType type, const std::string& tflite, Shape input, Shape output,
                           std::vector<std::pair<Shape, std::vector<std::int64_t>>> constants,
                           std::function<void(Operation&)> configure = {}) {
  return [=](GraphBuilder& builder) {
    const TensorId in = builder.input("in", input);
    std::vector<TensorId> inputs{in};
    for (std::size_t i = 0; i < constants.size(); ++i) {
      inputs.push_back(
          int32Constant(builder, tflite + "_operand" + std::to_string(i), constants[i].first, constants[i].second));
    }
    const TensorId out = builder.featureMap(tflite, output);
    Operation& op = builder.operation(type, tflite, inputs, {out});
    if (configure) {
      configure(op);
    }
    builder.output(out);
  };
}

GraphFactory resize(OpType type, const std::string& tflite, bool alignCorners, bool halfPixelCentres) {
  return withConstants(type, tflite, Shape{1, 4, 4, 8}, Shape{1, 8, 8, 8}, {{Shape{2}, {8, 8}}}, [=](Operation& op) {
    op.attributes.set("align_corners", alignCorners);
    op.attributes.set("half_pixel_centers", halfPixelCentres);
  });
}

/// The operators of SUPPORTED_OPS.md (Vela 3.10) with a graph each.
std::vector<std::pair<std::string, GraphFactory>> supportedOperators() {
  std::vector<std::pair<std::string, GraphFactory>> operators;
  operators.emplace_back("ABS", unary(OpType::Abs, "ABS"));
  operators.emplace_back("ADD", binary(OpType::Add, "ADD"));
  operators.emplace_back("ARG_MAX", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
    const TensorId axis = int32Constant(builder, "axis", Shape{1}, {3});
    const TensorId out = builder.featureMap("ARG_MAX", Shape{1, 4, 4}, DataType::Int32, 1.0, 0);
    builder.operation(OpType::ArgMax, "ARG_MAX", {in, axis}, {out}).attributes.set("output_type", std::string("int32"));
    builder.output(out);
  });
  operators.emplace_back("AVERAGE_POOL_2D", pool(OpType::AvgPool, "AVERAGE_POOL_2D"));
  operators.emplace_back("CONCATENATION", [](GraphBuilder& builder) {
    const TensorId a = builder.input("a", Shape{1, 4, 4, 8});
    const TensorId b = builder.input("b", Shape{1, 4, 4, 8});
    const TensorId out = builder.featureMap("CONCATENATION", Shape{1, 4, 4, 16});
    builder.operation(OpType::ConcatTFLite, "CONCATENATION", {a, b}, {out}).attributes.set("axis", std::int64_t{3});
    builder.output(out);
  });
  operators.emplace_back("CONV_2D", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 8, 8, 8});
    const TensorId out = builder.featureMap("CONV_2D", Shape{1, 8, 8, 16});
    builder.conv(in, out, 3);
    builder.output(out);
  });
  operators.emplace_back("DEPTHWISE_CONV_2D", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 8, 8, 8});
    const TensorId weights = builder.weights("w", Shape{1, 3, 3, 8});
    const TensorId bias = builder.constant("b", Shape{8}, DataType::Int32, std::vector<std::int64_t>(8, 0));
    const TensorId out = builder.featureMap("DEPTHWISE_CONV_2D", Shape{1, 8, 8, 8});
    Operation& op = builder.operation(OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D", {in, weights, bias}, {out});
    op.kernel = Kernel{3, 3, 1, 1, 1, 1};
    op.padding = Padding::Same;
    op.attributes.set("depth_multiplier", std::int64_t{1});
    builder.output(out);
  });
  operators.emplace_back("EXP", unary(OpType::Exp, "EXP"));
  operators.emplace_back("EXPAND_DIMS", withConstants(OpType::ExpandDims, "EXPAND_DIMS", Shape{1, 4, 8},
                                                      Shape{1, 4, 1, 8}, {{Shape{1}, {2}}}));
  operators.emplace_back("FULLY_CONNECTED", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 32});
    const TensorId weights = builder.weights("w", Shape{10, 32});
    const TensorId bias = builder.constant("b", Shape{10}, DataType::Int32, std::vector<std::int64_t>(10, 0));
    const TensorId out = builder.featureMap("FULLY_CONNECTED", Shape{1, 10});
    builder.operation(OpType::FullyConnected, "FULLY_CONNECTED", {in, weights, bias}, {out});
    builder.output(out);
  });
  operators.emplace_back("HARD_SWISH", unary(OpType::HardSwish, "HARD_SWISH"));
  operators.emplace_back("LEAKY_RELU", [](GraphBuilder& builder) {
    unary(OpType::LeakyRelu, "LEAKY_RELU")(builder);
    builder.subgraph().operations.back().attributes.set("alpha", 0.1);
  });
  operators.emplace_back("LOGISTIC", unary(OpType::Sigmoid, "LOGISTIC", Shape{1, 4, 4, 8}, 1.0 / 256, -128));
  operators.emplace_back("MAXIMUM", binary(OpType::Maximum, "MAXIMUM", 0.05));
  operators.emplace_back("MAX_POOL_2D", pool(OpType::MaxPool, "MAX_POOL_2D"));
  operators.emplace_back("MEAN",
                         withConstants(OpType::Mean, "MEAN", Shape{1, 4, 4, 8}, Shape{1, 1, 1, 8}, {{Shape{2}, {1, 2}}},
                                       [](Operation& op) { op.attributes.set("keep_dims", true); }));
  operators.emplace_back("MINIMUM", binary(OpType::Minimum, "MINIMUM", 0.05));
  operators.emplace_back("MUL", binary(OpType::Mul, "MUL"));
  operators.emplace_back("PACK", [](GraphBuilder& builder) {
    const TensorId a = builder.input("a", Shape{4, 8});
    const TensorId b = builder.input("b", Shape{4, 8});
    const TensorId out = builder.featureMap("PACK", Shape{2, 4, 8});
    Operation& op = builder.operation(OpType::Pack, "PACK", {a, b}, {out});
    op.attributes.set("axis", std::int64_t{0});
    op.attributes.set("values_count", std::int64_t{2});
    builder.output(out);
  });
  operators.emplace_back("PAD", withConstants(OpType::Pad, "PAD", Shape{1, 4, 4, 8}, Shape{1, 6, 6, 8},
                                              {{Shape{4, 2}, {0, 0, 1, 1, 1, 1, 0, 0}}}));
  operators.emplace_back("PRELU", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
    const TensorId alpha = builder.constant("alpha", Shape{1, 1, 8}, DataType::Int8, {1, 2, 3, 4, 5, 6, 7, 8});
    const TensorId out = builder.featureMap("PRELU", Shape{1, 4, 4, 8}, DataType::Int8, 0.04, 0);
    builder.operation(OpType::Prelu, "PRELU", {in, alpha}, {out});
    builder.output(out);
  });
  operators.emplace_back("QUANTIZE", unary(OpType::Quantize, "QUANTIZE", Shape{1, 4, 4, 8}, 0.1, 3));
  operators.emplace_back("RELU", unary(OpType::Relu, "RELU"));
  operators.emplace_back("RELU6", unary(OpType::Relu6, "RELU6"));
  operators.emplace_back("RELU_N1_TO_1", unary(OpType::ReluN1To1, "RELU_N1_TO_1"));
  operators.emplace_back(
      "RESHAPE", withConstants(OpType::Reshape, "RESHAPE", Shape{1, 4, 4, 8}, Shape{1, 128}, {{Shape{2}, {1, 128}}}));
  operators.emplace_back("RESIZE_BILINEAR", resize(OpType::ResizeBilinear, "RESIZE_BILINEAR", false, false));
  operators.emplace_back("RESIZE_BILINEAR (half pixel centres)",
                         resize(OpType::ResizeBilinear, "RESIZE_BILINEAR", false, true));
  operators.emplace_back("RESIZE_NEAREST_NEIGHBOR",
                         resize(OpType::ResizeNearestNeighbor, "RESIZE_NEAREST_NEIGHBOR", false, false));
  operators.emplace_back("RSQRT", unary(OpType::Rsqrt, "RSQRT"));
  operators.emplace_back("SHAPE", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
    const TensorId shape = builder.featureMap("shape", Shape{4}, DataType::Int32, 1.0, 0);
    const TensorId out = builder.featureMap("SHAPE", Shape{4}, DataType::Int32, 1.0, 0);
    const TensorId one = int32Constant(builder, "one", Shape{1}, {1});
    builder.operation(OpType::Shape, "SHAPE", {in}, {shape}).attributes.set("out_type", std::string("int32"));
    builder.operation(OpType::Add, "ADD", {shape, one}, {out});
    builder.output(out);
  });
  operators.emplace_back("SLICE", withConstants(OpType::Slice, "SLICE", Shape{1, 4, 4, 8}, Shape{1, 2, 2, 8},
                                                {{Shape{4}, {0, 1, 1, 0}}, {Shape{4}, {1, 2, 2, 8}}}));
  operators.emplace_back("SOFTMAX", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 10});
    const TensorId out = builder.featureMap("SOFTMAX", Shape{1, 10}, DataType::Int8, 1.0 / 256, -128);
    builder.operation(OpType::Softmax, "SOFTMAX", {in}, {out}).attributes.set("beta", 1.0);
    builder.output(out);
  });
  operators.emplace_back("SPLIT", [](GraphBuilder& builder) {
    const TensorId axis = int32Constant(builder, "axis", Shape{}, {3});
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
    const TensorId a = builder.featureMap("SPLIT", Shape{1, 4, 4, 4});
    const TensorId b = builder.featureMap("SPLIT_1", Shape{1, 4, 4, 4});
    builder.operation(OpType::Split, "SPLIT", {axis, in}, {a, b}).attributes.set("num_splits", std::int64_t{2});
    builder.output(a);
    builder.output(b);
  });
  operators.emplace_back("SPLIT_V", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
    const TensorId sizes = int32Constant(builder, "sizes", Shape{2}, {3, 5});
    const TensorId axis = int32Constant(builder, "axis", Shape{}, {3});
    const TensorId a = builder.featureMap("SPLIT_V", Shape{1, 4, 4, 3});
    const TensorId b = builder.featureMap("SPLIT_V_1", Shape{1, 4, 4, 5});
    builder.operation(OpType::SplitV, "SPLIT_V", {in, sizes, axis}, {a, b})
        .attributes.set("num_splits", std::int64_t{2});
    builder.output(a);
    builder.output(b);
  });
  operators.emplace_back("SQUARED_DIFFERENCE", binary(OpType::SquaredDifference, "SQUARED_DIFFERENCE"));
  operators.emplace_back("SQUEEZE", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 1, 4, 8});
    const TensorId out = builder.featureMap("SQUEEZE", Shape{1, 4, 8});
    builder.operation(OpType::Squeeze, "SQUEEZE", {in}, {out})
        .attributes.set("squeeze_dims", std::vector<std::int64_t>{1});
    builder.output(out);
  });
  operators.emplace_back("STRIDED_SLICE",
                         withConstants(OpType::StridedSlice, "STRIDED_SLICE", Shape{1, 4, 4, 8}, Shape{1, 2, 4, 8},
                                       {{Shape{4}, {0, 0, 0, 0}}, {Shape{4}, {1, 2, 4, 8}}, {Shape{4}, {1, 1, 1, 1}}}));
  operators.emplace_back("SUB", binary(OpType::Sub, "SUB"));
  operators.emplace_back("TANH", unary(OpType::Tanh, "TANH", Shape{1, 4, 4, 8}, 1.0 / 128, 0));
  operators.emplace_back("TRANSPOSE", withConstants(OpType::Transpose, "TRANSPOSE", Shape{1, 4, 6, 8},
                                                    Shape{1, 6, 4, 8}, {{Shape{4}, {0, 2, 1, 3}}}));
  operators.emplace_back("TRANSPOSE_CONV", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 4, 8});
    const TensorId outputShape = int32Constant(builder, "output_shape", Shape{4}, {1, 8, 8, 4});
    const TensorId weights = builder.weights("w", Shape{4, 3, 3, 8});
    const TensorId out = builder.featureMap("TRANSPOSE_CONV", Shape{1, 8, 8, 4});
    Operation& op =
        builder.operation(OpType::Conv2DBackpropInput, "TRANSPOSE_CONV", {outputShape, weights, in, kNoTensor}, {out});
    op.kernel = Kernel{3, 3, 2, 2, 1, 1};
    op.padding = Padding::Same;
    builder.output(out);
  });
  operators.emplace_back("UNIDIRECTIONAL_SEQUENCE_LSTM",
                         [](GraphBuilder& builder) { builder = lstmOverTwoTimeSteps(); });
  // Variants that take other paths through the rewrites.
  operators.emplace_back("EXP (int16)", unaryInt16(OpType::Exp, "EXP", 1.0 / 4096));
  operators.emplace_back("LOGISTIC (int16)", unaryInt16(OpType::Sigmoid, "LOGISTIC", 1.0 / 32768));
  operators.emplace_back("TANH (int16)", unaryInt16(OpType::Tanh, "TANH", 1.0 / 32768));
  operators.emplace_back("SOFTMAX (int16)", unaryInt16(OpType::Softmax, "SOFTMAX", 1.0 / 32768));
  operators.emplace_back("LEAKY_RELU (int16)", [](GraphBuilder& builder) {
    unaryInt16(OpType::LeakyRelu, "LEAKY_RELU", 1.0 / 4096)(builder);
    builder.subgraph().operations.back().attributes.set("alpha", 0.25);
  });
  operators.emplace_back("RESIZE_NEAREST_NEIGHBOR (aligned corners)",
                         withConstants(OpType::ResizeNearestNeighbor, "RESIZE_NEAREST_NEIGHBOR", Shape{1, 4, 4, 8},
                                       Shape{1, 7, 7, 8}, {{Shape{2}, {7, 7}}},
                                       [](Operation& op) { op.attributes.set("align_corners", true); }));
  operators.emplace_back("RESIZE_BILINEAR (8x)",
                         withConstants(OpType::ResizeBilinear, "RESIZE_BILINEAR", Shape{1, 2, 2, 8},
                                       Shape{1, 16, 16, 8}, {{Shape{2}, {16, 16}}}));
  operators.emplace_back("MEAN (depth)",
                         withConstants(OpType::Mean, "MEAN", Shape{1, 1, 4, 8}, Shape{1, 1, 4, 1}, {{Shape{1}, {3}}},
                                       [](Operation& op) { op.attributes.set("keep_dims", true); }));
  // Strides above 3 only pass the checks when the OFM has a single row.
  operators.emplace_back("AVERAGE_POOL_2D (stride 4)", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{1, 4, 16, 8});
    const TensorId out = builder.featureMap("AVERAGE_POOL_2D", Shape{1, 1, 4, 8});
    builder.operation(OpType::AvgPool, "AVERAGE_POOL_2D", {in}, {out}).kernel = Kernel{4, 4, 4, 4, 1, 1};
    builder.output(out);
  });
  operators.emplace_back("UNPACK", [](GraphBuilder& builder) {
    const TensorId in = builder.input("in", Shape{2, 4, 8});
    const TensorId a = builder.featureMap("UNPACK", Shape{4, 8});
    const TensorId b = builder.featureMap("UNPACK_1", Shape{4, 8});
    Operation& op = builder.operation(OpType::Unpack, "UNPACK", {in}, {a, b});
    op.attributes.set("axis", std::int64_t{0});
    op.attributes.set("num", std::int64_t{2});
    builder.output(a);
    builder.output(b);
  });
  return operators;
}

} // namespace

BOOST_AUTO_TEST_SUITE(supported_operators)

BOOST_AUTO_TEST_CASE(every_operator_vela_supports_lowers_onto_the_npu_into_operations_the_hardware_runs) {
  const auto accelerator = makeReferenceAccelerator("C1");
  for (const auto& [name, build] : supportedOperators()) {
    BOOST_TEST_CONTEXT(name) {
      GraphBuilder builder;
      build(builder);
      Graph lowered;
      try {
        lowered = lowerGraph(builder.graph, *accelerator, LoweringOptions{true});
      } catch (const std::exception& error) {
        BOOST_ERROR("lowering threw: " << error.what());
        continue;
      }
      BOOST_TEST(verifyGraph(lowered).empty());
      for (const Operation& op : lowered.subgraphs.front().operations) {
        BOOST_TEST(op.placement == Placement::Npu, op.name << " is on the CPU: " << op.placementReason);
      }
      BOOST_TEST(countPlacements(lowered).npuOperations > 0);
      for (const std::string& leftover : operationsTheNpuCannotRun(lowered)) {
        BOOST_ERROR("left on the NPU: " << leftover);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(asymmetric_int8_weights_run_on_the_npu_only_when_forced_symmetric_and_then_lose_their_zero_point) {
  GraphBuilder builder;
  const TensorId in = builder.input("in", Shape{1, 8, 8, 8});
  const TensorId out = builder.featureMap("conv", Shape{1, 8, 8, 8});
  Operation& conv = builder.conv(in, out, 3);
  builder.subgraph().tensor(conv.weights()).quantisation.zeroPoint = {3};
  builder.output(out);

  const Graph checked = lowerGraph(builder.graph, *makeReferenceAccelerator("C1"));
  BOOST_TEST(checked.subgraphs.front().operations.front().placement == Placement::Cpu);

  npu::OptionValues force;
  force.set("force_symmetric_int_weights", true);
  const Graph forced = lowerGraph(builder.graph, *makeReferenceAccelerator("C1", force));
  const Operation& npu = forced.subgraphs.front().operations.front();
  BOOST_TEST(npu.placement == Placement::Npu);
  BOOST_TEST(forced.subgraphs.front().tensor(npu.weights()).quantisation.zeroPoint == std::vector<std::int64_t>{0});
}

BOOST_AUTO_TEST_SUITE_END()
