// SPDX-License-Identifier: Apache-2.0
// npu-pipeline: the command-line driver. Exit codes: 0 success, 1 compile error (bad model, does not
// fit, internal error), 2 usage or configuration error.
#include "commands.hpp"
#include "npu/core/diagnostics.hpp"

#include <malloc.h>

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

/// A compile allocates and frees buffers of megabytes many times over (the weight codec's scratch, encoded
/// streams, the output model). glibc maps each one above 128 KiB afresh and gives back the top of its heap
/// as soon as 128 KiB are free, so such buffers paid a page fault per 4 KiB again and again: 10,500 faults
/// for MobileNet-v2. Kept in the heap up to these sizes, freed memory is reused: 7,400 faults, 6% less CPU
/// time. Peak memory does not grow (the 10,001-layer network's stays at 569 MB; larger thresholds cost it
/// 22 MB): what is kept was in use before. malloc_trim still gives pages back where the code asks.
void configureAllocator() {
#if defined(__GLIBC__)
  constexpr int kMapAbove = 16 << 20;
  constexpr int kTrimAbove = 64 << 20;
  ::mallopt(M_MMAP_THRESHOLD, kMapAbove);
  ::mallopt(M_TRIM_THRESHOLD, kTrimAbove);
#endif
}

} // namespace

int main(int argc, char** argv) {
  configureAllocator();
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
