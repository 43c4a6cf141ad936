// SPDX-License-Identifier: Apache-2.0
#include "ethosu/accelerator/accelerator.hpp"
#include "ethosu/blocks/block_config_selector.hpp"

#include <boost/test/unit_test.hpp>

namespace {

npu::Tensor featureMap(npu::Shape shape, npu::DataType type, bool constant = false) {
  npu::Tensor tensor;
  tensor.shape = std::move(shape);
  tensor.type = type;
  tensor.purpose = npu::TensorPurpose::FeatureMap;
  tensor.quantisation.scale = {0.5};
  tensor.quantisation.zeroPoint = {0};
  if (constant) {
    tensor.data = std::make_shared<const std::vector<std::uint8_t>>(
        static_cast<std::size_t>(std::max<std::int64_t>(tensor.byteSize(), 1)), std::uint8_t{1});
  }
  return tensor;
}

std::unique_ptr<ethosu::Accelerator> accelerator(const char* variant) {
  npu::AcceleratorConfig config;
  config.variant = variant;
  return ethosu::makeAccelerator(config);
}

/// An Add whose first input is a constant and whose second is a full feature map.
npu::Subgraph constantPlusFeatureMap(npu::DataType featureMapType) {
  npu::Subgraph subgraph;
  npu::Operation add;
  add.type = npu::OpType::Add;
  add.inputs = {subgraph.addTensor(featureMap({1, 1, 1, 16}, npu::DataType::Int8, true)),
                subgraph.addTensor(featureMap({1, 8, 8, 16}, featureMapType))};
  add.outputs = {subgraph.addTensor(featureMap({1, 8, 8, 16}, featureMapType))};
  subgraph.addOperation(add);
  return subgraph;
}

} // namespace

BOOST_AUTO_TEST_SUITE(block_config_selector)

BOOST_AUTO_TEST_CASE(a_constant_first_operand_makes_the_second_one_primary) {
  const auto subgraph = constantPlusFeatureMap(npu::DataType::Int16);
  BOOST_TEST(ethosu::primaryInputIsIfm2(subgraph, subgraph.operations.front()));
  const auto traits = ethosu::traitsOf(subgraph, subgraph.operations.front());
  BOOST_TEST((traits.ifmType == npu::DataType::Int16)); // the primary input's type decides the IFM bits
  BOOST_TEST((traits.ifm2Type == npu::DataType::Int8));
}

BOOST_AUTO_TEST_CASE(choose_answers_with_the_first_of_the_candidates_that_scores_best) {
  const auto npu = accelerator("ethos-u55-128");
  const auto subgraph = constantPlusFeatureMap(npu::DataType::Int8);
  const auto& op = subgraph.operations.front();
  const npu::OperationShapes shapes{{1, 8, 8, 16}, npu::Shape4{1, 1, 1, 16}, {1, 8, 8, 16}};
  const auto chosen = npu->blockConfigs().choose(subgraph, op, shapes);
  const auto candidates = npu->blockConfigs().candidates(subgraph, op, shapes);
  BOOST_REQUIRE(chosen.has_value());
  BOOST_TEST((std::find(candidates.begin(), candidates.end(), *chosen) != candidates.end()));
  BOOST_TEST((candidates == npu->blockConfigs().candidates(subgraph, op, shapes))); // deterministic order
}

BOOST_AUTO_TEST_CASE(a_query_asked_again_gets_the_answer_of_the_search_whatever_was_asked_between) {
  // choose remembers its answers: a repeated query, and one that differs only in the OFM, must still
  // get what the search itself finds for each.
  const auto npu = accelerator("ethos-u55-128");
  const auto subgraph = constantPlusFeatureMap(npu::DataType::Int8);
  const auto& op = subgraph.operations.front();
  const auto& architecture = dynamic_cast<const ethosu::Accelerator&>(*npu).architecture();
  for (int round = 0; round < 2; ++round) {
    for (const int height : {8, 2, 5}) {
      const npu::OperationShapes shapes{{1, height, 8, 16}, npu::Shape4{1, 1, 1, 16}, {1, height, 8, 16}};
      const auto searched =
          ethosu::findBlockConfig(architecture, ethosu::blockSearchQueryFor(ethosu::traitsOf(subgraph, op), shapes));
      const auto chosen = npu->blockConfigs().choose(subgraph, op, shapes);
      BOOST_REQUIRE(searched.has_value());
      BOOST_REQUIRE(chosen.has_value());
      BOOST_TEST((*chosen == ethosu::toBlockConfig(*searched)));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_required_ifm_area_has_the_ifm_depth) {
  const auto npu = accelerator("ethos-u65-256");
  npu::Subgraph subgraph;
  npu::Operation pool;
  pool.type = npu::OpType::MaxPool;
  pool.kernel = npu::Kernel{3, 3, 2, 2};
  pool.inputs = {subgraph.addTensor(featureMap({1, 33, 33, 24}, npu::DataType::Int8))};
  pool.outputs = {subgraph.addTensor(featureMap({1, 16, 16, 24}, npu::DataType::Int8))};
  subgraph.addOperation(pool);
  BOOST_TEST(npu->blockConfigs().requiredIfmArea(subgraph, subgraph.operations.front(), {1, 4, 16, 24}) ==
             npu::Shape4(1, 9, 33, 24));
}

BOOST_AUTO_TEST_SUITE_END()
