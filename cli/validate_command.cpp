// SPDX-License-Identifier: Apache-2.0
#include "cli_common.hpp"
#include "commands.hpp"

#include "npu/pipeline/pipeline.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace npu::cli {

int validateCommand(const std::vector<std::string>& arguments) {
  CommonOptions common;
  std::string pipelineFile;
  std::vector<std::string> overrides;
  po::options_description options("validate options");
  addCommonOptions(options, common);
  options.add_options()("pipeline", po::value(&pipelineFile), "pipeline YAML file")(
      "set", po::value(&overrides)->composing(), "override a setting: key=value (repeatable)");
  po::positional_options_description positional;
  positional.add("pipeline", 1);
  parseArguments(arguments, options, positional);
  if (common.help) {
    printHelp("npu-pipeline validate PIPELINE [--set key=value]...",
              "Checks a pipeline file strictly (keys, types, plugins, option values) and prints it fully "
              "resolved: plugin versions and every option value, defaults included.",
              options);
    return 0;
  }
  if (pipelineFile.empty()) {
    usageError("validate", "missing PIPELINE");
  }
  PipelineSpec spec = parsePipelineFile(pipelineFile);
  for (const auto& assignment : overrides) {
    applyOverride(spec, assignment);
  }
  PluginHost host = loadPlugins(common);
  const ResolvedPipeline resolved = resolvePipeline(spec, host, defaultConfigSearchPath());
  if (resolved.accelerator) {
    // Building the accelerator checks the variant, system config and memory mode too.
    (void)resolved.accelerator->implementation->create(resolved.accelerator->config);
  }
  std::cout << "# " << pipelineFile << ": valid\n" << resolved.toYaml();
  return 0;
}

} // namespace npu::cli
