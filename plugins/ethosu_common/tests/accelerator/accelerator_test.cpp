// SPDX-License-Identifier: Apache-2.0
#include "ethosu/accelerator/accelerator.hpp"
#include "ethosu/accelerator/accelerator_plugin.hpp"
#include "ethosu/performance/cost_model.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

namespace {

npu::AcceleratorConfig configFor(std::string variant, std::string system = {}, std::string memoryMode = {}) {
  npu::AcceleratorConfig config;
  config.variant = std::move(variant);
  config.system = std::move(system);
  config.memoryMode = std::move(memoryMode);
  config.configSearchPath = {npu::test::sourceDir() / "configs" / "systems",
                             npu::test::sourceDir() / "configs" / "memory_modes"};
  config.location = {"pipeline.yaml", 4, 3, {}};
  return config;
}

bool configErrorAtTheSection(const std::function<void()>& action) {
  try {
    action();
  } catch (const npu::Error& error) {
    return error.kind() == npu::ErrorKind::Config && error.location().line == 4;
  }
  return false;
}

} // namespace

BOOST_AUTO_TEST_SUITE(accelerator)

BOOST_AUTO_TEST_CASE(a_u55_without_system_or_memory_mode_gets_vela_s_defaults) {
  const auto accelerator = ethosu::makeAccelerator(configFor("ethos-u55-128"));
  BOOST_TEST(accelerator->info().variant == "ethos-u55-128");
  BOOST_TEST(accelerator->info().displayName == "Ethos_U55_128");
  BOOST_TEST(accelerator->info().macsPerCycle == 128);
  BOOST_TEST(accelerator->memory().systemName == "Ethos_U55_High_End_Embedded");
  BOOST_TEST(accelerator->memory().memoryMode == "Shared_Sram");
}

BOOST_AUTO_TEST_CASE(a_u65_without_system_or_memory_mode_gets_vela_s_defaults) {
  const auto accelerator = ethosu::makeAccelerator(configFor("ethos-u65-512"));
  BOOST_TEST(accelerator->memory().systemName == "Ethos_U65_Client_Server");
  BOOST_TEST(accelerator->memory().memoryMode == "Dedicated_Sram");
  BOOST_TEST(accelerator->memory().arenaCacheSize == 393216);
  BOOST_TEST(accelerator->info().cores == 2);
}

BOOST_AUTO_TEST_CASE(without_config_folders_the_defaults_are_vela_s_built_in_ones) {
  npu::AcceleratorConfig config;
  config.variant = "ethos-u55-64";
  const auto accelerator = ethosu::makeAccelerator(config);
  BOOST_TEST(accelerator->memory().systemName == "internal-default");
  BOOST_TEST(accelerator->memory().area(npu::MemoryArea::OffChipFlash).bandwidthBytesPerCycle == 1.0);
}

BOOST_AUTO_TEST_CASE(named_configs_are_resolved_from_the_search_path) {
  const auto accelerator = ethosu::makeAccelerator(configFor("ethos-u65-256", "ethos_u65_high_end", "dedicated_sram"));
  BOOST_TEST(accelerator->memory().area(npu::MemoryArea::Dram).bandwidthBytesPerCycle == 3.75);
  BOOST_TEST((accelerator->memory().featureMapArea == npu::MemoryArea::Dram));
}

BOOST_AUTO_TEST_CASE(the_arena_cache_size_option_overrides_the_memory_mode) {
  auto config = configFor("ethos-u65-256", "ethos_u65_high_end", "dedicated_sram");
  config.options.set("arena_cache_size", std::int64_t{524288});
  BOOST_TEST(ethosu::makeAccelerator(config)->memory().arenaCacheSize == 524288);
}

BOOST_AUTO_TEST_CASE(the_cpu_tensor_alignment_option_sets_the_allocation_alignment) {
  auto config = configFor("ethos-u55-256");
  config.options.set("cpu_tensor_alignment", std::int64_t{64});
  BOOST_TEST(ethosu::makeAccelerator(config)->memory().allocationAlignment == 64);
  config.options.set("cpu_tensor_alignment", std::int64_t{24});
  BOOST_TEST(configErrorAtTheSection([&] { (void)ethosu::makeAccelerator(config); }));
}

