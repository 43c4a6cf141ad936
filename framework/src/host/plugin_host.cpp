#include "npu/host/plugin_host.hpp"

#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/allocator.hpp"
#include "npu/plugin/codegen.hpp"
#include "npu/plugin/frontend.hpp"
#include "npu/plugin/lowering.hpp"
#include "npu/plugin/scheduler.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

namespace npu {

namespace {

std::string hex(std::uint64_t value) {
  std::ostringstream out;
  out << std::hex << value;
  return out.str();
}

/// True when the object really implements the interface its descriptor claims.
bool implementsKind(const Plugin& plugin, PluginKind kind) {
  switch (kind) {
  case PluginKind::Frontend:
    return dynamic_cast<const FrontendPlugin*>(&plugin) != nullptr;
  case PluginKind::Lowering:
    return dynamic_cast<const LoweringPlugin*>(&plugin) != nullptr;
  case PluginKind::Accelerator:
    return dynamic_cast<const AcceleratorPlugin*>(&plugin) != nullptr;
  case PluginKind::Scheduler:
    return dynamic_cast<const SchedulerPlugin*>(&plugin) != nullptr;
  case PluginKind::Allocator:
    return dynamic_cast<const AllocatorPlugin*>(&plugin) != nullptr;
  case PluginKind::Codegen:
    return dynamic_cast<const CodegenPlugin*>(&plugin) != nullptr;
  }
  return false;
}

bool isValidId(std::string_view id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  });
}

std::filesystem::path canonicalOrSelf(const std::filesystem::path& path) {
  std::error_code error;
  auto canonical = std::filesystem::weakly_canonical(path, error);
  return error ? path : canonical;
}

bool looksLikeSharedLibrary(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return name.ends_with(".so") || name.find(".so.") != std::string::npos;
}

} // namespace

struct PluginHost::Impl {
  struct Entry {
    // Declared first so that it is destroyed last: the plugin object's code lives in the library.
    boost::dll::shared_library library;
    std::unique_ptr<Plugin> plugin;
    LoadedPluginInfo info;
  };
  std::vector<Entry> entries;
  std::vector<LoadedPluginInfo> infos;
  std::vector<RefusedPlugin> refused;
  std::vector<std::filesystem::path> searched;
  std::set<std::filesystem::path> seenFiles;

  void refuse(const std::filesystem::path& path, std::string reason) {
    refused.push_back({path, std::move(reason)});
  }

  /// Opens the library and validates its descriptor; returns the reason on refusal.
  std::string tryLoad(const std::filesystem::path& path) {
    boost::dll::shared_library library;
    try {
      library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::exception& error) {
      return std::string("not a loadable shared library (") + error.what() + ")";
    }
    if (!library.has(kPluginEntryPoint)) {
      return std::string("missing entry point '") + kPluginEntryPoint +
             "': not an npu-pipeline plugin (declare it with NPU_PIPELINE_PLUGIN)";
    }
    const PluginDescriptor* descriptor = nullptr;
    try {
      descriptor = library.get<const PluginDescriptor*()>(kPluginEntryPoint)();
    } catch (...) {
      return std::string("entry point '") + kPluginEntryPoint + "' threw an exception";
    }
    if (descriptor == nullptr) {
      return std::string("entry point '") + kPluginEntryPoint + "' returned no descriptor";
    }
    if (descriptor->apiVersion != kPluginApiVersion) {
      return "built for plugin API version " + std::to_string(descriptor->apiVersion) +
             ", but this npu-pipeline provides version " + std::to_string(kPluginApiVersion) +
             "; rebuild the plugin against the matching SDK";
    }
    if (descriptor->headerHash != kPluginHeaderHash) {
      return "built against different npu-pipeline headers (header hash " + hex(descriptor->headerHash) +
             ", expected " + hex(kPluginHeaderHash) + "); rebuild the plugin against the installed SDK";
    }
    const std::string id = descriptor->id != nullptr ? descriptor->id : "";
    if (!isValidId(id)) {
      return "invalid plugin id '" + id + "' (use letters, digits, '_', '-', '.')";
    }
    if (nameOf(descriptor->kind) == "unknown") {
      return "plugin '" + id + "' declares an unknown kind " +
             std::to_string(static_cast<std::uint32_t>(descriptor->kind));
    }
    for (const auto& entry : entries) {
      if (entry.info.id == id) {
        return "duplicate plugin id '" + id + "': already provided by " + entry.info.path.string();
      }
    }
    if (descriptor->factory == nullptr) {
      return "plugin '" + id + "' has no factory";
    }
    std::unique_ptr<Plugin> plugin;
    try {
      plugin = descriptor->factory();
    } catch (const std::exception& error) {
      return "factory of plugin '" + id + "' threw: " + error.what();
    } catch (...) {
      return "factory of plugin '" + id + "' threw a non-standard exception";
    }
    if (!plugin) {
      return "factory of plugin '" + id + "' returned nothing";
    }
    if (!implementsKind(*plugin, descriptor->kind)) {
      return "plugin '" + id + "' declares kind " + std::string(nameOf(descriptor->kind)) +
             " but does not implement that interface";
    }
    LoadedPluginInfo info{id, descriptor->kind, descriptor->version != nullptr ? descriptor->version : "",
                          descriptor->summary != nullptr ? descriptor->summary : "", path};
    infos.push_back(info);
    entries.push_back(Entry{std::move(library), std::move(plugin), std::move(info)});
    return {};
  }
};

