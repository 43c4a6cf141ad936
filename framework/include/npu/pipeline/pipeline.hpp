// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/core/diagnostics.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/plugin.hpp"
#include "npu/report/report.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npu {

class PluginHost;

/// Option texts as written in YAML (or --set), each with where it was written (the option's key).
using OptionTexts = std::map<std::string, std::pair<std::string, SourceLocation>>;

struct StageSpec {
  PluginKind kind = PluginKind::Frontend;
  std::string plugin;
  OptionTexts options;
  SourceLocation location;
};

struct AcceleratorSpec {
  std::string plugin;
  std::string config;      ///< accelerator variant, e.g. "ethos-u55-128"
  std::string system;      ///< system config name or file
  std::string memoryMode;  ///< memory mode name or file
  OptionTexts options;     ///< every other key: the plugin's own options
  SourceLocation location; ///< of the section
  /// Where plugin, config, system and memory_mode were written (in the file or by --set).
  std::map<std::string, SourceLocation, std::less<>> keyLocations;
  /// Where `key` was written, or the section when it was not.
  [[nodiscard]] SourceLocation locationOf(std::string_view key) const {
    const auto found = keyLocations.find(key);
    return found == keyLocations.end() ? location : found->second;
  }
};

enum class ReportFormat : std::uint8_t { Text, Csv, Json, Html };
[[nodiscard]] std::string_view nameOf(ReportFormat format);

struct ReportSpec {
  std::vector<ReportFormat> formats{ReportFormat::Text, ReportFormat::Csv, ReportFormat::Json};
};

/// A pipeline file as written: validated for structure (known keys, right types), not yet resolved
/// against plugins.
struct PipelineSpec {
  std::filesystem::path file;
  std::string name;
  std::string description;
  std::vector<std::filesystem::path> pluginPath; ///< extra plugin directories (relative to the file)
  SourceLocation pluginPathLocation;             ///< where `plugin_path:` is written
  std::optional<AcceleratorSpec> accelerator;
  std::vector<StageSpec> stages; ///< in pipeline order: frontend, lowering, scheduler, allocator, codegen
  ReportSpec report;
  /// When the network does not fit the fast-storage limit, search for the smallest limit that does
  /// (`fit_search:`, default true).
  bool fitSearch = true;

  [[nodiscard]] const StageSpec* stage(PluginKind kind) const;
  [[nodiscard]] StageSpec* stage(PluginKind kind);
};

/// Parses and structurally validates a pipeline file. Errors are Config errors naming
/// file:line:column and what is wrong.
[[nodiscard]] NPU_API PipelineSpec parsePipelineFile(const std::filesystem::path& file);
[[nodiscard]] NPU_API PipelineSpec parsePipelineText(const std::string& text, const std::filesystem::path& file);

/// Applies one `--set key=value` override: `name=...`, `accelerator.<key>=...` (plugin, config, system,
/// memory_mode or a plugin option), `<stage kind>.<option>=...` or `<stage kind>.plugin=...`,
/// `report.formats=text,csv`, `fit_search=false`.
NPU_API void applyOverride(PipelineSpec& spec, const std::string& assignment);

struct ResolvedStage {
  PluginKind kind = PluginKind::Frontend;
  std::string plugin;
  std::string pluginVersion;
  const Plugin* implementation = nullptr;
  OptionValues options; ///< every declared option, defaults filled in
};

struct ResolvedAccelerator {
  std::string plugin;
  std::string pluginVersion;
  const AcceleratorPlugin* implementation = nullptr;
  AcceleratorConfig config;
};

/// A pipeline with every plugin found and every option value known: what actually runs, printable
/// and recorded in every output.
struct ResolvedPipeline {
  std::filesystem::path file;
  std::string name;
  std::string description;
  std::optional<ResolvedAccelerator> accelerator;
  std::vector<ResolvedStage> stages;
  ReportSpec report;
  bool fitSearch = true; ///< see PipelineSpec::fitSearch

  [[nodiscard]] const ResolvedStage* stage(PluginKind kind) const;
  /// The pipeline as YAML with plugin versions and every option value (re-runnable as a pipeline).
  [[nodiscard]] std::string toYaml() const;
  /// The same as data, for reports.
  [[nodiscard]] PipelineRecord record() const;
};

/// Resolves plugins (loading the spec's plugin directories into the host first) and options.
/// `configSearchPath` lists the `configs` roots for named system configs and memory modes.
[[nodiscard]] NPU_API ResolvedPipeline resolvePipeline(const PipelineSpec& spec, PluginHost& host,
                                                       const std::vector<std::filesystem::path>& configSearchPath);

/// Where the bundled configs are: beside the binary (<bin>/../share/npu-pipeline/configs) and the
/// install prefix.
[[nodiscard]] NPU_API std::vector<std::filesystem::path> defaultConfigSearchPath();

} // namespace npu
