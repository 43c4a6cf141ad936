// SPDX-License-Identifier: Apache-2.0
// The plugin as the host sees it: loaded from the build tree, it reads models and reports bad ones as
// Model errors across the library boundary.
#include "npu/host/plugin_host.hpp"
#include "npu/plugin/frontend.hpp"
#include "test_models.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

namespace {

using namespace npu::tflite_frontend::test;

const npu::FrontendPlugin& loadedFrontend(npu::PluginHost& host) {
  const auto library = npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins" / "npu_frontend_tflite.so";
  BOOST_TEST_REQUIRE(host.loadFile(library),
                     "the plugin was refused: " << (host.refused().empty() ? "" : host.refused().front().reason));
  return host.require<npu::FrontendPlugin>(npu::PluginKind::Frontend, "frontend_tflite", {});
}

void writeBytes(const std::filesystem::path& file, const Bytes& bytes) {
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

} // namespace

BOOST_AUTO_TEST_SUITE(frontend_plugin)

BOOST_AUTO_TEST_CASE(the_plugin_loads_and_describes_itself_as_the_tflite_frontend) {
  npu::PluginHost host;
  const npu::FrontendPlugin& frontend = loadedFrontend(host);
  BOOST_TEST((frontend.fileExtensions() == std::vector<std::string>{".tflite"}));
  const npu::LoadedPluginInfo* info = host.info(npu::PluginKind::Frontend, "frontend_tflite");
  BOOST_TEST_REQUIRE(info != nullptr);
  BOOST_TEST(!info->summary.empty());
}

BOOST_AUTO_TEST_CASE(the_plugin_reads_a_model_file) {
  npu::PluginHost host;
  const npu::FrontendPlugin& frontend = loadedFrontend(host);
  const npu::test::TemporaryDirectory directory;
  writeBytes(directory.path() / "net.tflite", smallGeneratedModel());
  const npu::Graph graph = frontend.read(directory.path() / "net.tflite", {});
  BOOST_TEST(graph.name == "net");
  BOOST_TEST(graph.subgraphs.at(0).operations.size() == read(smallGeneratedModel()).subgraphs[0].operations.size());
}

BOOST_AUTO_TEST_CASE(a_damaged_file_is_a_model_error_caught_across_the_plugin_boundary) {
  npu::PluginHost host;
  const npu::FrontendPlugin& frontend = loadedFrontend(host);
  const npu::test::TemporaryDirectory directory;
  const Bytes& model = smallGeneratedModel();
  writeBytes(directory.path() / "cut.tflite", Bytes(model.begin(), model.begin() + 100));
  try {
    (void)frontend.read(directory.path() / "cut.tflite", {});
    BOOST_FAIL("a truncated model was read");
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Model));
    BOOST_TEST(error.exitCode() == 1);
  }
}

BOOST_AUTO_TEST_SUITE_END()
