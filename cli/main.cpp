// SPDX-License-Identifier: Apache-2.0
// npu-pipeline: the command-line driver. Exit codes: 0 success, 1 compile error (bad model, does not
// fit, internal error), 2 usage or configuration error.
#include "commands.hpp"
#include "npu/core/diagnostics.hpp"

#include <functional>
#include <iostream>
#include <map>

namespace {

constexpr const char* kUsage = R"(usage: npu-pipeline <command> [options]

Compiles TFLite models for microcontroller-class NPUs through a pipeline of plugins.

commands:
  run PIPELINE MODEL [-o DIR]        compile a model and report cycles, time, MACs, bandwidth, SRAM
  compare PIPELINE_A PIPELINE_B MODEL...
                                     compile with two pipelines and compare the results side by side
  inspect MODEL [--pipeline P]       list the operators of a model (NPU/CPU placement with --pipeline)
  validate PIPELINE                  check a pipeline file and print it fully resolved
  plugins                            list the plugins found and why any were refused
  conformance ACCELERATOR...         check accelerator plugins against the contract schedulers rely on
  sweep SWEEP [-o DIR]               compile many networks x many configurations (resumable, sharded,
                                     Slurm job arrays): one table, JSON and HTML with the Pareto front
  vela NETWORK [Vela options]        compile as Vela 3.10 does, with Vela's options and output files

options:
  -h, --help                         help (also after a command)
  --version                          print the version

exit codes: 0 success, 1 compile error, 2 usage or configuration error
)";

int dispatch(int argc, char** argv) {
  const std::map<std::string, std::function<int(const std::vector<std::string>&)>> commands{
      {"run", npu::cli::runCommand},         {"compare", npu::cli::compareCommand},
      {"inspect", npu::cli::inspectCommand}, {"validate", npu::cli::validateCommand},
      {"plugins", npu::cli::pluginsCommand}, {"conformance", npu::cli::conformanceCommand},
      {"sweep", npu::cli::sweepCommand},     {"vela", npu::cli::velaCommand},
  };
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "npu-pipeline " << NPU_PIPELINE_VERSION << "\n";
    return 0;
  }
  const auto it = commands.find(command);
  if (it == commands.end()) {
    throw npu::Error(npu::ErrorKind::Usage, "unknown command '" + command + "'", {},
                     "commands: run, compare, inspect, validate, plugins, conformance, sweep, vela (see --help)");
  }
  return it->second(std::vector<std::string>(argv + 2, argv + argc));
}

} // namespace

int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const npu::Error& error) {
    std::cerr << "npu-pipeline: " << error.render() << "\n";
    return error.exitCode();
  } catch (const std::exception& error) {
    std::cerr << "npu-pipeline: internal error: " << error.what()
              << "\n  hint: this is a bug in npu-pipeline or one of its plugins; please report it\n";
    return 1;
  }
}
