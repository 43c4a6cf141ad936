// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the tests of tests/generated_networks share: the folder, the TSV cells, and compiling a network
// with a reference configuration and the overrides its row names.

#include "test_support.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace npu::test::generated {

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) {
    parts.push_back(part);
  }
  return parts;
}

inline std::filesystem::path folder() {
  return sourceDir() / "tests" / "generated_networks";
}

/// The bundled plugins, loaded once per use.
class Pipelines {
public:
  Pipelines() { host_.loadDirectory(buildDir() / "lib" / "npu-pipeline" / "plugins"); }

  /// Compiles networks/<network> with configs/reference/<pipeline>.yaml (e.g. "C1-cascade") and the overrides.
  Compilation compile(const std::string& network, const std::string& pipeline,
                      const std::vector<std::string>& overrides) {
    PipelineSpec spec = parsePipelineFile(sourceDir() / "configs" / "reference" / (pipeline + ".yaml"));
    for (const std::string& assignment : overrides) {
      applyOverride(spec, assignment);
    }
    const ResolvedPipeline resolved = resolvePipeline(spec, host_, defaultConfigSearchPath());
    SilentProgress progress;
    return compileModel(resolved, folder() / "networks" / network, progress);
  }

private:
  PluginHost host_;
};

} // namespace npu::test::generated
