// SPDX-License-Identifier: Apache-2.0
#include "ethosu/config/config_files.hpp"

#include "config_values.hpp"

#include "npu/plugin/options.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <sstream>
#include <vector>

namespace ethosu {

namespace {

npu::SourceLocation locationOf(const YAML::Node& node, const std::string& fileName) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) {
    return npu::SourceLocation{fileName, 0, 0, {}};
  }
  return npu::SourceLocation{fileName, mark.line + 1, mark.column + 1, {}};
}

/// Reads the file's one YAML document (a second one is an error, not ignored); turns yaml-cpp's parse
/// errors into Config errors with their position.
YAML::Node loadDocument(std::string_view text, const std::string& fileName) {
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(std::string(text));
  } catch (const YAML::ParserException& error) {
    npu::throwConfigError("YAML syntax error: " + error.msg,
                          npu::SourceLocation{fileName, error.mark.line + 1, error.mark.column + 1, {}});
  }
  if (documents.size() > 1) {
    npu::throwConfigError("the file holds more than one YAML document", locationOf(documents[1], fileName),
                          "a config file is one document; remove the `---` line and what follows");
  }
  return documents.empty() ? YAML::Node() : documents.front();
}

class MapReader {
public:
  MapReader(const YAML::Node& node, std::string fileName, std::string what)
      : node_(node), fileName_(std::move(fileName)), what_(std::move(what)) {
    if (!node_.IsMap()) {
      npu::throwConfigError(what_ + " must be a mapping of keys to values", locationOf(node_, fileName_));
    }
  }

  /// Every key must be one of `known`: a misspelt key is an error, not a silent default.
  void requireKnownKeys(std::initializer_list<std::string_view> known) const {
    for (const auto& item : node_) {
      const auto key = item.first.as<std::string>();
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string list;
        for (const auto name : known) {
          list += (list.empty() ? "" : ", ") + std::string(name);
        }
        npu::throwConfigError("unknown key '" + key + "' in " + what_, locationOf(item.first, fileName_),
                              "known keys: " + list);
      }
    }
  }

  [[nodiscard]] bool has(std::string_view key) const { return static_cast<bool>(node_[std::string(key)]); }
  [[nodiscard]] YAML::Node at(std::string_view key) const {
    const YAML::Node value = node_[std::string(key)];
    if (!value) {
      npu::throwConfigError("missing key '" + std::string(key) + "' in " + what_, locationOf(node_, fileName_));
    }
    return value;
  }

  [[nodiscard]] std::string text(std::string_view key) const {
    const YAML::Node value = at(key);
    if (!value.IsScalar()) {
      npu::throwConfigError("'" + std::string(key) + "' must be a single value", locationOf(value, fileName_));
    }
    return value.Scalar();
  }
  [[nodiscard]] std::string textOr(std::string_view key, std::string fallback) const {
    return has(key) ? text(key) : std::move(fallback);
  }

  template <typename T, typename Parse>
  [[nodiscard]] T parsed(std::string_view key, Parse parse, std::string_view expected) const {
    const std::string value = text(key);
    const auto result = parse(value);
    if (!result) {
      npu::throwConfigError("'" + std::string(key) + "' expects " + std::string(expected) + ", got '" + value + "'",
                            locationOf(at(key), fileName_));
    }
    return static_cast<T>(*result);
  }

  /// A number that must also lie in `range` (checked where it is written).
  template <typename T, typename Parse>
  [[nodiscard]] T ranged(std::string_view key, Parse parse, std::string_view expected,
                         const SettingRange& range) const {
    const T value = parsed<T>(key, parse, expected);
    checkRange(range, static_cast<double>(value), key, location(key));
    return value;
  }

  [[nodiscard]] npu::SourceLocation location(std::string_view key) const { return locationOf(at(key), fileName_); }
  [[nodiscard]] const YAML::Node& node() const { return node_; }
  [[nodiscard]] const std::string& fileName() const { return fileName_; }

private:
  YAML::Node node_;
  std::string fileName_;
  std::string what_;
};

