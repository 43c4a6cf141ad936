// SPDX-License-Identifier: Apache-2.0
#include "npu/pipeline/pipeline.hpp"

#include "npu/core/input_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>
#include <variant>

namespace npu {

std::string_view nameOf(ReportFormat format) {
  static constexpr std::array<std::string_view, 4> kNames{"text", "csv", "json", "html"};
  return kNames.at(static_cast<std::size_t>(format));
}

namespace {

/// `fit_search: true|false`, parsed as a boolean plugin option is.
bool readFitSearch(std::string_view text, const SourceLocation& where) {
  const OptionSpec spec{"fit_search", OptionType::Boolean, "true", "", {}, false};
  return std::get<bool>(parseOptionValue(spec, text, where));
}

std::optional<ReportFormat> reportFormatFromName(std::string_view name) {
  for (auto format : {ReportFormat::Text, ReportFormat::Csv, ReportFormat::Json, ReportFormat::Html}) {
    if (nameOf(format) == name) {
      return format;
    }
  }
  return std::nullopt;
}

/// Reads one YAML document, turning every structural problem into a located Config error.
class PipelineReader {
public:
  explicit PipelineReader(std::filesystem::path file) : file_(std::move(file)) {}

  PipelineSpec read(const std::string& text) {
    std::vector<YAML::Node> documents;
    try {
      documents = YAML::LoadAll(text);
    } catch (const YAML::ParserException& error) {
      throwConfigError("invalid YAML: " + error.msg, at(error.mark));
    }
    PipelineSpec spec;
    spec.file = file_;
    if (documents.empty() || !documents.front().IsDefined() || documents.front().IsNull()) {
      throwConfigError("the pipeline file is empty", SourceLocation{file_.string(), 1, 1, {}},
                       "a pipeline needs at least `stages:`; see configs/reference/*.yaml");
    }
    if (documents.size() > 1) {
      throwConfigError("the pipeline file holds more than one YAML document", at(documents[1].Mark()),
                       "a pipeline file is one document; remove the `---` line and what follows, or split the file");
    }
    const YAML::Node& root = documents.front();
    requireMap(root, "the pipeline");
    for (const auto& [key, keyLocation, value] : entries(root, "the pipeline")) {
      if (key == "name") {
        spec.name = scalar(value, "name");
      } else if (key == "description") {
        spec.description = scalar(value, "description");
      } else if (key == "plugin_path") {
        spec.pluginPathLocation = at(value.Mark());
        readPluginPath(value, spec);
      } else if (key == "accelerator") {
        spec.accelerator = readAccelerator(value);
      } else if (key == "stages") {
        readStages(value, spec);
      } else if (key == "report") {
        readReport(value, spec);
      } else if (key == "fit_search") {
        spec.fitSearch = readFitSearch(scalar(value, "fit_search"), at(value.Mark()));
      } else {
        throwConfigError("unknown key '" + key + "'", keyLocation,
                         "top-level keys: name, description, plugin_path, accelerator, stages, report, fit_search");
      }
    }
    if (spec.stages.empty()) {
      throwConfigError("the pipeline has no stages", SourceLocation{file_.string(), 1, 1, {}},
                       "add `stages:` with at least `- frontend: frontend_tflite`");
    }
    // Every command that compiles reads the model with the frontend stage: without one, `validate`
    // would pass a pipeline that `run` refuses.
    if (spec.stage(PluginKind::Frontend) == nullptr) {
      throwConfigError("the pipeline has no frontend stage", spec.stages.front().location,
                       "stages start with the frontend that reads the model, e.g. `- frontend: frontend_tflite`");
    }
    const bool needsAccelerator =
        spec.stage(PluginKind::Lowering) != nullptr || spec.stage(PluginKind::Scheduler) != nullptr;
    if (needsAccelerator && !spec.accelerator) {
      throwConfigError("lowering and scheduling need an `accelerator:` section",
                       SourceLocation{file_.string(), 1, 1, {}},
                       "e.g. accelerator: { plugin: perf_u55, config: ethos-u55-128 }");
    }
    if (spec.stage(PluginKind::Scheduler) != nullptr && spec.stage(PluginKind::Allocator) == nullptr) {
      throwConfigError("a scheduler stage needs an allocator stage after it", SourceLocation{file_.string(), 1, 1, {}},
                       "add e.g. `- allocator: allocator_hillclimb`");
    }
    if (spec.stage(PluginKind::Codegen) != nullptr && spec.stage(PluginKind::Allocator) == nullptr) {
      throwConfigError("a codegen stage needs a scheduler and an allocator stage before it",
                       spec.stage(PluginKind::Codegen)->location,
                       "add e.g. `- scheduler: scheduler_cascade` and `- allocator: allocator_hillclimb`");
    }
    return spec;
  }

private:
  [[nodiscard]] SourceLocation at(const YAML::Mark& mark) const {
    if (mark.is_null()) {
      return SourceLocation{file_.string(), 0, 0, {}};
    }
    return SourceLocation{file_.string(), mark.line + 1, mark.column + 1, {}};
  }

