// SPDX-License-Identifier: Apache-2.0
#include "ethosu/config/vela_ini.hpp"

#include "config_values.hpp"

#include "npu/core/input_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

namespace ethosu {

namespace {

constexpr std::string_view kSystemPrefix = "System_Config.";
constexpr std::string_view kMemoryModePrefix = "Memory_Mode.";
constexpr std::string_view kDefaultSection = "DEFAULT";

std::string_view strip(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

std::string lowerCase(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return result;
}

std::size_t indentOf(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && (line[indent] == ' ' || line[indent] == '\t')) {
    ++indent;
  }
  return indent;
}

std::vector<std::string> namesWithPrefix(const std::vector<std::string>& sections, std::string_view prefix) {
  std::vector<std::string> names;
  for (const auto& section : sections) {
    if (section.starts_with(prefix)) {
      names.push_back(section.substr(prefix.size()));
    }
  }
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) {
    text += (text.empty() ? "" : ", ") + name;
  }
  return text.empty() ? "none" : text;
}

constexpr std::array<std::string_view, 4> kTimingKeys{"clock_scale", "burst_length", "read_latency", "write_latency"};

/// The keys Vela 3.10 reads in a [System_Config.*] section (lower-cased, as ConfigParser matches them).
std::vector<std::string> systemConfigKeys() {
  std::vector<std::string> keys{"inherit", "core_clock", "axi0_port", "axi1_port"};
  for (const auto memory : {"sram", "dram", "onchipflash", "offchipflash"}) {
    for (const auto key : kTimingKeys) {
      keys.push_back(std::string(memory) + "_" + std::string(key));
    }
  }
  return keys;
}

/// The keys Vela 3.10 reads in a [Memory_Mode.*] section.
std::vector<std::string> memoryModeKeys() {
  return {"inherit", "const_mem_area", "arena_mem_area", "cache_mem_area", "arena_cache_size"};
}

} // namespace

VelaIniFile VelaIniFile::parse(std::string_view text, const std::string& fileName) {
  VelaIniFile file;
  file.defaults_.name = std::string(kDefaultSection);
  Section* current = nullptr;
  std::vector<std::string> seenInThisFile;
  Entry* openValue = nullptr; // value that indented lines continue
  std::size_t openIndent = 0;
  int lineNumber = 0;
  std::istringstream lines{std::string(text)};
  for (std::string rawLine; std::getline(lines, rawLine);) {
    ++lineNumber;
    if (!rawLine.empty() && rawLine.back() == '\r') {
      rawLine.pop_back();
    }
    const npu::SourceLocation where{fileName, lineNumber, 1, {}};
    const std::string_view line = strip(rawLine);
    if (line.empty()) {
      openValue = nullptr;
      continue;
    }
    if (line.front() == '#' || line.front() == ';') {
      continue;
    }
    const std::size_t indent = indentOf(rawLine);
    if (openValue != nullptr && indent > openIndent) {
      openValue->value += "\n" + std::string(line); // ConfigParser multi-line value
      continue;
    }
    openValue = nullptr;
    if (line.front() == '[') {
      const std::size_t close = line.rfind(']');
      if (close == std::string_view::npos || close < 2) {
        npu::throwConfigError("malformed section header '" + std::string(line) + "'", where,
                              "section headers look like [System_Config.My_System]");
      }
      const std::string name(line.substr(1, close - 1));
      if (std::find(seenInThisFile.begin(), seenInThisFile.end(), name) != seenInThisFile.end()) {
        npu::throwConfigError("section [" + name + "] appears twice", where);
      }
      seenInThisFile.push_back(name);
      if (name == kDefaultSection) {
        current = &file.defaults_;
      } else {
        file.sections_.push_back(Section{name, where, {}});
        current = &file.sections_.back();
      }
      continue;
    }
    if (current == nullptr) {
      npu::throwConfigError("'" + std::string(line) + "' comes before any [section]", where,
                            "start the file with a section header such as [System_Config.My_System]");
    }
    const std::size_t delimiter = line.find_first_of("=:");
    if (delimiter == std::string_view::npos || strip(line.substr(0, delimiter)).empty()) {
      npu::throwConfigError("expected 'key = value', got '" + std::string(line) + "'", where);
    }
    const std::string key = lowerCase(strip(line.substr(0, delimiter)));
    if (current->entries.contains(key)) {
      npu::throwConfigError("key '" + key + "' is set twice in section [" + current->name + "]", where);
    }
    auto [entry, inserted] =
        current->entries.emplace(key, Entry{std::string(strip(line.substr(delimiter + 1))), where});
    openValue = &entry->second;
    openIndent = indent;
  }
  file.requireKnownKeys();
  return file;
}

