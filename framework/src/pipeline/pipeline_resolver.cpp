// SPDX-License-Identifier: Apache-2.0
#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace npu {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) {
    text += (text.empty() ? "" : ", ") + item;
  }
  return text;
}

/// Config roots near the pipeline file come first, so a pipeline in configs/reference/ finds the
/// systems/ and memory_modes/ folders of its own configs/ tree.
std::vector<std::filesystem::path> configRootsFor(const std::filesystem::path& pipelineFile,
                                                  const std::vector<std::filesystem::path>& defaults) {
  std::vector<std::filesystem::path> roots;
  auto directory = std::filesystem::absolute(pipelineFile).parent_path();
  for (int level = 0; level < 2 && !directory.empty(); ++level) {
    roots.push_back(directory);
    directory = directory.parent_path();
  }
  roots.insert(roots.end(), defaults.begin(), defaults.end());
  return roots;
}

void emitOptions(YAML::Emitter& out, const OptionValues& options) {
  for (const auto& [name, value] : options.all()) {
    out << YAML::Key << name << YAML::Value << renderOptionValue(value);
  }
}

} // namespace

const ResolvedStage* ResolvedPipeline::stage(PluginKind kind) const {
  const auto it = std::find_if(stages.begin(), stages.end(), [&](const ResolvedStage& s) { return s.kind == kind; });
  return it == stages.end() ? nullptr : &*it;
}

std::string ResolvedPipeline::toYaml() const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  if (!name.empty()) {
    out << YAML::Key << "name" << YAML::Value << name;
  }
  if (!description.empty()) {
    out << YAML::Key << "description" << YAML::Value << description;
  }
  if (accelerator) {
    out << YAML::Key << "accelerator" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "plugin" << YAML::Value << accelerator->plugin;
    out << YAML::Key << "plugin_version" << YAML::Value << accelerator->pluginVersion;
    out << YAML::Key << "config" << YAML::Value << accelerator->config.variant;
    out << YAML::Key << "system" << YAML::Value << accelerator->config.system;
    out << YAML::Key << "memory_mode" << YAML::Value << accelerator->config.memoryMode;
    emitOptions(out, accelerator->config.options);
    out << YAML::EndMap;
  }
  out << YAML::Key << "stages" << YAML::Value << YAML::BeginSeq;
  for (const auto& stage : stages) {
    out << YAML::BeginMap << YAML::Key << std::string(nameOf(stage.kind)) << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "plugin" << YAML::Value << stage.plugin;
    out << YAML::Key << "plugin_version" << YAML::Value << stage.pluginVersion;
    emitOptions(out, stage.options);
    out << YAML::EndMap << YAML::EndMap;
  }
  out << YAML::EndSeq;
  if (!fitSearch) { // written only when off, so that the default leaves recorded pipelines as they were
    out << YAML::Key << "fit_search" << YAML::Value << false;
  }
  out << YAML::Key << "report" << YAML::Value << YAML::BeginMap << YAML::Key << "formats" << YAML::Value << YAML::Flow
      << YAML::BeginSeq;
  for (auto format : report.formats) {
    out << std::string(nameOf(format));
  }
  out << YAML::EndSeq << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

PipelineRecord ResolvedPipeline::record() const {
  PipelineRecord record;
  record.name = name;
  record.description = description;
  if (accelerator) {
    record.acceleratorPlugin = accelerator->plugin;
    record.acceleratorPluginVersion = accelerator->pluginVersion;
    record.variant = accelerator->config.variant;
    record.system = accelerator->config.system;
    record.memoryMode = accelerator->config.memoryMode;
    record.acceleratorOptions = accelerator->config.options;
  }
  for (const auto& stage : stages) {
    record.stages.push_back({std::string(nameOf(stage.kind)), stage.plugin, stage.pluginVersion, stage.options});
  }
  for (auto format : report.formats) {
    record.reportFormats.emplace_back(nameOf(format));
  }
  return record;
}

