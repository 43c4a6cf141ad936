#pragma once

#include "npu/core/api.hpp"
#include "npu/core/diagnostics.hpp"
#include "npu/plugin/plugin.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace npu {

/// A plugin library the host loaded and accepted.
struct LoadedPluginInfo {
  std::string id;
  PluginKind kind = PluginKind::Frontend;
  std::string version;
  std::string summary;
  std::filesystem::path path;
};

/// A file the host looked at and refused, with the reason.
struct RefusedPlugin {
  std::filesystem::path path;
  std::string reason;
};

/// Finds plugin libraries, loads them with Boost.DLL, checks their ABI descriptor, creates each
/// plugin object once and registers it by kind and id. A refused library never stops the host: it is
/// recorded with its reason and loading goes on. Load everything before parallel work starts; lookups
/// are then read-only and thread-safe.
class NPU_API PluginHost {
public:
  PluginHost();
  ~PluginHost();
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;
  PluginHost(PluginHost&&) noexcept;
  PluginHost& operator=(PluginHost&&) noexcept;

  /// The default search path, in priority order: the directories of NPU_PIPELINE_PLUGIN_PATH
  /// (colon-separated), the plugin directory next to the running binary (<bin>/../lib/npu-pipeline/
  /// plugins), and the install prefix's plugin directory. Missing directories are skipped.
  [[nodiscard]] static std::vector<std::filesystem::path> defaultSearchPath();

  /// Loads every shared library (*.so) in the directory, in name order. A missing directory is not
  /// an error (nothing is loaded).
  void loadDirectory(const std::filesystem::path& directory);
  /// Loads one library; returns true when it was accepted. The same file twice is loaded once.
  bool loadFile(const std::filesystem::path& file);
  /// loadDirectory for each entry of the path.
  void loadSearchPath(const std::vector<std::filesystem::path>& directories);

  [[nodiscard]] const std::vector<LoadedPluginInfo>& plugins() const;
  [[nodiscard]] const std::vector<RefusedPlugin>& refused() const;
  [[nodiscard]] const std::vector<std::filesystem::path>& searchedDirectories() const;

  /// The plugin of that kind and id, or null.
  [[nodiscard]] const Plugin* find(PluginKind kind, std::string_view id) const;
  [[nodiscard]] const LoadedPluginInfo* info(PluginKind kind, std::string_view id) const;
  /// Like find(), but a missing plugin is a Config error at `where` that lists what is available and
  /// why similarly named files were refused.
  [[nodiscard]] const Plugin& require(PluginKind kind, std::string_view id, const SourceLocation& where) const;

  template <typename Interface>
  [[nodiscard]] const Interface& require(PluginKind kind, std::string_view id, const SourceLocation& where) const {
    // The kind was verified against the interface when the plugin was loaded.
    return static_cast<const Interface&>(require(kind, id, where));
  }

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace npu
