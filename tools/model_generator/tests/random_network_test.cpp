// SPDX-License-Identifier: Apache-2.0
// Random networks: deterministic, valid for the frontend (every tensor and operator read back with the
// operators the generator counted), varied, and restricted to the kinds asked for.
#include "frontend_tflite/model_reader.hpp"
#include "model_generator/random_network.hpp"

#include <boost/test/unit_test.hpp>

#include <set>

namespace {

using namespace npu::modelgen;

RandomNetworkOptions withSeed(std::uint64_t seed) {
  RandomNetworkOptions options;
  options.seed = seed;
  options.operators = 16;
  return options;
}

std::map<std::string, std::size_t> operatorCounts(const npu::Graph& graph) {
  std::map<std::string, std::size_t> counts;
  for (const npu::Operation& op : graph.subgraphs.at(0).operations) {
    ++counts[op.sourceType];
  }
  return counts;
}

} // namespace

BOOST_AUTO_TEST_SUITE(random_network)

BOOST_AUTO_TEST_CASE(the_same_options_give_byte_identical_files_and_other_seeds_other_networks) {
  BOOST_TEST((generateRandomNetwork(withSeed(3)).bytes == generateRandomNetwork(withSeed(3)).bytes));
  BOOST_TEST((generateRandomNetwork(withSeed(3)).bytes != generateRandomNetwork(withSeed(4)).bytes));
}

BOOST_AUTO_TEST_CASE(every_network_of_a_hundred_seeds_loads_with_the_operators_generated) {
  std::set<std::string> seen;
  std::set<std::size_t> inputCounts;
  std::set<std::size_t> outputCounts;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    BOOST_TEST_CONTEXT("seed " << seed) {
      const GeneratedModel model = generateRandomNetwork(withSeed(seed));
      const npu::Graph graph = npu::tflite_frontend::readModel(model.bytes, "random.tflite");
      BOOST_TEST((operatorCounts(graph) == model.summary.operatorCounts));
      for (const auto& [name, count] : model.summary.operatorCounts) {
        seen.insert(name);
      }
      inputCounts.insert(graph.subgraphs.at(0).inputs.size());
      outputCounts.insert(graph.subgraphs.at(0).outputs.size());
    }
  }
  // The variety the differential tests rely on.
  for (const char* name : {"CONV_2D",
                           "DEPTHWISE_CONV_2D",
                           "TRANSPOSE_CONV",
                           "FULLY_CONNECTED",
                           "MEAN",
                           "CONCATENATION",
                           "SPLIT",
                           "PAD",
                           "RESIZE_BILINEAR",
                           "LEAKY_RELU",
                           "SOFTMAX",
                           "SHAPE",
                           "PACK",
                           "DEPTH_TO_SPACE",
                           "ARG_MAX",
                           "QUANTIZE",
                           "TRANSPOSE",
                           "EXP",
                           "RSQRT",
                           "PRELU",
                           "UNPACK",
                           "SQUEEZE",
                           "EXPAND_DIMS"}) {
    BOOST_TEST(seen.contains(name), name);
  }
  BOOST_TEST(inputCounts.size() > 1);
  BOOST_TEST(outputCounts.size() > 1);
}

BOOST_AUTO_TEST_CASE(a_chosen_type_is_the_type_of_every_feature_map) {
  for (const ElementType type : {ElementType::Int8, ElementType::UInt8, ElementType::Int16}) {
    RandomNetworkOptions options = withSeed(11);
    options.type = type;
    options.kinds = {"conv", "add", "mean"};
    const npu::Graph graph = npu::tflite_frontend::readModel(generateRandomNetwork(options).bytes, "random.tflite");
    const auto expected = type == ElementType::Int8    ? npu::DataType::Int8
                          : type == ElementType::UInt8 ? npu::DataType::UInt8
                                                       : npu::DataType::Int16;
    const npu::Subgraph& subgraph = graph.subgraphs.at(0);
    for (const npu::Operation& op : subgraph.operations) {
      BOOST_TEST((subgraph.tensor(op.ofm()).type == expected), op.name);
    }
  }
}

BOOST_AUTO_TEST_CASE(only_the_kinds_named_are_drawn) {
  RandomNetworkOptions options = withSeed(5);
  options.kinds = {"depthwise"};
  options.cpuOperators = false;
  const GeneratedModel model = generateRandomNetwork(options);
  BOOST_TEST(model.summary.operatorCounts.size() == 1U);
  BOOST_TEST(model.summary.operatorCounts.count("DEPTHWISE_CONV_2D") == 1U);
}

BOOST_AUTO_TEST_CASE(invalid_options_are_refused_with_a_reason) {
  RandomNetworkOptions options;
  options.kinds = {"no-such-kind"};
  BOOST_TEST(validate(options).value_or("").find("no-such-kind") != std::string::npos);
  options.kinds = {"depth-to-space"};
  options.cpuOperators = false;
  BOOST_TEST(validate(options).has_value());
  options = RandomNetworkOptions{};
  options.operators = 0;
  BOOST_TEST(validate(options).has_value());
  BOOST_CHECK_THROW((void)generateRandomNetwork(options), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(the_description_names_everything_needed_to_generate_it_again) {
  RandomNetworkOptions options = withSeed(9);
  options.type = ElementType::Int16;
  options.kinds = {"conv", "pad"};
  BOOST_TEST(describe(options) == "npu-model-gen random seed=9 operators=16 type=int16 inputs=2 resolution=48 "
                                  "channels=32 cpu=yes kinds=conv,pad");
}

BOOST_AUTO_TEST_SUITE_END()