// Vela ignores keys it does not read, so a misspelt `core_clok` silently keeps a default; here every
// key of every section must be one Vela reads for that kind of section.
void VelaIniFile::requireKnownKeys() const {
  const std::vector<std::string> systemKeys = systemConfigKeys();
  const std::vector<std::string> modeKeys = memoryModeKeys();
  const auto knows = [](const std::vector<std::string>& keys, const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  for (const auto& section : sections_) {
    const bool system = section.name.starts_with(kSystemPrefix);
    if (!system && !section.name.starts_with(kMemoryModePrefix)) {
      npu::throwConfigError("unknown section [" + section.name + "]", section.location,
                            "sections are [System_Config.NAME], [Memory_Mode.NAME] and [DEFAULT]");
    }
    const std::vector<std::string>& known = system ? systemKeys : modeKeys;
    for (const auto& [key, entry] : section.entries) {
      if (!knows(known, key)) {
        npu::throwConfigError("unknown key '" + key + "' in section [" + section.name + "]", entry.location,
                              "keys of this section: " + joined(known));
      }
    }
  }
  for (const auto& [key, entry] : defaults_.entries) {
    if (!knows(systemKeys, key) && !knows(modeKeys, key)) {
      npu::throwConfigError("unknown key '" + key + "' in section [DEFAULT]", entry.location,
                            "[DEFAULT] holds keys of system configs or memory modes");
    }
  }
}

VelaIniFile VelaIniFile::load(const std::filesystem::path& file) {
  return parse(npu::readInputFile(file, npu::kConfigFile), file.string());
}

void VelaIniFile::merge(const VelaIniFile& other) {
  for (const auto& [key, entry] : other.defaults_.entries) {
    defaults_.entries.insert_or_assign(key, entry);
  }
  for (const auto& section : other.sections_) {
    auto existing = std::find_if(sections_.begin(), sections_.end(),
                                 [&](const Section& candidate) { return candidate.name == section.name; });
    if (existing == sections_.end()) {
      sections_.push_back(section);
      continue;
    }
    for (const auto& [key, entry] : section.entries) {
      existing->entries.insert_or_assign(key, entry);
    }
  }
}

const VelaIniFile::Section* VelaIniFile::findSection(std::string_view name) const {
  const auto found =
      std::find_if(sections_.begin(), sections_.end(), [&](const Section& section) { return section.name == name; });
  return found == sections_.end() ? nullptr : &*found;
}

bool VelaIniFile::hasSection(std::string_view section) const {
  return findSection(section) != nullptr;
}

std::vector<std::string> VelaIniFile::systemConfigNames() const {
  std::vector<std::string> names;
  for (const auto& section : sections_) {
    names.push_back(section.name);
  }
  return namesWithPrefix(names, kSystemPrefix);
}

std::vector<std::string> VelaIniFile::memoryModeNames() const {
  std::vector<std::string> names;
  for (const auto& section : sections_) {
    names.push_back(section.name);
  }
  return namesWithPrefix(names, kMemoryModePrefix);
}

// architecture_features.ArchitectureFeatures._read_config: the inherited section is read first, then the
// section's own key (or a [DEFAULT] one) replaces it.
const VelaIniFile::Entry* VelaIniFile::find(std::string_view sectionName, std::string_view key, int depth) const {
  const Section* section = findSection(sectionName);
  if (section == nullptr) {
    npu::throwConfigError("section [" + std::string(sectionName) + "] was not found in the Vela config file(s)",
                          npu::SourceLocation{}, "check the name given to inherit=");
  }
  if (depth > static_cast<int>(sections_.size())) {
    npu::throwConfigError("inherit= in section [" + std::string(sectionName) + "] forms a loop", section->location,
                          "a section may not inherit from itself, directly or through others");
  }
  const auto own = [&](std::string_view name) -> const Entry* {
    if (auto it = section->entries.find(name); it != section->entries.end()) {
      return &it->second;
    }
    if (auto it = defaults_.entries.find(name); it != defaults_.entries.end()) {
      return &it->second;
    }
    return nullptr;
  };
  const Entry* result = nullptr;
  if (const Entry* inherit = own("inherit")) {
    if (inherit->value == sectionName) {
      npu::throwConfigError("section [" + std::string(sectionName) + "] inherits from itself", inherit->location,
                            "inherit= must name another section");
    }
    result = find(inherit->value, key, depth + 1);
  }
  if (const Entry* value = own(lowerCase(key))) {
    result = value;
  }
  return result;
}

std::optional<std::string> VelaIniFile::lookup(std::string_view section, std::string_view key) const {
  const Entry* entry = find(section, key, 0);
  return entry == nullptr ? std::nullopt : std::optional<std::string>(entry->value);
}

npu::SourceLocation VelaIniFile::locate(std::string_view section, std::string_view key) const {
  if (!key.empty()) {
    if (const Entry* entry = find(section, key, 0)) {
      return entry->location;
    }
  }
  const Section* found = findSection(section);
  return found == nullptr ? npu::SourceLocation{} : found->location;
}

namespace {

template <typename Parse>
auto readValue(const VelaIniFile& file, const std::string& section, std::string_view key, Parse parse)
    -> decltype(parse(std::string_view{})) {
  const auto text = file.lookup(section, key);
  if (!text) {
    return std::nullopt;
  }
  auto value = parse(*text);
  if (!value) {
    npu::throwConfigError("invalid value '" + *text + "' for " + std::string(key) + " in [" + section + "]",
                          file.locate(section, key));
  }
  return value;
}

/// A number that must also lie in `range`, checked at the line that sets it.
template <typename Parse>
auto readRanged(const VelaIniFile& file, const std::string& section, std::string_view key, Parse parse,
                const SettingRange& range) -> decltype(parse(std::string_view{})) {
  auto value = readValue(file, section, key, parse);
  if (value) {
    checkRange(range, static_cast<double>(*value), key, file.locate(section, key));
  }
  return value;
}

void requireSection(const VelaIniFile& file, const std::string& section, const std::vector<std::string>& available,
                    std::string_view kind) {
  if (!file.hasSection(section)) {
    npu::throwConfigError("section [" + section + "] not found in the Vela config file", npu::SourceLocation{},
                          "available " + std::string(kind) + ": " + joined(available));
  }
}

} // namespace

SystemConfig readSystemConfig(const VelaIniFile& file, std::string_view name) {
  const std::string section = std::string(kSystemPrefix) + std::string(name);
  requireSection(file, section, file.systemConfigNames(), "system configs");
  SystemConfig config;
  config.name = std::string(name);
  for (const auto& [key, port] : {std::pair{"axi0_port", AxiPort::Axi0}, std::pair{"axi1_port", AxiPort::Axi1}}) {
    const auto area = readValue(file, section, key, portMemoryFromName);
    if (!area) {
      npu::throwConfigError(std::string(key) + " is missing in [" + section + "]", file.locate(section),
                            "set it to Sram, Dram, OnChipFlash or OffChipFlash");
    }
    (port == AxiPort::Axi0 ? config.axi0Port : config.axi1Port) = *area;
  }
  const auto coreClock = readRanged(file, section, "core_clock", parsePythonFloat, kCoreClockRange);
  if (!coreClock) {
    npu::throwConfigError("core_clock is missing in [" + section + "]", file.locate(section),
                          "set it to the NPU's clock in Hz, e.g. core_clock=500e6");
  }
  config.coreClockHz = *coreClock;
  // Vela reads the timing keys of the two port memories only; settings of other memories are ignored.
  for (const npu::MemoryArea area : {config.axi0Port, config.axi1Port}) {
    const std::string prefix(npu::nameOf(area));
    MemoryTiming& timing = config.timingOf(area);
    timing.clockScale = readRanged(file, section, prefix + "_clock_scale", parsePythonFloat, kClockScaleRange)
                            .value_or(timing.clockScale);
    timing.burstLength = readRanged(file, section, prefix + "_burst_length", parsePythonInt, kBurstLengthRange)
                             .value_or(timing.burstLength);
    timing.readLatency =
        readRanged(file, section, prefix + "_read_latency", parsePythonInt, kLatencyRange).value_or(timing.readLatency);
    timing.writeLatency = readRanged(file, section, prefix + "_write_latency", parsePythonInt, kLatencyRange)
                              .value_or(timing.writeLatency);
  }
  return config;
}

MemoryMode readMemoryMode(const VelaIniFile& file, std::string_view name) {
  const std::string section = std::string(kMemoryModePrefix) + std::string(name);
  requireSection(file, section, file.memoryModeNames(), "memory modes");
  MemoryMode mode;
  mode.name = std::string(name);
  mode.constantPort = readValue(file, section, "const_mem_area", axiPortFromName).value_or(mode.constantPort);
  mode.arenaPort = readValue(file, section, "arena_mem_area", axiPortFromName).value_or(mode.arenaPort);
  mode.cachePort = readValue(file, section, "cache_mem_area", axiPortFromName).value_or(mode.cachePort);
  mode.arenaCacheSize = readRanged(file, section, "arena_cache_size", parsePythonInt64, kArenaCacheSizeRange);
  if (mode.arenaCacheSize) {
    mode.arenaCacheSizeLocation = file.locate(section, "arena_cache_size");
  }
  return mode;
}

} // namespace ethosu
