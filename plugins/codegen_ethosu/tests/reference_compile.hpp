// SPDX-License-Identifier: Apache-2.0
#pragma once

// For tests that compile a whole model with a reference pipeline from the build tree and look at the
// command streams it wrote (header-only: every test area is its own executable).
#include "frontend_tflite/model_reader.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "test_support.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace ethosu::codegen::test {

/// Compiles with configs/reference/<name>.yaml and the build tree's plugins. A compilation holds objects
/// of the plugins: keep it no longer than the compiler that made it.
class ReferenceCompiler {
public:
  explicit ReferenceCompiler(const std::string& name = "C1-cascade") {
    host_.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
    const npu::PipelineSpec spec =
        npu::parsePipelineFile(npu::test::sourceDir() / "configs" / "reference" / (name + ".yaml"));
    pipeline_.emplace(npu::resolvePipeline(spec, host_, npu::defaultConfigSearchPath()));
  }

  [[nodiscard]] npu::Compilation compile(const std::filesystem::path& model) const {
    npu::SilentProgress progress;
    return npu::compileModel(*pipeline_, model, progress);
  }

  /// Compiles a model built in memory (written to a temporary file first).
  [[nodiscard]] npu::Compilation compile(const std::vector<std::uint8_t>& bytes) const {
    npu::test::TemporaryDirectory directory;
    const auto file = directory.path() / "model.tflite";
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return compile(file);
  }

private:
  npu::PluginHost host_;
  std::optional<npu::ResolvedPipeline> pipeline_;
};

/// The command-stream payloads of the written model's ethos-u operators (first subgraph), in order.
[[nodiscard]] inline std::vector<std::vector<std::uint8_t>> ethosuPayloads(const npu::Compilation& compilation) {
  std::vector<std::vector<std::uint8_t>> payloads;
  if (!compilation.output) {
    return payloads;
  }
  const npu::Graph written = npu::tflite_frontend::readModel(compilation.output->bytes.joined(), "written.tflite");
  for (const npu::Operation& op : written.subgraphs.at(0).operations) {
    if (op.attributes.get<std::string>("custom_code") == std::optional<std::string>("ethos-u")) {
      const auto bytes = written.subgraphs.at(0).tensor(op.inputs.at(0)).bytes();
      payloads.emplace_back(bytes.begin(), bytes.end());
    }
  }
  return payloads;
}

} // namespace ethosu::codegen::test
