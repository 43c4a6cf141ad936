// SPDX-License-Identifier: Apache-2.0
// Generated models load back through the frontend with exactly the operators and MACs the generator
// planned.
#include "frontend_tflite/model_reader.hpp"
#include "model_generator/model_generator.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>

namespace {

using namespace npu::modelgen;

/// MACs of a loaded graph: convolution OH*OW*OC*KH*KW*IC, depthwise OH*OW*C*KH*KW, fully connected IC*OC.
std::int64_t macsOf(const npu::Graph& graph) {
  std::int64_t macs = 0;
  for (const npu::Subgraph& subgraph : graph.subgraphs) {
    for (const npu::Operation& op : subgraph.operations) {
      const auto dim = [&](npu::TensorId id, int axis) { return std::int64_t{subgraph.tensor(id).shape[axis]}; };
      switch (op.type) {
      case npu::OpType::Conv2DBias:
        macs += dim(op.ofm(), 1) * dim(op.ofm(), 2) * dim(op.ofm(), 3) * dim(op.weights(), 1) * dim(op.weights(), 2) *
                dim(op.weights(), 3);
        break;
      case npu::OpType::DepthwiseConv2DBias:
        macs += dim(op.ofm(), 1) * dim(op.ofm(), 2) * dim(op.ofm(), 3) * op.kernel->elementsWH();
        break;
      case npu::OpType::FullyConnected:
        macs += dim(op.weights(), 0) * dim(op.weights(), 1);
        break;
      default:
        break;
      }
    }
  }
  return macs;
}

std::map<std::string, std::size_t> operatorCounts(const npu::Graph& graph) {
  std::map<std::string, std::size_t> counts;
  for (const npu::Operation& op : graph.subgraphs.at(0).operations) {
    ++counts[op.sourceType];
  }
  return counts;
}

NetworkOptions options(Architecture architecture, double alpha, int resolution, std::optional<int> blocks = {}) {
  NetworkOptions result;
  result.architecture = architecture;
  result.alpha = alpha;
  result.resolution = resolution;
  result.blocks = blocks;
  return result;
}

void checkLoadsAsPlanned(const NetworkOptions& network) {
  BOOST_TEST_CONTEXT(describe(network)) {
    const GeneratedModel model = generate(network);
    const npu::Graph graph = npu::tflite_frontend::readModel(model.bytes, "generated.tflite");
    BOOST_TEST(graph.subgraphs.size() == 1U);
    BOOST_TEST(graph.subgraphs[0].operations.size() == model.summary.operators);
    BOOST_TEST((operatorCounts(graph) == model.summary.operatorCounts));
    BOOST_TEST(macsOf(graph) == model.summary.macs);
    BOOST_TEST(graph.description == describe(network));
    const npu::Subgraph& main = graph.subgraphs[0];
    BOOST_TEST((main.tensor(main.inputs.at(0)).shape == npu::Shape(model.summary.inputShape)));
    BOOST_TEST((main.tensor(main.outputs.at(0)).shape == npu::Shape(model.summary.outputShape)));
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(generated_models)

BOOST_AUTO_TEST_CASE(published_mobilenets_have_their_published_operators) {
  const ModelSummary v1 = plan(options(Architecture::MobileNetV1, 1.0, 224));
  BOOST_TEST(v1.operators == 31U); // as tflite's mobilenet_v1_1.0_224: 15 conv, 13 depthwise, pool, reshape, softmax
  BOOST_TEST(v1.operatorCounts.at("CONV_2D") == 15U);
  BOOST_TEST(v1.operatorCounts.at("DEPTHWISE_CONV_2D") == 13U);
  const ModelSummary v2 = plan(options(Architecture::MobileNetV2, 1.0, 224));
  BOOST_TEST(v2.operatorCounts.at("CONV_2D") == 35U); // 16 expand, 17 project, stem and head 1x1
  BOOST_TEST(v2.operatorCounts.at("DEPTHWISE_CONV_2D") == 17U);
  BOOST_TEST(v2.operatorCounts.at("ADD") == 10U);
}

BOOST_AUTO_TEST_CASE(published_mobilenets_have_their_published_multiply_accumulates) {
  // The papers' counts (569M and 300M) include the classifier and count the stem like ours.
  const double v1 = static_cast<double>(plan(options(Architecture::MobileNetV1, 1.0, 224)).macs);
  BOOST_TEST(std::abs(v1 / 569e6 - 1.0) < 0.01);
  const double v2 = static_cast<double>(plan(options(Architecture::MobileNetV2, 1.0, 224)).macs);
  BOOST_TEST(std::abs(v2 / 300e6 - 1.0) < 0.01);
}

BOOST_AUTO_TEST_CASE(generated_models_load_back_with_the_planned_operators_and_macs) {
  checkLoadsAsPlanned(options(Architecture::MobileNetV1, 0.25, 96));
  checkLoadsAsPlanned(options(Architecture::MobileNetV1, 0.5, 64, 3));
  checkLoadsAsPlanned(options(Architecture::MobileNetV1, 0.75, 33, 20));
  checkLoadsAsPlanned(options(Architecture::MobileNetV2, 0.35, 96));
  checkLoadsAsPlanned(options(Architecture::MobileNetV2, 1.0, 32, 5));
  checkLoadsAsPlanned(options(Architecture::MobileNetV2, 1.4, 40, 25));
}

BOOST_AUTO_TEST_CASE(mobilenet_v1_depth_spans_ten_to_ten_thousand_layers) {
  for (const int blocks : {3, 13, 100, 4998}) {
    BOOST_TEST(plan(options(Architecture::MobileNetV1, 0.25, 96, blocks)).operators ==
               static_cast<std::size_t>(2 * blocks + 5));
  }
}

BOOST_AUTO_TEST_CASE(a_thousand_layer_network_loads_with_every_layer) {
  checkLoadsAsPlanned(options(Architecture::MobileNetV1, 0.25, 32, 498)); // 1001 operators
}

BOOST_AUTO_TEST_CASE(fewer_blocks_shorten_the_longest_stages_and_more_grow_the_middle_one) {
  // v2 at 7 blocks: one bottleneck per stage; only stages 2 to 7 (with expansion) have an expand conv.
  const ModelSummary seven = plan(options(Architecture::MobileNetV2, 1.0, 224, 7));
  BOOST_TEST(seven.operatorCounts.at("DEPTHWISE_CONV_2D") == 7U);
  BOOST_TEST(seven.operatorCounts.count("ADD") == 0U);
  const ModelSummary deep = plan(options(Architecture::MobileNetV2, 1.0, 224, 27));
  BOOST_TEST(deep.operatorCounts.at("ADD") == 20U); // ten more residual blocks in the 64-channel stage
  BOOST_TEST((deep.outputShape == std::vector<int>{1, 1000}));
}

BOOST_AUTO_TEST_CASE(weights_are_per_channel_int8_and_biases_follow_input_times_weight_scale) {
  const GeneratedModel model = generate(options(Architecture::MobileNetV2, 0.35, 32));
  const npu::Graph graph = npu::tflite_frontend::readModel(model.bytes, "generated.tflite");
  const npu::Subgraph& main = graph.subgraphs[0];
  for (const npu::Operation& op : main.operations) {
    if (op.type != npu::OpType::Conv2DBias && op.type != npu::OpType::DepthwiseConv2DBias) {
      continue;
    }
    BOOST_TEST_CONTEXT(op.name) {
      const npu::Tensor& ifm = main.tensor(op.ifm());
      const npu::Tensor& weights = main.tensor(op.weights());
      const npu::Tensor& bias = main.tensor(op.bias());
      BOOST_TEST((weights.type == npu::DataType::Int8));
      BOOST_TEST((bias.type == npu::DataType::Int32));
      BOOST_TEST(weights.quantisation.perChannel());
      BOOST_TEST(weights.quantisation.axis == (op.type == npu::OpType::Conv2DBias ? 0 : 3));
      BOOST_TEST_REQUIRE(bias.quantisation.scale.size() == weights.quantisation.scale.size());
      for (std::size_t c = 0; c < bias.quantisation.scale.size(); ++c) {
        BOOST_TEST(weights.quantisation.zeroPointAt(c) == 0);
        const double expected = static_cast<double>(static_cast<float>(ifm.quantisation.scaleAt(0)) *
                                                    static_cast<float>(weights.quantisation.scaleAt(c)));
        BOOST_TEST(bias.quantisation.scaleAt(c) == expected);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(invalid_options_and_oversized_models_are_refused) {
  BOOST_CHECK_THROW((void)generate(options(Architecture::MobileNetV1, 0.0, 96)), std::invalid_argument);
  BOOST_CHECK_THROW((void)generate(options(Architecture::MobileNetV1, 1.0, 4)), std::invalid_argument);
  BOOST_CHECK_THROW((void)generate(options(Architecture::MobileNetV1, 1.0, 96, 0)), std::invalid_argument);
  BOOST_CHECK_THROW((void)generate(options(Architecture::MobileNetV1, 1.0, 96, 20000)), std::length_error);
}

BOOST_AUTO_TEST_SUITE_END()