YAML::Node topLevel(const YAML::Node& document, std::string_view kind, const std::string& fileName) {
  if (!document.IsMap() || !document[std::string(kind)]) {
    npu::throwConfigError("expected a '" + std::string(kind) + ":' section", locationOf(document, fileName),
                          std::string(kind) == "system_config" ? "is this a memory mode file?"
                                                               : "is this a system config file?");
  }
  if (document.size() != 1) {
    for (const auto& item : document) {
      if (item.first.as<std::string>() != kind) {
        npu::throwConfigError("unknown top-level key '" + item.first.as<std::string>() + "'",
                              locationOf(item.first, fileName), "the file holds a single '" + std::string(kind) + ":'");
      }
    }
  }
  return document[std::string(kind)];
}

std::string formatNumber(double value) {
  std::ostringstream out;
  out << std::setprecision(17) << value;
  return out.str();
}

} // namespace

namespace {

/// yaml-cpp reports type errors (e.g. a list where a key was expected) with exceptions of its own.
template <typename Parse>
auto withYamlErrors(const std::string& fileName, Parse parse) {
  try {
    return parse();
  } catch (const YAML::Exception& error) {
    npu::throwConfigError("invalid YAML: " + error.msg,
                          npu::SourceLocation{fileName, error.mark.line + 1, error.mark.column + 1, {}});
  }
}

SystemConfig readSystemConfigDocument(std::string_view text, const std::string& fileName) {
  const YAML::Node document = loadDocument(text, fileName);
  const YAML::Node section = topLevel(document, "system_config", fileName);
  const MapReader reader(section, fileName, "system_config");
  reader.requireKnownKeys({"name", "description", "core_clock", "axi0_port", "axi1_port", "memories"});

  SystemConfig config;
  config.name = reader.text("name");
  config.description = reader.textOr("description", "");
  config.coreClockHz =
      reader.ranged<double>("core_clock", parsePythonFloat, "a clock frequency in Hz (e.g. 500e6)", kCoreClockRange);
  const auto memoryNames = "Sram, Dram, OnChipFlash or OffChipFlash";
  config.axi0Port = reader.parsed<npu::MemoryArea>("axi0_port", portMemoryFromName, memoryNames);
  config.axi1Port = reader.parsed<npu::MemoryArea>("axi1_port", portMemoryFromName, memoryNames);
  if (!reader.has("memories")) {
    npu::throwConfigError("missing key 'memories' in system_config", locationOf(section, fileName),
                          "give the timing of the memories on axi0_port and axi1_port");
  }
  const MapReader memories(reader.at("memories"), fileName, "memories");
  std::vector<npu::MemoryArea> described;
  for (const auto& item : memories.node()) {
    const auto name = item.first.as<std::string>();
    const auto area = portMemoryFromName(name);
    if (!area) {
      npu::throwConfigError("unknown memory '" + name + "'", locationOf(item.first, fileName),
                            std::string("memories are ") + memoryNames);
    }
    if (*area != config.axi0Port && *area != config.axi1Port) {
      npu::throwConfigError("memory '" + name + "' is on neither axi0_port nor axi1_port",
                            locationOf(item.first, fileName), "Vela ignores the settings of memories not on a port");
    }
    const MapReader timing(item.second, fileName, "memories." + name);
    timing.requireKnownKeys({"clock_scale", "burst_length", "read_latency", "write_latency"});
    described.push_back(*area);
    MemoryTiming& target = config.timingOf(*area);
    if (timing.has("clock_scale")) {
      target.clockScale = timing.ranged<double>("clock_scale", parsePythonFloat, "a number", kClockScaleRange);
    }
    if (timing.has("burst_length")) {
      target.burstLength =
          timing.ranged<int>("burst_length", parsePythonInt, "a whole number of bytes", kBurstLengthRange);
    }
    for (const auto key : {"read_latency", "write_latency"}) {
      if (timing.has(key)) {
        (std::string_view(key) == "read_latency" ? target.readLatency : target.writeLatency) =
            timing.ranged<int>(key, parsePythonInt, "a whole number of cycles", kLatencyRange);
      }
    }
  }
  // An empty or partial `memories:` would leave a port memory at Vela's placeholder timing silently.
  for (const npu::MemoryArea area : {config.axi0Port, config.axi1Port}) {
    if (std::find(described.begin(), described.end(), area) == described.end()) {
      npu::throwConfigError("memories has no entry for " + std::string(npu::nameOf(area)) + ", the memory on " +
                                (area == config.axi0Port ? "axi0_port" : "axi1_port"),
                            reader.location("memories"),
                            "add e.g. " + std::string(npu::nameOf(area)) +
                                ": {clock_scale: 1.0, burst_length: 32, read_latency: 32, write_latency: 32}");
    }
  }
  return config;
}

MemoryMode readMemoryModeDocument(std::string_view text, const std::string& fileName) {
  const YAML::Node document = loadDocument(text, fileName);
  const YAML::Node section = topLevel(document, "memory_mode", fileName);
  const MapReader reader(section, fileName, "memory_mode");
  reader.requireKnownKeys(
      {"name", "description", "const_mem_area", "arena_mem_area", "cache_mem_area", "arena_cache_size"});
  MemoryMode mode;
  mode.name = reader.text("name");
  mode.description = reader.textOr("description", "");
  mode.constantPort = reader.parsed<AxiPort>("const_mem_area", axiPortFromName, "Axi0 or Axi1");
  mode.arenaPort = reader.parsed<AxiPort>("arena_mem_area", axiPortFromName, "Axi0 or Axi1");
  mode.cachePort = reader.parsed<AxiPort>("cache_mem_area", axiPortFromName, "Axi0 or Axi1");
  if (reader.has("arena_cache_size")) {
    mode.arenaCacheSize = reader.ranged<std::int64_t>("arena_cache_size", npu::parseByteSize,
                                                      "a size in bytes (e.g. 393216 or 384KiB)", kArenaCacheSizeRange);
    mode.arenaCacheSizeLocation = reader.location("arena_cache_size");
  }
  return mode;
}

} // namespace