ResolvedPipeline resolvePipeline(const PipelineSpec& spec, PluginHost& host,
                                 const std::vector<std::filesystem::path>& configSearchPath) {
  if (!spec.pluginPath.empty()) {
    // A pipeline file may come from anywhere; loading a library from it runs that library's code.
    if (!host.pipelinePluginPathsAllowed()) {
      throwConfigError("the pipeline names plugin directories (plugin_path: " + spec.pluginPath.front().string() +
                           "), and loading plugins named by a pipeline file is not allowed",
                       spec.pluginPathLocation,
                       "if you trust this pipeline, pass --allow-pipeline-plugins (or set "
                       "NPU_PIPELINE_ALLOW_PIPELINE_PLUGINS=1); or pass the directory with --plugin-path");
    }
    host.loadSearchPath(spec.pluginPath);
  }
  ResolvedPipeline resolved;
  resolved.file = spec.file;
  resolved.name = spec.name;
  resolved.description = spec.description;
  resolved.report = spec.report;
  resolved.fitSearch = spec.fitSearch;

  if (spec.accelerator) {
    const auto& given = *spec.accelerator;
    const auto& plugin =
        host.require<AcceleratorPlugin>(PluginKind::Accelerator, given.plugin, given.locationOf("plugin"));
    ResolvedAccelerator accelerator;
    accelerator.plugin = given.plugin;
    accelerator.pluginVersion = host.info(PluginKind::Accelerator, given.plugin)->version;
    accelerator.implementation = &plugin;
    const auto variants = plugin.variants();
    accelerator.config.variant = given.config.empty() && !variants.empty() ? variants.front() : given.config;
    if (std::find(variants.begin(), variants.end(), accelerator.config.variant) == variants.end()) {
      throwConfigError("accelerator plugin '" + given.plugin + "' has no config '" + given.config + "'",
                       given.locationOf("config"), "configs of " + given.plugin + ": " + joined(variants));
    }
    accelerator.config.system = given.system;
    accelerator.config.memoryMode = given.memoryMode;
    accelerator.config.options =
        resolveOptions(plugin.options(), given.options, "accelerator plugin '" + given.plugin + "'");
    accelerator.config.configSearchPath = configRootsFor(spec.file, configSearchPath);
    accelerator.config.location = given.location;
    accelerator.config.settingLocations = given.keyLocations;
    for (const auto& [name, option] : given.options) {
      accelerator.config.settingLocations[name] = option.second;
    }
    resolved.accelerator = std::move(accelerator);
  }

  for (const auto& stage : spec.stages) {
    const Plugin& plugin = host.require(stage.kind, stage.plugin, stage.location);
    ResolvedStage entry;
    entry.kind = stage.kind;
    entry.plugin = stage.plugin;
    entry.pluginVersion = host.info(stage.kind, stage.plugin)->version;
    entry.implementation = &plugin;
    entry.options = resolveOptions(plugin.options(), stage.options,
                                   std::string(nameOf(stage.kind)) + " plugin '" + stage.plugin + "'");
    resolved.stages.push_back(std::move(entry));
  }
  return resolved;
}

std::vector<std::filesystem::path> defaultConfigSearchPath() {
  std::vector<std::filesystem::path> path;
  // NPU_PIPELINE_CONFIG_PATH (colon-separated) first: for programs that are not the installed binary
  // (the Python module runs inside python3) and for users' own config trees.
  if (const char* env = std::getenv("NPU_PIPELINE_CONFIG_PATH"); env != nullptr) {
    std::string_view remaining(env);
    while (!remaining.empty()) {
      const auto colon = remaining.find(':');
      if (const auto entry = remaining.substr(0, colon); !entry.empty()) {
        path.emplace_back(entry);
      }
      remaining = colon == std::string_view::npos ? std::string_view{} : remaining.substr(colon + 1);
    }
  }
  std::error_code error;
  const auto program = boost::dll::program_location(error);
  if (!error) {
    path.push_back(program.parent_path().parent_path() / NPU_DATA_INSTALL_DIR / "configs");
  }
  path.push_back(std::filesystem::path(NPU_INSTALL_PREFIX) / NPU_DATA_INSTALL_DIR / "configs");
  return path;
}

} // namespace npu
