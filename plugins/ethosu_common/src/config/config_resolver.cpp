// SPDX-License-Identifier: Apache-2.0
#include "ethosu/config/config_files.hpp"
#include "ethosu/config/vela_ini.hpp"

#include "npu/core/input_file.hpp"

#include <vector>

namespace ethosu {

namespace {

namespace fs = std::filesystem;

/// What the two kinds of config have in common for finding and reading them.
template <typename Config>
struct ConfigKind {
  std::string_view what;      ///< "system config"
  std::string_view subfolder; ///< "systems"
  Config (*parseYaml)(std::string_view, const std::string&);
  Config (*readIni)(const VelaIniFile&, std::string_view);
  std::vector<std::string> (VelaIniFile::*iniNames)() const;
  Config (*internalDefault)(const VariantSpec&);
};

const ConfigKind<SystemConfig> kSystemKind{"system config",
                                           "systems",
                                           parseSystemConfigYaml,
                                           readSystemConfig,
                                           &VelaIniFile::systemConfigNames,
                                           internalDefaultSystemConfig};
const ConfigKind<MemoryMode> kMemoryModeKind{"memory mode",
                                             "memory_modes",
                                             parseMemoryModeYaml,
                                             readMemoryMode,
                                             &VelaIniFile::memoryModeNames,
                                             internalDefaultMemoryMode};

bool hasExtension(const fs::path& path, std::initializer_list<std::string_view> extensions) {
  const std::string extension = path.extension().string();
  for (const auto candidate : extensions) {
    if (extension == candidate) {
      return true;
    }
  }
  return false;
}

/// "file.ini:Section" -> {"file.ini", "Section"}; "file.ini" -> {"file.ini", ""}.
std::pair<std::string, std::string> splitIniReference(std::string_view reference) {
  const std::size_t marker = reference.find(".ini:");
  if (marker == std::string_view::npos) {
    return {std::string(reference), {}};
  }
  return {std::string(reference.substr(0, marker + 4)), std::string(reference.substr(marker + 5))};
}

template <typename Config>
Config readFromIni(const ConfigKind<Config>& kind, std::string_view reference, const npu::SourceLocation& where,
                   npu::SourceLocation* origin) {
  auto [path, section] = splitIniReference(reference);
  const VelaIniFile file = VelaIniFile::parse(npu::readInputFile(path, npu::kConfigFile, where), path);
  const std::vector<std::string> names = (file.*kind.iniNames)();
  if (section.empty()) {
    if (names.size() != 1) {
      std::string list;
      for (const auto& name : names) {
        list += (list.empty() ? "" : ", ") + name;
      }
      npu::throwConfigError("'" + path + "' holds " + std::to_string(names.size()) + " " + std::string(kind.what) +
                                "s; name the one to use",
                            where, "write '" + path + ":NAME' with NAME one of: " + list);
    }
    section = names.front();
  }
  Config config = kind.readIni(file, section);
  if (origin != nullptr) {
    *origin = npu::SourceLocation{path, 0, 0, {}};
  }
  return config;
}

template <typename Config>
Config readFromYaml(const ConfigKind<Config>& kind, const fs::path& file, const npu::SourceLocation& where,
                    npu::SourceLocation* origin) {
  Config config = kind.parseYaml(npu::readInputFile(file, npu::kConfigFile, where), file.string());
  if (origin != nullptr) {
    *origin = npu::SourceLocation{file.string(), 0, 0, {}};
  }
  return config;
}

template <typename Config>
Config resolve(const ConfigKind<Config>& kind, std::string_view reference, const VariantSpec& variant,
               std::span<const fs::path> searchPath, const npu::SourceLocation& where, npu::SourceLocation* origin) {
  if (reference == kInternalDefault) {
    return kind.internalDefault(variant);
  }
  if (reference.find(".ini") != std::string_view::npos) {
    return readFromIni(kind, reference, where, origin);
  }
  const fs::path asPath{std::string(reference)};
  if (hasExtension(asPath, {".yaml", ".yml"}) || reference.find('/') != std::string_view::npos) {
    return readFromYaml(kind, asPath, where, origin);
  }
  const std::string stem = configFileStem(reference);
  std::string searched;
  for (const auto& folder : searchPath) {
    for (const fs::path& candidate : {folder / (stem + ".yaml"), folder / kind.subfolder / (stem + ".yaml")}) {
      if (fs::exists(candidate)) {
        return readFromYaml(kind, candidate, where, origin);
      }
      searched += (searched.empty() ? "" : ", ") + candidate.string();
    }
  }
  npu::throwConfigError("unknown " + std::string(kind.what) + " '" + std::string(reference) + "'", where,
                        searched.empty() ? "no config folders are on the search path; name a file instead"
                                         : "looked for " + searched);
}

} // namespace

SystemConfig resolveSystemConfig(std::string_view reference, const VariantSpec& variant,
                                 std::span<const fs::path> searchPath, const npu::SourceLocation& where,
                                 npu::SourceLocation* origin) {
  return resolve(kSystemKind, reference, variant, searchPath, where, origin);
}

MemoryMode resolveMemoryMode(std::string_view reference, const VariantSpec& variant,
                             std::span<const fs::path> searchPath, const npu::SourceLocation& where,
                             npu::SourceLocation* origin) {
  return resolve(kMemoryModeKind, reference, variant, searchPath, where, origin);
}

} // namespace ethosu
