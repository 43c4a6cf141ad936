// SPDX-License-Identifier: Apache-2.0
#pragma once

// `npu-pipeline vela`: Vela 3.10's command line, read as Vela reads it and turned into a pipeline.
// docs/vela-compatibility.md maps every option.

#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace npu::cli {

/// Vela 3.10's options (vela.py, main) with Vela's defaults, plus the few of npu-pipeline's own.
struct VelaOptions {
  std::string network;
  std::string outputDir = "output";
  std::vector<std::string> configFiles;
  std::string acceleratorConfig = "ethos-u55-256";
  std::string systemConfig = "internal-default";
  std::string memoryMode = "internal-default";
  std::string optimise = "Performance";
  std::string tensorAllocator = "HillClimb";
  std::optional<std::int64_t> arenaCacheSize;
  std::optional<std::int64_t> cpuTensorAlignment;
  std::int64_t recursionLimit = 1000; ///< accepted for compatibility: nothing here recurses on the graph
  int maxBlockDependency = 3;
  std::optional<std::int64_t> hillclimbMaxIterations;
  bool forceSymmetricIntWeights = false;

  bool verboseConfig = false;
  bool verboseSchedule = false;
  bool verboseAllocation = false;
  bool verbosePerformance = false;
  bool verboseWeights = false;
  bool verboseProgress = false;
  bool verboseRegisterCommandStream = false;
  bool showCpuOperations = false;
  bool timing = false;

  bool supportedOpsReport = false;
  bool listConfigFiles = false;
  bool version = false;
  bool help = false;

  // npu-pipeline's own
  bool json = false;          ///< also write <network>.json (and SUPPORTED_OPS.json)
  bool printPipeline = false; ///< print the equivalent pipeline YAML
  std::vector<std::string> pluginPaths;
  int threads = 0;
};

/// Reads Vela's arguments: `--option value` and `--option=value`, unambiguous prefixes of option names
/// (as Python's argparse allows), Vela's choices and checks. Options Vela has and npu-pipeline does not
/// support are Usage errors naming the option.
[[nodiscard]] VelaOptions parseVelaArguments(const std::vector<std::string>& arguments);

/// The help text: Vela's options, each with what it maps to.
[[nodiscard]] std::string velaHelpText();

/// The pipeline Vela would run for these options: the accelerator plugin whose variants include
/// --accelerator-config, the system config and memory mode looked up in the --config files as Vela's
/// ConfigParser does, cascade scheduler, the allocator, code generation. Config errors name the option.
[[nodiscard]] PipelineSpec velaPipelineSpec(const VelaOptions& options, const PluginHost& host);

/// Where Vela's built-in "Arm/vela.ini" is bundled as YAML (configs/systems and configs/memory_modes).
[[nodiscard]] std::filesystem::path bundledConfigRoot();

} // namespace npu::cli
