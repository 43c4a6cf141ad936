// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reads a Vela configuration file (.ini, Python ConfigParser syntax) unchanged: sections
// "System_Config.NAME" and "Memory_Mode.NAME", inheritance with inherit=, keys matched without regard
// to case as ConfigParser does, a [DEFAULT] section whose keys every section sees.

#include "ethosu/config/system_config.hpp"

#include "npu/core/diagnostics.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ethosu {

class VelaIniFile {
public:
  /// Parses one file's text; throws a Config error at file:line for malformed lines, unknown sections
  /// and keys Vela does not read (a misspelt key is an error, not a silent default).
  static VelaIniFile parse(std::string_view text, const std::string& fileName);
  static VelaIniFile load(const std::filesystem::path& file);
  /// Adds the sections of another file; like ConfigParser.read of several files, later values win.
  void merge(const VelaIniFile& other);

  [[nodiscard]] bool hasSection(std::string_view section) const;
  /// Names after the "System_Config." / "Memory_Mode." prefix, in file order.
  [[nodiscard]] std::vector<std::string> systemConfigNames() const;
  [[nodiscard]] std::vector<std::string> memoryModeNames() const;

  /// The value of `key` in `section`, following inherit= chains (the inheriting section's value wins);
  /// nullopt when no section of the chain sets it. Throws for unknown sections and inheritance loops.
  [[nodiscard]] std::optional<std::string> lookup(std::string_view section, std::string_view key) const;
  /// Where `key` is set for `section` (following inheritance), or where the section starts.
  [[nodiscard]] npu::SourceLocation locate(std::string_view section, std::string_view key = {}) const;

private:
  struct Entry {
    std::string value;
    npu::SourceLocation location;
  };
  struct Section {
    std::string name;
    npu::SourceLocation location;
    std::map<std::string, Entry, std::less<>> entries; ///< keys lower-cased
  };
  void requireKnownKeys() const;
  [[nodiscard]] const Section* findSection(std::string_view name) const;
  [[nodiscard]] const Entry* find(std::string_view section, std::string_view key, int depth) const;

  std::vector<Section> sections_;
  Section defaults_;
};

/// Reads [System_Config.NAME] as Vela 3.10 does (keys of the two port memories only), except that
/// core_clock is required and every number must lie in its range (config_values.hpp).
[[nodiscard]] SystemConfig readSystemConfig(const VelaIniFile& file, std::string_view name);
/// Reads [Memory_Mode.NAME].
[[nodiscard]] MemoryMode readMemoryMode(const VelaIniFile& file, std::string_view name);

} // namespace ethosu
