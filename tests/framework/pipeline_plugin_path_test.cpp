// SPDX-License-Identifier: Apache-2.0
// A pipeline file's plugin_path: loads code, so it is honoured only when the user allows it.
#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

namespace {

const std::filesystem::path kPluginDir{NPU_TEST_PLUGIN_DIR};

npu::PipelineSpec pipelineLoadingTestPlugins() {
  return npu::parsePipelineText("stages:\n  - frontend: test_frontend\nplugin_path: " + kPluginDir.string() + "\n",
                                "p.yaml");
}

} // namespace

BOOST_AUTO_TEST_SUITE(pipeline_plugin_path)

BOOST_AUTO_TEST_CASE(a_pipeline_plugin_path_is_refused_with_its_location_unless_allowed) {
  npu::PluginHost host;
  try {
    (void)npu::resolvePipeline(pipelineLoadingTestPlugins(), host, {});
    BOOST_FAIL("a pipeline's plugin_path must not load code by default");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.exitCode() == 2);
    BOOST_TEST(error.render().find("p.yaml:3:") != std::string::npos, error.render());
    BOOST_TEST(error.render().find("--allow-pipeline-plugins") != std::string::npos);
  }
  BOOST_TEST(host.plugins().empty());
  BOOST_TEST(host.refused().empty());
}

BOOST_AUTO_TEST_CASE(an_allowed_pipeline_plugin_path_loads_the_plugins_it_names) {
  npu::PluginHost host;
  host.allowPipelinePluginPaths(true);
  const auto resolved = npu::resolvePipeline(pipelineLoadingTestPlugins(), host, {});
  BOOST_REQUIRE(resolved.stage(npu::PluginKind::Frontend) != nullptr);
  BOOST_TEST(resolved.stage(npu::PluginKind::Frontend)->plugin == "test_frontend");
}

BOOST_AUTO_TEST_SUITE_END()
