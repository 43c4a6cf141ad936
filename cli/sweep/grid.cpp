// SPDX-License-Identifier: Apache-2.0
#include "grid.hpp"

#include <glob.h>

#include <algorithm>
#include <fstream>
#include <set>

namespace npu::sweep {

namespace {

bool isGlob(const std::string& pattern) {
  return pattern.find_first_of("*?[") != std::string::npos;
}

std::filesystem::path against(const std::filesystem::path& folder, const std::string& written) {
  const std::filesystem::path path = written;
  return (path.is_absolute() ? path : folder / path).lexically_normal();
}

std::vector<std::filesystem::path> matches(const std::filesystem::path& pattern) {
  glob_t found{};
  const int status = ::glob(pattern.c_str(), 0, nullptr, &found);
  std::vector<std::filesystem::path> files;
  if (status == 0) {
    for (std::size_t i = 0; i < found.gl_pathc; ++i) {
      files.emplace_back(found.gl_pathv[i]);
    }
  }
  ::globfree(&found);
  files.erase(std::remove_if(files.begin(), files.end(),
                             [](const auto& file) { return !std::filesystem::is_regular_file(file); }),
              files.end());
  std::sort(files.begin(), files.end());
  return files;
}

/// The files one written entry (a file or a glob) stands for.
std::vector<std::filesystem::path> filesOf(const std::filesystem::path& folder, const std::string& written,
                                           const SourceLocation& location) {
  const std::filesystem::path path = against(folder, written);
  if (isGlob(written)) {
    auto files = matches(path);
    if (files.empty()) {
      throwConfigError("no network matches '" + written + "'", location,
                       "the pattern is relative to " + folder.string());
    }
    return files;
  }
  if (!std::filesystem::is_regular_file(path)) {
    throwConfigError("network '" + written + "' does not exist", location, "looked for " + path.string());
  }
  return {path};
}

} // namespace

std::vector<Configuration> expandConfigurations(const SweepSpec& spec) {
  std::vector<Configuration> configurations;
  std::vector<std::size_t> indices(spec.axes.size(), 0);
  while (true) {
    Configuration configuration{indices, spec.baseSettings};
    for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
      const auto& settings = spec.axes[axis].values[indices[axis]].settings;
      configuration.settings.insert(configuration.settings.end(), settings.begin(), settings.end());
    }
    configurations.push_back(std::move(configuration));
    // Odometer step: the last axis turns fastest.
    std::size_t axis = spec.axes.size();
    while (axis > 0) {
      --axis;
      if (++indices[axis] < spec.axes[axis].values.size()) {
        break;
      }
      indices[axis] = 0;
      if (axis == 0) {
        return configurations;
      }
    }
    if (spec.axes.empty()) {
      return configurations;
    }
  }
}

std::vector<std::filesystem::path> expandNetworks(const SweepSpec& spec) {
  const std::filesystem::path folder = spec.file.parent_path();
  std::vector<std::filesystem::path> networks;
  std::set<std::filesystem::path> seen;
  const auto add = [&](const std::vector<std::filesystem::path>& files) {
    for (const auto& file : files) {
      if (seen.insert(file).second) {
        networks.push_back(file);
      }
    }
  };
  for (const auto& entry : spec.networks) {
    if (entry.pattern.starts_with("@")) {
      const std::filesystem::path list = against(folder, entry.pattern.substr(1));
      std::ifstream in(list);
      if (!in) {
        throwConfigError("cannot read the network list '" + list.string() + "'", entry.location);
      }
      std::string line;
      int number = 0;
      while (std::getline(in, line)) {
        ++number;
        line.erase(0, line.find_first_not_of(" \t"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (!line.empty() && !line.starts_with("#")) {
          add(filesOf(list.parent_path(), line, SourceLocation{list.string(), number, 1, {}}));
        }
      }
    } else {
      add(filesOf(folder, entry.pattern, entry.location));
    }
  }
  return networks;
}

std::string networkLabel(const SweepSpec& spec, const std::filesystem::path& network) {
  const std::filesystem::path relative = network.lexically_relative(spec.file.parent_path());
  const bool outside = relative.empty() || *relative.begin() == "..";
  return outside ? network.string() : relative.string();
}

Shard parseShard(const std::string& text) {
  const auto slash = text.find('/');
  const auto fail = [&]() -> Shard {
    throw Error(ErrorKind::Usage, "--shard '" + text + "' is not I/N with 0 <= I < N", {},
                "e.g. --shard 0/4 runs the first of four slices");
  };
  if (slash == std::string::npos) {
    return fail();
  }
  try {
    std::size_t usedIndex = 0;
    std::size_t usedCount = 0;
    const std::string indexText = text.substr(0, slash);
    const std::string countText = text.substr(slash + 1);
    const long index = std::stol(indexText, &usedIndex);
    const long count = std::stol(countText, &usedCount);
    if (usedIndex != indexText.size() || usedCount != countText.size() || index < 0 || count < 1 || index >= count) {
      return fail();
    }
    return Shard{static_cast<std::size_t>(index), static_cast<std::size_t>(count)};
  } catch (const std::logic_error&) {
    return fail();
  }
}

} // namespace npu::sweep