  void requireMap(const YAML::Node& node, const std::string& what) const {
    if (!node.IsMap()) {
      throwConfigError(what + " must be a mapping (key: value lines)", at(node.Mark()));
    }
  }

  struct Entry {
    std::string key;
    SourceLocation keyLocation; ///< of the key: where unknown keys and whole settings are reported
    YAML::Node value;
  };

  /// The key/value pairs of a map in file order; duplicate keys are errors.
  std::vector<Entry> entries(const YAML::Node& map, const std::string& what) const {
    std::vector<Entry> result;
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar()) {
        throwConfigError("keys of " + what + " must be plain names", at(it->first.Mark()));
      }
      std::string key = it->first.Scalar();
      if (!seen.insert(key).second) {
        throwConfigError("duplicate key '" + key + "' in " + what, at(it->first.Mark()));
      }
      result.push_back({std::move(key), at(it->first.Mark()), it->second});
    }
    return result;
  }

  std::string scalar(const YAML::Node& node, const std::string& key) const {
    if (node.IsNull()) {
      throwConfigError("'" + key + "' needs a value", at(node.Mark()));
    }
    if (!node.IsScalar()) {
      throwConfigError("'" + key + "' must be a single value, not a " + (node.IsMap() ? "mapping" : "list"),
                       at(node.Mark()));
    }
    return node.Scalar();
  }

  /// A value that names something (a plugin, variant, config, folder): empty text is an error, not a
  /// request for a default.
  std::string nonEmpty(const YAML::Node& node, const std::string& key) const {
    std::string text = scalar(node, key);
    if (text.empty()) {
      throwConfigError("'" + key + "' is empty", at(node.Mark()),
                       key == "plugin" ? "name a plugin (see `npu-pipeline plugins`)"
                                       : "give a name, or leave the key out to use the default");
    }
    return text;
  }

  void readPluginPath(const YAML::Node& node, PipelineSpec& spec) const {
    const auto base = file_.parent_path();
    const auto add = [&](const YAML::Node& item) {
      const std::filesystem::path given(nonEmpty(item, "plugin_path"));
      const std::filesystem::path path = given.is_absolute() ? given : base / given;
      std::error_code error;
      if (!std::filesystem::is_directory(path, error)) {
        throwConfigError("plugin_path '" + given.string() + "' is not a directory (looked for " + path.string() + ")",
                         at(item.Mark()), "relative plugin paths are taken from the pipeline file's folder");
      }
      spec.pluginPath.push_back(path);
    };
    if (node.IsSequence()) {
      for (const auto& item : node) {
        add(item);
      }
    } else {
      add(node);
    }
  }

