// SPDX-License-Identifier: Apache-2.0
// A minimal, correct plugin used by the plugin-host tests.
#include "npu/plugin/frontend.hpp"

namespace {
class TestFrontend final : public npu::FrontendPlugin {
public:
  std::vector<std::string> fileExtensions() const override { return {".test"}; }
  npu::Graph read(const std::filesystem::path& file, const npu::OptionValues&) const override {
    npu::Graph graph;
    graph.name = file.stem().string();
    graph.subgraphs.push_back(npu::Subgraph{"main", {}, {}, {}, {}});
    return graph;
  }
  std::vector<npu::OptionSpec> options() const override {
    return {{"flavour", npu::OptionType::Choice, "plain", "test option", {"plain", "spicy"}, false}};
  }
};
} // namespace

#ifndef TEST_PLUGIN_ID
#define TEST_PLUGIN_ID "test_frontend"
#endif

NPU_PIPELINE_PLUGIN(TEST_PLUGIN_ID, npu::PluginKind::Frontend, "1.0.0", "plugin-host test frontend", TestFrontend)
