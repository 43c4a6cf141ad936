// SPDX-License-Identifier: Apache-2.0
// The perf_u55 and perf_u65 libraries load into the plugin host and build accelerators.
#include "npu/host/plugin_host.hpp"
#include "npu/plugin/accelerator.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

namespace {

std::filesystem::path pluginDirectory() {
  return npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins";
}

npu::AcceleratorConfig configFor(std::string variant) {
  npu::AcceleratorConfig config;
  config.variant = std::move(variant);
  config.configSearchPath = {npu::test::sourceDir() / "configs"};
  return config;
}

} // namespace

BOOST_AUTO_TEST_SUITE(accelerator_plugins)

BOOST_AUTO_TEST_CASE(perf_u55_and_perf_u65_load_as_accelerator_plugins) {
  npu::PluginHost host;
  for (const auto* name : {"npu_perf_u55.so", "npu_perf_u65.so"}) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(host.loadFile(pluginDirectory() / name));
    }
  }
  for (const auto& refused : host.refused()) {
    BOOST_TEST_MESSAGE(refused.path.string() << ": " << refused.reason);
  }
  const auto& u55 = host.require<npu::AcceleratorPlugin>(npu::PluginKind::Accelerator, "perf_u55", {});
  const auto& u65 = host.require<npu::AcceleratorPlugin>(npu::PluginKind::Accelerator, "perf_u65", {});
  BOOST_TEST(u55.variants().size() == 4U);
  BOOST_TEST(u65.variants().size() == 2U);
  const auto accelerator = u65.create(configFor("ethos-u65-512"));
  BOOST_TEST(accelerator->info().cores == 2);
  BOOST_TEST(accelerator->memory().systemName == "Ethos_U65_Client_Server");
  BOOST_CHECK_THROW((void)u55.create(configFor("ethos-u65-256")), npu::Error);
}

BOOST_AUTO_TEST_SUITE_END()
