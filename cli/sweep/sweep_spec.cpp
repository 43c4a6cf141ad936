// SPDX-License-Identifier: Apache-2.0
#include "sweep_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iterator>
#include <set>

namespace npu::sweep {

namespace {

class Parser {
public:
  explicit Parser(std::filesystem::path file) : file_(std::move(file)) {}

  [[nodiscard]] SourceLocation where(const YAML::Node& node) const {
    const YAML::Mark mark = node.Mark();
    return SourceLocation{file_.string(), mark.line + 1, mark.column + 1, {}};
  }

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message, const std::string& hint = {}) const {
    throwConfigError(message, where(node), hint);
  }

  std::string scalar(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) {
      fail(node, what + " must be a single value");
    }
    return node.Scalar();
  }

  std::vector<std::string> scalars(const YAML::Node& node, const std::string& what) const {
    if (node.IsScalar()) {
      return {node.Scalar()};
    }
    if (!node.IsSequence()) {
      fail(node, what + " must be a value or a list of values");
    }
    std::vector<std::string> values;
    for (const auto& item : node) {
      values.push_back(scalar(item, what + " entry"));
    }
    return values;
  }

  int positive(const YAML::Node& node, const std::string& what) const {
    const std::string text = scalar(node, what);
    try {
      std::size_t used = 0;
      const int value = std::stoi(text, &used);
      if (used == text.size() && value > 0) {
        return value;
      }
    } catch (const std::exception&) {
    }
    fail(node, what + " must be a positive whole number, not '" + text + "'");
  }

  std::filesystem::path path(const YAML::Node& node, const std::string& what) const {
    const std::filesystem::path written = scalar(node, what);
    return (written.is_absolute() ? written : file_.parent_path() / written).lexically_normal();
  }

  std::vector<Setting> settings(const YAML::Node& node, const std::string& what) const {
    if (!node.IsMap()) {
      fail(node, what + " must be a map of setting: value", "e.g. { accelerator.config: ethos-u55-64 }");
    }
    std::vector<Setting> result;
    for (const auto& entry : node) {
      result.emplace_back(scalar(entry.first, "a setting name"), scalar(entry.second, "a setting value"));
    }
    return result;
  }

  Axis axis(const YAML::Node& key, const YAML::Node& values) const {
    Axis axis{scalar(key, "an axis name"), false, {}, where(key)};
    if (!values.IsSequence() || values.size() == 0) {
      fail(values, "axis '" + axis.name + "' must be a non-empty list of values");
    }
    for (const auto& value : values) {
      AxisValue entry{{}, {}, where(value)};
      if (value.IsMap()) {
        axis.linked = true;
        for (const auto& setting : value) {
          const std::string name = scalar(setting.first, "a setting name");
          if (name == "label") {
            entry.label = scalar(setting.second, "label");
          } else {
            entry.settings.emplace_back(name, scalar(setting.second, "a setting value"));
          }
        }
        if (entry.settings.empty()) {
          fail(value, "a value of axis '" + axis.name + "' sets nothing");
        }
        if (entry.label.empty()) {
          for (const auto& [name, text] : entry.settings) {
            entry.label += (entry.label.empty() ? "" : "/") + text;
          }
        }
      } else {
        entry.label = scalar(value, "axis value");
        entry.settings.emplace_back(axis.name, entry.label);
      }
      axis.values.push_back(std::move(entry));
    }
    std::set<std::string> labels;
    for (const auto& value : axis.values) {
      if (!labels.insert(value.label).second) {
        throwConfigError("axis '" + axis.name + "' has the value '" + value.label + "' twice", value.location,
                         "give linked values distinct `label:`s");
      }
    }
    return axis;
  }

  SlurmSpec slurm(const YAML::Node& node) const {
    if (!node.IsMap()) {
      fail(node, "slurm must be a map");
    }
    SlurmSpec spec;
    for (const auto& entry : node) {
      const std::string key = scalar(entry.first, "a key");
      if (key == "shards") {
        spec.shards = positive(entry.second, "slurm.shards");
      } else if (key == "cpus_per_task") {
        spec.cpusPerTask = positive(entry.second, "slurm.cpus_per_task");
      } else if (key == "partition") {
        spec.partition = scalar(entry.second, "slurm.partition");
      } else if (key == "time") {
        spec.timeLimit = scalar(entry.second, "slurm.time");
      } else if (key == "options") {
        spec.options = scalars(entry.second, "slurm.options");
      } else {
        fail(entry.first, "unknown key 'slurm." + key + "'", "known: shards, cpus_per_task, partition, time, options");
      }
    }
    return spec;
  }

  SweepSpec parse(const YAML::Node& root) const {
    if (!root.IsMap()) {
      fail(root, "a sweep file is a map", "see docs/sweeps.md");
    }
    SweepSpec spec;
    spec.file = file_;
    spec.name = file_.stem().string();
    bool hasPipeline = false;
    for (const auto& entry : root) {
      const std::string key = scalar(entry.first, "a key");
      const YAML::Node& value = entry.second;
      if (key == "name") {
        spec.name = scalar(value, "name");
      } else if (key == "pipeline") {
        spec.pipeline = path(value, "pipeline");
        hasPipeline = true;
      } else if (key == "set") {
        spec.baseSettings = settings(value, "set");
      } else if (key == "axes") {
        if (!value.IsMap()) {
          fail(value, "axes must be a map of setting (or axis name): list of values");
        }
        for (const auto& axisEntry : value) {
          spec.axes.push_back(axis(axisEntry.first, axisEntry.second));
        }
      } else if (key == "networks") {
        if (value.IsScalar()) {
          spec.networks.push_back({value.Scalar(), where(value)});
        } else if (value.IsSequence()) {
          for (const auto& item : value) {
            spec.networks.push_back({scalar(item, "a network"), where(item)});
          }
        } else {
          fail(value, "networks must be a list of files, globs or @list files");
        }
      } else if (key == "collect") {
        spec.collect = scalars(value, "collect");
      } else if (key == "output") {
        spec.output = path(value, "output");
      } else if (key == "slurm") {
        spec.slurm = slurm(value);
      } else {
        fail(entry.first, "unknown key '" + key + "'",
             "known: name, pipeline, set, axes, networks, collect, output, slurm");
      }
    }
    if (!hasPipeline) {
      fail(root, "the sweep names no pipeline", "add `pipeline: path/to/pipeline.yaml`");
    }
    if (spec.networks.empty()) {
      fail(root, "the sweep names no networks", "add `networks: [models/*.tflite]`");
    }
    return spec;
  }

private:
  std::filesystem::path file_;
};

} // namespace

SweepSpec parseSweepText(const std::string& text, const std::filesystem::path& file) {
  const std::filesystem::path absolute = std::filesystem::absolute(file).lexically_normal();
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    throwConfigError(error.msg, SourceLocation{absolute.string(), error.mark.line + 1, error.mark.column + 1, {}});
  }
  return Parser(absolute).parse(root);
}

SweepSpec parseSweepFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throwConfigError("cannot read the sweep file", SourceLocation{file.string(), 0, 0, {}});
  }
  return parseSweepText({std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}, file);
}

} // namespace npu::sweep