PluginHost::PluginHost() : impl_(std::make_unique<Impl>()) {}
PluginHost::~PluginHost() = default;
PluginHost::PluginHost(PluginHost&&) noexcept = default;
PluginHost& PluginHost::operator=(PluginHost&&) noexcept = default;

std::vector<std::filesystem::path> PluginHost::defaultSearchPath() {
  std::vector<std::filesystem::path> path;
  if (const char* env = std::getenv("NPU_PIPELINE_PLUGIN_PATH"); env != nullptr) {
    std::string_view remaining(env);
    while (!remaining.empty()) {
      const auto colon = remaining.find(':');
      const auto entry = remaining.substr(0, colon);
      if (!entry.empty()) {
        path.emplace_back(entry);
      }
      remaining = colon == std::string_view::npos ? std::string_view{} : remaining.substr(colon + 1);
    }
  }
  std::error_code error;
  const auto program = boost::dll::program_location(error);
  if (!error) {
    path.push_back(program.parent_path().parent_path() / NPU_PLUGIN_INSTALL_DIR);
  }
  path.push_back(std::filesystem::path(NPU_INSTALL_PREFIX) / NPU_PLUGIN_INSTALL_DIR);
  // The binary usually runs from its install prefix: list each directory once.
  std::vector<std::filesystem::path> unique;
  for (const auto& entry : path) {
    const auto canonical = canonicalOrSelf(entry);
    if (std::none_of(unique.begin(), unique.end(), [&](const auto& seen) { return canonicalOrSelf(seen) == canonical; })) {
      unique.push_back(entry);
    }
  }
  return unique;
}

void PluginHost::loadDirectory(const std::filesystem::path& directory) {
  impl_->searched.push_back(directory);
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) {
    return;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.is_regular_file(error) && looksLikeSharedLibrary(entry.path())) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    loadFile(file);
  }
}

bool PluginHost::loadFile(const std::filesystem::path& file) {
  const auto canonical = canonicalOrSelf(file);
  if (!impl_->seenFiles.insert(canonical).second) {
    return std::any_of(impl_->infos.begin(), impl_->infos.end(),
                       [&](const LoadedPluginInfo& info) { return canonicalOrSelf(info.path) == canonical; });
  }
  std::string reason = impl_->tryLoad(file);
  if (reason.empty()) {
    return true;
  }
  impl_->refuse(file, std::move(reason));
  return false;
}

void PluginHost::loadSearchPath(const std::vector<std::filesystem::path>& directories) {
  for (const auto& directory : directories) {
    loadDirectory(directory);
  }
}

const std::vector<LoadedPluginInfo>& PluginHost::plugins() const { return impl_->infos; }
const std::vector<RefusedPlugin>& PluginHost::refused() const { return impl_->refused; }
const std::vector<std::filesystem::path>& PluginHost::searchedDirectories() const { return impl_->searched; }

const Plugin* PluginHost::find(PluginKind kind, std::string_view id) const {
  for (const auto& entry : impl_->entries) {
    if (entry.info.kind == kind && entry.info.id == id) {
      return entry.plugin.get();
    }
  }
  return nullptr;
}

const LoadedPluginInfo* PluginHost::info(PluginKind kind, std::string_view id) const {
  for (const auto& entry : impl_->entries) {
    if (entry.info.kind == kind && entry.info.id == id) {
      return &entry.info;
    }
  }
  return nullptr;
}

const Plugin& PluginHost::require(PluginKind kind, std::string_view id, const SourceLocation& where) const {
  if (const Plugin* plugin = find(kind, id)) {
    return *plugin;
  }
  std::string available;
  for (const auto& info : impl_->infos) {
    if (info.kind == kind) {
      available += (available.empty() ? "" : ", ") + info.id;
    }
  }
  std::string hint = available.empty() ? "no " + std::string(nameOf(kind)) + " plugins were found"
                                       : "available " + std::string(nameOf(kind)) + " plugins: " + available;
  for (const auto& refused : impl_->refused) {
    if (refused.path.filename().string().find(id) != std::string::npos) {
      hint += "; " + refused.path.string() + " was refused: " + refused.reason;
    }
  }
  hint += "; run `npu-pipeline plugins` to see the search path";
  throwConfigError("no " + std::string(nameOf(kind)) + " plugin '" + std::string(id) + "'", where, hint);
}

} // namespace npu