  AcceleratorSpec readAccelerator(const YAML::Node& node) const {
    AcceleratorSpec accelerator;
    accelerator.location = at(node.Mark());
    if (node.IsScalar()) {
      accelerator.plugin = nonEmpty(node, "plugin");
      accelerator.keyLocations["plugin"] = accelerator.location;
      return accelerator;
    }
    requireMap(node, "accelerator");
    for (const auto& [key, keyLocation, value] : entries(node, "accelerator")) {
      if (key == "plugin") {
        accelerator.plugin = nonEmpty(value, key);
      } else if (key == "config") {
        accelerator.config = nonEmpty(value, key);
      } else if (key == "system") {
        accelerator.system = nonEmpty(value, key);
      } else if (key == "memory_mode") {
        accelerator.memoryMode = nonEmpty(value, key);
      } else {
        accelerator.options[key] = {scalar(value, key), keyLocation};
        continue;
      }
      accelerator.keyLocations[key] = at(value.Mark());
    }
    if (accelerator.plugin.empty()) {
      throwConfigError("the accelerator section needs `plugin:`", accelerator.location,
                       "e.g. plugin: perf_u55 (see `npu-pipeline plugins`)");
    }
    return accelerator;
  }

  void readStages(const YAML::Node& node, PipelineSpec& spec) const {
    if (!node.IsSequence()) {
      throwConfigError("'stages' must be a list (lines starting with '- ')", at(node.Mark()));
    }
    int lastOrder = 0;
    for (const auto& item : node) {
      if (!item.IsMap() || item.size() != 1) {
        throwConfigError("each stage is one `kind: plugin` entry, e.g. `- scheduler: scheduler_cascade`",
                         at(item.Mark()));
      }
      const auto it = item.begin();
      const std::string kindName = it->first.Scalar();
      const auto kind = pluginKindFromName(kindName);
      if (!kind || *kind == PluginKind::Accelerator) {
        throwConfigError("unknown stage kind '" + kindName + "'", at(it->first.Mark()),
                         "stage kinds, in order: frontend, lowering, scheduler, allocator, codegen");
      }
      const int order = static_cast<int>(*kind);
      if (order <= lastOrder) {
        throwConfigError(
            "stage '" + kindName + "' is out of order or repeated", at(it->first.Mark()),
            "stages run in the order frontend, lowering, scheduler, allocator, codegen, each at most once");
      }
      lastOrder = order;
      spec.stages.push_back(readStage(*kind, kindName, it->second));
    }
  }

  StageSpec readStage(PluginKind kind, const std::string& kindName, const YAML::Node& value) const {
    StageSpec stage;
    stage.kind = kind;
    stage.location = at(value.Mark());
    if (value.IsScalar()) {
      stage.plugin = nonEmpty(value, "plugin");
      return stage;
    }
    requireMap(value, "stage '" + kindName + "'");
    for (const auto& [key, keyLocation, option] : entries(value, "stage '" + kindName + "'")) {
      if (key == "plugin") {
        stage.plugin = nonEmpty(option, key);
        stage.location = at(option.Mark());
      } else {
        stage.options[key] = {scalar(option, key), keyLocation};
      }
    }
    if (stage.plugin.empty()) {
      throwConfigError("stage '" + kindName + "' needs `plugin:`", stage.location);
    }
    return stage;
  }

  void readReport(const YAML::Node& node, PipelineSpec& spec) const {
    requireMap(node, "report");
    for (const auto& [key, keyLocation, value] : entries(node, "report")) {
      if (key != "formats") {
        throwConfigError("unknown key '" + key + "' in report", keyLocation, "report keys: formats");
      }
      if (!value.IsSequence()) {
        throwConfigError("'formats' must be a list, e.g. [text, csv, json, html]", at(value.Mark()));
      }
      spec.report.formats.clear();
      for (const auto& item : value) {
        const auto format = reportFormatFromName(scalar(item, "formats"));
        if (!format) {
          throwConfigError("unknown report format '" + item.Scalar() + "'", at(item.Mark()),
                           "formats: text, csv, json, html");
        }
        if (std::find(spec.report.formats.begin(), spec.report.formats.end(), *format) == spec.report.formats.end()) {
          spec.report.formats.push_back(*format);
        }
      }
    }
  }

