// SPDX-License-Identifier: Apache-2.0
// The cost model and block config search against what Vela 3.10 reported for real layers (see
// reference_layers.hpp): convolutions (strided, dilated, large kernels), depthwise, fully connected,
// pooling, elementwise (int8, int16, int32, with a LUT), DMA, on U55-128, U65-256 and U55-64.
#include "reference_layers.hpp"

#include "ethosu/blocks/block_config.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>

namespace {

using ethosu::test::ReferenceLayer;

bool same(double ours, double vela) {
  return std::abs(ours - vela) <= 1e-9 * std::max(1.0, std::abs(vela));
}

/// The shapes Vela searched the block config for: the stripes of a cascaded layer, else the whole layer.
npu::OperationShapes shapesOf(const ReferenceLayer& layer) {
  if (layer.cascadeStripes) {
    return {layer.cascadeStripes->first, std::nullopt, layer.cascadeStripes->second};
  }
  return {layer.ifm.shape, layer.ifm2 ? std::optional(layer.ifm2->shape) : std::nullopt, layer.ofm.shape};
}

} // namespace

BOOST_AUTO_TEST_SUITE(reference_layers)

BOOST_AUTO_TEST_CASE(the_table_covers_every_kind_of_layer_on_three_systems) {
  const auto& layers = ethosu::test::referenceLayers();
  BOOST_TEST(layers.size() >= 30U);
  std::set<npu::OpType> types;
  std::set<std::string> systems;
  for (const auto& layer : layers) {
    types.insert(layer.type);
    systems.insert(layer.system.name);
  }
  BOOST_TEST(types.size() >= 12U);
  BOOST_TEST(systems.size() == 3U);
}

BOOST_AUTO_TEST_CASE(block_configs_equal_vela_s_choice) {
  int checked = 0;
  for (const auto& layer : ethosu::test::referenceLayers()) {
    if (layer.velaBlockConfig == std::array<int, 4>{}) {
      continue; // Vela's schedule was not recorded for this configuration
    }
    BOOST_TEST_CONTEXT(layer.source) {
      const auto graph = ethosu::test::buildLayer(layer);
      const auto& accelerator = ethosu::test::acceleratorFor(layer.system);
      const auto block = accelerator.blockConfigs().choose(graph.subgraph, graph.op(), shapesOf(layer));
      BOOST_REQUIRE(block.has_value());
      BOOST_TEST(ethosu::fromBlockConfig(*block).velaNotation() == layer.velaBlockConfig);
      ++checked;
    }
  }
  BOOST_TEST_MESSAGE("block configs equal Vela's for " << checked << " layers");
}

BOOST_AUTO_TEST_CASE(cycles_macs_and_memory_access_equal_vela_s_per_layer_report) {
  int equal = 0;
  const auto& layers = ethosu::test::referenceLayers();
  for (const auto& layer : layers) {
    BOOST_TEST_CONTEXT(layer.source) {
      const auto graph = ethosu::test::buildLayer(layer);
      const auto& accelerator = ethosu::test::acceleratorFor(layer.system);
      const auto block = accelerator.blockConfigs().choose(graph.subgraph, graph.op(), shapesOf(layer));
      BOOST_REQUIRE(block.has_value());
      const auto context = ethosu::test::contextOf(layer, accelerator, *block);
      const auto result = accelerator.costModel().estimate(graph.subgraph, graph.op(), context);
      using npu::CycleComponent;
      const auto& expected = layer.expected;
      const bool allEqual = same(result.cycle(CycleComponent::Total), expected.total) &&
                            same(result.cycle(CycleComponent::Npu), expected.npu) &&
                            same(result.cycle(CycleComponent::SramAccess), expected.sramAccess) &&
                            same(result.cycle(CycleComponent::DramAccess), expected.dramAccess) &&
                            same(result.cycle(CycleComponent::OnChipFlashAccess), expected.onChipFlashAccess) &&
                            same(result.cycle(CycleComponent::OffChipFlashAccess), expected.offChipFlashAccess) &&
                            result.macs == expected.macs;
      BOOST_TEST(result.cycle(CycleComponent::Total) == expected.total, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(result.cycle(CycleComponent::Npu) == expected.npu, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(result.cycle(CycleComponent::SramAccess) == expected.sramAccess, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(result.cycle(CycleComponent::DramAccess) == expected.dramAccess, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(result.cycle(CycleComponent::OffChipFlashAccess) == expected.offChipFlashAccess,
                 boost::test_tools::tolerance(1e-9));
      BOOST_TEST(result.macs == expected.macs);
      equal += allEqual ? 1 : 0;
    }
  }
  BOOST_TEST_MESSAGE("cycles, MACs and access cycles equal Vela's for " << equal << '/' << layers.size() << " layers");
}

BOOST_AUTO_TEST_CASE(macs_of_a_layer_do_not_depend_on_the_block_config) {
  const auto& layer = ethosu::test::referenceLayers().front();
  const auto graph = ethosu::test::buildLayer(layer);
  const auto& accelerator = ethosu::test::acceleratorFor(layer.system);
  const auto candidates = accelerator.blockConfigs().candidates(graph.subgraph, graph.op(), shapesOf(layer));
  BOOST_REQUIRE(!candidates.empty());
  for (const auto& block : candidates) {
    const auto query = ethosu::test::costQueryOf(layer, accelerator.memory(), block);
    BOOST_TEST(accelerator.costModel().cycles(graph.subgraph, graph.op(), query).macs == layer.expected.macs);
  }
}

BOOST_AUTO_TEST_SUITE_END()
