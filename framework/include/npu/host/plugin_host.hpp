// SPDX-License-Identifier: Apache-2.0
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
/// recorded with its reason and loading goes on.
///
/// The trust model (docs/reliability.md): every candidate file is checked before the loader sees it
/// (a regular ELF shared library of this machine, not truncated, under a size cap, whose entry point
/// is a function in executable code); the descriptor it returns is read, and its factory called, only
/// when they lie inside that library. Directories are loaded lazily: a lookup by id opens the file
/// named after the id (`npu_<id>.so` or `<id>.so`) first and the other candidates, in search order,
/// only when that does not provide it, so a broken library nobody asks for never runs. Listing all
/// plugins (plugins(), refused()) opens every candidate; with Loading::InspectInChild each is opened
/// in a child process instead, so that a library that crashes or exits while loading is refused
/// rather than ending this process. Resolve every plugin before parallel work starts; lookups of
/// loaded plugins are then read-only and thread-safe.
class NPU_API PluginHost {
public:
  enum class Loading {
    InProcess,      ///< plugins are loaded into this process and usable
    InspectInChild, ///< each candidate is loaded in a child process only to describe it (`plugins`)
  };

  explicit PluginHost(Loading loading = Loading::InProcess);
  ~PluginHost();
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;
  PluginHost(PluginHost&&) noexcept;
  PluginHost& operator=(PluginHost&&) noexcept;

  /// The default search path, in priority order: the directories of NPU_PIPELINE_PLUGIN_PATH
  /// (colon-separated), the plugin directory next to the running binary (<bin>/../lib/npu-pipeline/
  /// plugins), and the install prefix's plugin directory. Missing directories are skipped.
  [[nodiscard]] static std::vector<std::filesystem::path> defaultSearchPath();

  /// Adds every shared library (*.so) in the directory, in name order, as a candidate: checked now,
  /// opened when a lookup or a listing needs it. A missing directory is not an error.
  void loadDirectory(const std::filesystem::path& directory);
  /// Checks and loads one library now; returns true when it was accepted. The same file twice is
  /// loaded once.
  bool loadFile(const std::filesystem::path& file);
  /// loadDirectory for each entry of the path.
  void loadSearchPath(const std::vector<std::filesystem::path>& directories);

  /// Whether a pipeline file's `plugin_path:` may add directories (off by default: a pipeline from
  /// elsewhere must not run code; the command line turns it on with --allow-pipeline-plugins).
  void allowPipelinePluginPaths(bool allowed);
  [[nodiscard]] bool pipelinePluginPathsAllowed() const;

  /// Every accepted and refused candidate; opens the candidates not opened yet.
  [[nodiscard]] const std::vector<LoadedPluginInfo>& plugins() const;
  [[nodiscard]] const std::vector<RefusedPlugin>& refused() const;
  [[nodiscard]] const std::vector<std::filesystem::path>& searchedDirectories() const;

  /// The plugin of that kind and id, or null (always null with Loading::InspectInChild).
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
