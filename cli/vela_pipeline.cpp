// SPDX-License-Identifier: Apache-2.0
// From Vela's options to a pipeline: the same stages a configs/reference/C*-cascade.yaml names, so
// `npu-pipeline vela` and `npu-pipeline run` give the same results for the same settings.
#include "vela_options.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/plugin/accelerator.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

namespace npu::cli {

namespace {

namespace fs = std::filesystem;

const SourceLocation kCommandLine{"command line", 0, 0, {}};

/// Vela's built-in configuration file, which npu-pipeline bundles as configs/systems and
/// configs/memory_modes (vela.py: a two-part relative path names a file under its config_files folder).
constexpr std::string_view kBundledVelaIni = "Arm/vela.ini";

[[noreturn]] void optionError(const std::string& option, const std::string& value, const std::string& message,
                              const std::string& hint) {
  throw Error(ErrorKind::Config, "vela: " + option + " " + value + ": " + message, {}, hint);
}

/// "Ethos_U55_High_End_Embedded" -> "ethos_u55_high_end_embedded": the file name of a bundled config.
std::string bundledStem(const std::string& name) {
  std::string stem = name;
  std::transform(stem.begin(), stem.end(), stem.begin(), [](unsigned char c) {
    return c == '-' || c == ' ' || c == '.' ? '_' : static_cast<char>(std::tolower(c));
  });
  return stem;
}

/// Whether an .ini file has a section [`section`] (ConfigParser section names are case-sensitive).
bool iniHasSection(const fs::path& file, const std::string& section) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(" \t");
    const auto last = line.find_last_not_of(" \t\r");
    if (first != std::string::npos && line[first] == '[' && line[last] == ']' &&
        line.substr(first + 1, last - first - 1) == section) {
      return true;
    }
  }
  return false;
}

/// A --config argument as Vela reads it: the bundled Arm/vela.ini, or a readable .ini file.
struct ConfigFile {
  bool bundled = false;
  fs::path path;
};

std::vector<ConfigFile> readConfigArguments(const std::vector<std::string>& arguments) {
  std::vector<ConfigFile> files;
  for (const auto& argument : arguments) {
    const fs::path path = fs::path(argument).lexically_normal();
    if (path.extension() != ".ini") {
      optionError("--config", argument, "Configuration files must use the .ini extension", "name a Vela .ini file");
    }
    if (path.generic_string() == kBundledVelaIni || path.generic_string().ends_with("config_files/Arm/vela.ini")) {
      files.push_back({true, {}});
      continue;
    }
    if (!fs::exists(path)) {
      optionError("--config", argument, "File not found or is not readable",
                  "give the file's path; of Vela's config_files folder only Arm/vela.ini is bundled");
    }
    files.push_back({false, fs::absolute(path)});
  }
  return files;
}

/// What the accelerator section names for a --system-config or --memory-mode: the section of the last
/// --config file that has it (ConfigParser reads the files in order, later ones win), Vela's built-in
/// "internal-default" when no file has it.
std::string configReference(const std::vector<ConfigFile>& files, const std::string& option, const std::string& kind,
                            const std::string& folder, const std::string& name) {
  const std::string section = kind + "." + name;
  for (auto file = files.rbegin(); file != files.rend(); ++file) {
    if (file->bundled) {
      if (fs::exists(bundledConfigRoot() / folder / (bundledStem(name) + ".yaml"))) {
        return name;
      }
    } else if (iniHasSection(file->path, section)) {
      return file->path.string() + ":" + name;
    }
  }
  if (name == "internal-default") {
    return name;
  }
  if (files.empty()) {
    optionError(option, name, "Vela config file not specified", "add --config Arm/vela.ini (bundled) or your .ini");
  }
  optionError(option, name, "Section " + section + " not found in Vela config file",
              "run `npu-pipeline vela --list-config-files` for the bundled sections");
}

/// The accelerator plugin that models `variant`.
std::string acceleratorPluginFor(const PluginHost& host, const std::string& variant) {
  std::string known;
  for (const auto& info : host.plugins()) {
    if (info.kind != PluginKind::Accelerator) {
      continue;
    }
    const auto& plugin = host.require<AcceleratorPlugin>(PluginKind::Accelerator, info.id, {});
    for (const auto& candidate : plugin.variants()) {
      if (candidate == variant) {
        return info.id;
      }
      known += (known.empty() ? "" : ", ") + candidate;
    }
  }
  throw Error(ErrorKind::Usage, "vela: argument --accelerator-config: invalid choice: '" + variant + "'", {},
              known.empty() ? "no accelerator plugins were found; run `npu-pipeline plugins`" : "choose from " + known);
}

StageSpec stage(PluginKind kind, std::string plugin, OptionTexts options = {}) {
  return {kind, std::move(plugin), std::move(options), kCommandLine};
}

std::string allocatorPlugin(const std::string& velaName) {
  if (velaName == "LinearAlloc") {
    return "allocator_linear";
  }
  return velaName == "Greedy" ? "allocator_greedy" : "allocator_hillclimb";
}

} // namespace

PipelineSpec velaPipelineSpec(const VelaOptions& options, const PluginHost& host) {
  const std::vector<ConfigFile> files = readConfigArguments(options.configFiles);
  PipelineSpec spec;
  // Named configs are found beside this (virtual) file first: in the bundled configs.
  spec.file = bundledConfigRoot() / "vela-command-line";
  spec.name = "vela " + options.acceleratorConfig + " " + options.systemConfig + " " + options.memoryMode + " " +
              options.optimise;
  AcceleratorSpec accelerator;
  accelerator.plugin = acceleratorPluginFor(host, options.acceleratorConfig);
  accelerator.config = options.acceleratorConfig;
  accelerator.system = configReference(files, "--system-config", "System_Config", "systems", options.systemConfig);
  accelerator.memoryMode = configReference(files, "--memory-mode", "Memory_Mode", "memory_modes", options.memoryMode);
  if (options.arenaCacheSize) {
    accelerator.options["arena_cache_size"] = {std::to_string(*options.arenaCacheSize), kCommandLine};
  }
  if (options.cpuTensorAlignment) {
    accelerator.options["cpu_tensor_alignment"] = {std::to_string(*options.cpuTensorAlignment), kCommandLine};
  }
  if (options.forceSymmetricIntWeights) {
    accelerator.options["force_symmetric_int_weights"] = {"true", kCommandLine};
  }
  accelerator.location = kCommandLine;
  spec.accelerator = std::move(accelerator);

  spec.stages.push_back(stage(PluginKind::Frontend, "frontend_tflite"));
  spec.stages.push_back(stage(PluginKind::Lowering, "ethosu_lowering"));
  spec.stages.push_back(stage(PluginKind::Scheduler, "scheduler_cascade",
                              {{"optimise", {options.optimise == "Size" ? "size" : "performance", kCommandLine}}}));
  OptionTexts allocatorOptions;
  if (options.tensorAllocator == "HillClimb" && options.hillclimbMaxIterations) {
    allocatorOptions["max_iterations"] = {std::to_string(*options.hillclimbMaxIterations), kCommandLine};
  }
  spec.stages.push_back(stage(PluginKind::Allocator, allocatorPlugin(options.tensorAllocator), allocatorOptions));
  spec.stages.push_back(stage(PluginKind::Codegen, "codegen_ethosu",
                              {{"max_block_dependency", {std::to_string(options.maxBlockDependency), kCommandLine}}}));
  spec.report.formats = {ReportFormat::Csv};
  if (options.json) {
    spec.report.formats.push_back(ReportFormat::Json);
  }
  return spec;
}

} // namespace npu::cli