SystemConfig parseSystemConfigYaml(std::string_view text, const std::string& fileName) {
  return withYamlErrors(fileName, [&] { return readSystemConfigDocument(text, fileName); });
}

MemoryMode parseMemoryModeYaml(std::string_view text, const std::string& fileName) {
  return withYamlErrors(fileName, [&] { return readMemoryModeDocument(text, fileName); });
}

std::string systemConfigToYaml(const SystemConfig& config) {
  std::ostringstream out;
  out << "system_config:\n";
  out << "  name: " << config.name << "\n";
  if (!config.description.empty()) {
    out << "  description: \"" << config.description << "\"\n";
  }
  out << "  core_clock: " << formatNumber(config.coreClockHz) << "\n";
  out << "  axi0_port: " << npu::nameOf(config.axi0Port) << "\n";
  out << "  axi1_port: " << npu::nameOf(config.axi1Port) << "\n";
  out << "  memories:\n";
  std::vector<npu::MemoryArea> written;
  for (const npu::MemoryArea area : {config.axi0Port, config.axi1Port}) {
    if (std::find(written.begin(), written.end(), area) != written.end()) {
      continue;
    }
    written.push_back(area);
    const MemoryTiming& timing = config.timingOf(area);
    out << "    " << npu::nameOf(area) << ":\n";
    out << "      clock_scale: " << formatNumber(timing.clockScale) << "\n";
    out << "      burst_length: " << timing.burstLength << "\n";
    out << "      read_latency: " << timing.readLatency << "\n";
    out << "      write_latency: " << timing.writeLatency << "\n";
  }
  return out.str();
}

std::string memoryModeToYaml(const MemoryMode& mode) {
  std::ostringstream out;
  out << "memory_mode:\n";
  out << "  name: " << mode.name << "\n";
  if (!mode.description.empty()) {
    out << "  description: \"" << mode.description << "\"\n";
  }
  out << "  const_mem_area: " << nameOf(mode.constantPort) << "\n";
  out << "  arena_mem_area: " << nameOf(mode.arenaPort) << "\n";
  out << "  cache_mem_area: " << nameOf(mode.cachePort) << "\n";
  if (mode.arenaCacheSize) {
    out << "  arena_cache_size: " << *mode.arenaCacheSize << "\n";
  }
  return out.str();
}

std::string configFileStem(std::string_view velaName) {
  std::string stem(velaName);
  std::transform(stem.begin(), stem.end(), stem.begin(), [](unsigned char c) {
    return c == '-' || c == ' ' || c == '.' ? '_' : static_cast<char>(std::tolower(c));
  });
  return stem;
}

} // namespace ethosu