  std::filesystem::path file_;
};

} // namespace

const StageSpec* PipelineSpec::stage(PluginKind kind) const {
  const auto it = std::find_if(stages.begin(), stages.end(), [&](const StageSpec& s) { return s.kind == kind; });
  return it == stages.end() ? nullptr : &*it;
}

StageSpec* PipelineSpec::stage(PluginKind kind) {
  const auto it = std::find_if(stages.begin(), stages.end(), [&](const StageSpec& s) { return s.kind == kind; });
  return it == stages.end() ? nullptr : &*it;
}

PipelineSpec parsePipelineText(const std::string& text, const std::filesystem::path& file) {
  return PipelineReader(file).read(text);
}

PipelineSpec parsePipelineFile(const std::filesystem::path& file) {
  return parsePipelineText(readInputFile(file, kPipelineFile), file);
}

void applyOverride(PipelineSpec& spec, const std::string& assignment) {
  const SourceLocation where{"--set " + assignment, 0, 0, {}};
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw Error(ErrorKind::Usage, "--set expects key=value, got '" + assignment + "'", {},
                "e.g. --set scheduler.optimise=size or --set accelerator.arena_cache_size=512KiB");
  }
  const std::string key = assignment.substr(0, equals);
  const std::string value = assignment.substr(equals + 1);
  const auto dot = key.find('.');
  const std::string section = key.substr(0, dot);
  const std::string field = dot == std::string::npos ? std::string{} : key.substr(dot + 1);
  if (section == "name" && field.empty()) {
    spec.name = value;
    return;
  }
  if (section == "fit_search" && field.empty()) {
    spec.fitSearch = readFitSearch(value, where);
    return;
  }
  if (section == "report" && field == "formats") {
    spec.report.formats.clear();
    std::istringstream list(value);
    for (std::string item; std::getline(list, item, ',');) {
      const auto format = reportFormatFromName(item);
      if (!format) {
        throwConfigError("unknown report format '" + item + "'", where, "formats: text, csv, json, html");
      }
      spec.report.formats.push_back(*format);
    }
    return;
  }
  if (field.empty()) {
    throw Error(ErrorKind::Usage, "--set key '" + key + "' names no field", {},
                "use section.field, e.g. scheduler.optimise or accelerator.config");
  }
  if (section == "accelerator") {
    if (!spec.accelerator) {
      spec.accelerator = AcceleratorSpec{};
      spec.accelerator->location = where;
    }
    auto& accelerator = *spec.accelerator;
    const std::map<std::string, std::string*> names{{"plugin", &accelerator.plugin},
                                                    {"config", &accelerator.config},
                                                    {"system", &accelerator.system},
                                                    {"memory_mode", &accelerator.memoryMode}};
    if (const auto name = names.find(field); name != names.end()) {
      if (value.empty()) {
        throwConfigError("'" + field + "' is empty", where, "give a name");
      }
      *name->second = value;
      accelerator.keyLocations[field] = where;
    } else {
      accelerator.options[field] = {value, where};
    }
    return;
  }
  const auto kind = pluginKindFromName(section);
  StageSpec* stage = kind ? spec.stage(*kind) : nullptr;
  if (stage == nullptr) {
    throw Error(ErrorKind::Usage, "--set '" + key + "': the pipeline has no section or stage '" + section + "'", {},
                "sections: name, fit_search, accelerator, report, and the pipeline's stages");
  }
  if (field == "plugin") {
    if (value.empty()) {
      throwConfigError("'plugin' is empty", where, "name a plugin (see `npu-pipeline plugins`)");
    }
    stage->plugin = value;
    stage->location = where;
  } else {
    stage->options[field] = {value, where};
  }
}

} // namespace npu