BOOST_AUTO_TEST_CASE(bad_variants_and_configs_are_config_errors_at_the_accelerator_section) {
  BOOST_TEST(configErrorAtTheSection([] { (void)ethosu::makeAccelerator(configFor("ethos-u55-96")); }));
  BOOST_TEST(configErrorAtTheSection([] { (void)ethosu::makeAccelerator(configFor("ethos-u55-128", "nowhere")); }));
  BOOST_TEST(configErrorAtTheSection(
      [] { (void)ethosu::makeAccelerator(configFor("ethos-u65-256"), ethosu::NpuFamily::EthosU55); }));
  auto config = configFor("ethos-u55-128");
  config.options.set("cost_model", std::string("vela9"));
  BOOST_TEST(configErrorAtTheSection([&] { (void)ethosu::makeAccelerator(config); }));
}

BOOST_AUTO_TEST_CASE(the_plugin_offers_its_family_s_variants_and_the_options) {
  const ethosu::AcceleratorPlugin u55(ethosu::NpuFamily::EthosU55);
  BOOST_TEST(u55.variants() ==
             (std::vector<std::string>{"ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256"}));
  const ethosu::AcceleratorPlugin u65(ethosu::NpuFamily::EthosU65);
  BOOST_TEST(u65.variants() == (std::vector<std::string>{"ethos-u65-256", "ethos-u65-512"}));
  const auto options = u55.options();
  std::vector<std::string> names;
  for (const auto& option : options) {
    names.push_back(option.name);
  }
  for (const auto* expected : {"arena_cache_size", "cost_model", "cpu_tensor_alignment"}) {
    BOOST_TEST((std::find(names.begin(), names.end(), expected) != names.end()), expected);
  }
  const auto costModel = std::find_if(options.begin(), options.end(),
                                      [](const npu::OptionSpec& option) { return option.name == "cost_model"; });
  BOOST_TEST(costModel->defaultValue == "vela3");
  BOOST_TEST(u65.create(configFor("ethos-u65-256"))->info().variant == "ethos-u65-256");
}

BOOST_AUTO_TEST_CASE(every_registered_cost_model_can_be_selected) {
  for (const auto& name : ethosu::costModelNames()) {
    auto config = configFor("ethos-u55-128");
    config.options.set("cost_model", name);
    BOOST_TEST_CONTEXT(name) {
      BOOST_CHECK_NO_THROW((void)ethosu::makeAccelerator(config)->costModel());
    }
  }
  BOOST_TEST(ethosu::costModelNames().front() == "vela3");
}

BOOST_AUTO_TEST_CASE(a_cost_model_may_come_with_the_block_configs_of_its_scheduler) {
  npu::Subgraph subgraph;
  npu::Tensor ifm;
  ifm.shape = npu::Shape{1, 16, 16, 32};
  ifm.type = npu::DataType::Int8;
  npu::Tensor ofm = ifm;
  npu::Operation pool;
  pool.type = npu::OpType::MaxPool;
  pool.kernel = npu::Kernel{3, 3};
  pool.inputs = {subgraph.addTensor(ifm)};
  pool.outputs = {subgraph.addTensor(ofm)};
  subgraph.addOperation(pool);
  const npu::OperationShapes shapes{{1, 16, 16, 32}, std::nullopt, {1, 14, 14, 32}};

  const auto vela3 = ethosu::makeAccelerator(configFor("ethos-u55-128"));
  auto config = configFor("ethos-u55-128");
  config.options.set("cost_model", std::string("vela2"));
  const auto vela2 = ethosu::makeAccelerator(config);
  const auto& op = subgraph.operations.front();
  BOOST_TEST(
      (vela2->blockConfigs().choose(subgraph, op, shapes) == vela3->blockConfigs().choose(subgraph, op, shapes)));
  BOOST_TEST((vela2->blockConfigs().candidates(subgraph, op, shapes) !=
              vela3->blockConfigs().candidates(subgraph, op, shapes)));
}

BOOST_AUTO_TEST_SUITE_END()
