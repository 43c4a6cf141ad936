// SPDX-License-Identifier: Apache-2.0
#include "cli_common.hpp"
#include "commands.hpp"

#include "npu/conformance/accelerator_conformance.hpp"
#include "npu/pipeline/pipeline.hpp"
#include "npu/plugin/accelerator.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace npu::cli {

int conformanceCommand(const std::vector<std::string>& arguments) {
  CommonOptions common;
  std::vector<std::string> plugins;
  po::options_description options("conformance options");
  addCommonOptions(options, common);
  options.add_options()("plugin", po::value(&plugins)->composing(), "accelerator plugin id(s) to check");
  po::positional_options_description positional;
  positional.add("plugin", -1);
  parseArguments(arguments, options, positional);
  if (common.help) {
    printHelp("npu-pipeline conformance ACCELERATOR_PLUGIN... [--plugin-path DIR]",
              "Runs the accelerator conformance suite against every variant of the named accelerator plugins: "
              "the contract schedulers rely on (sane memories, support verdicts with reasons, block configs, "
              "weight encodings covering every channel, finite costs, determinism, thread safety). Exit code 1 "
              "when any check fails.",
              options);
    return 0;
  }
  if (plugins.empty()) {
    usageError("conformance", "name at least one accelerator plugin (see `npu-pipeline plugins`)");
  }
  PluginHost host = loadPlugins(common);
  bool allPassed = true;
  for (const auto& id : plugins) {
    const auto& plugin = host.require<AcceleratorPlugin>(PluginKind::Accelerator, id, {});
    for (const auto& report : checkAcceleratorPlugin(plugin, id, defaultConfigSearchPath())) {
      std::cout << report.render();
      allPassed = allPassed && report.passed();
    }
  }
  std::cout << (allPassed ? "conformance: passed\n" : "conformance: FAILED\n");
  return allPassed ? 0 : 1;
}

} // namespace npu::cli
