// SPDX-License-Identifier: Apache-2.0
#include "npu/host/plugin_host.hpp"

#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/allocator.hpp"
#include "npu/plugin/codegen.hpp"
#include "npu/plugin/frontend.hpp"
#include "npu/plugin/lowering.hpp"
#include "npu/plugin/scheduler.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include "isolated_call.hpp"
#include "loaded_image.hpp"
#include "plugin_file_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <mutex>
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

/// The library's own description of itself, read through pointers checked against its loaded image.
struct Described {
  LoadedPluginInfo info;
  PluginFactory factory = nullptr;
};

/// Calls the entry point and checks what it returns; returns the reason on refusal.
std::string describe(const boost::dll::shared_library& library, const std::filesystem::path& path,
                     Described& described) {
  if (!library.has(kPluginEntryPoint)) {
    return std::string("missing entry point '") + kPluginEntryPoint +
           "': not an npu-pipeline plugin (declare it with NPU_PIPELINE_PLUGIN)";
  }
  auto& entryPoint = library.get<const PluginDescriptor*()>(kPluginEntryPoint);
  const auto image = detail::LoadedImage::containing(reinterpret_cast<const void*>(&entryPoint));
  if (!image || !image->executable(reinterpret_cast<const void*>(&entryPoint))) {
    return std::string("entry point '") + kPluginEntryPoint + "' is not code of the library";
  }
  const PluginDescriptor* descriptor = nullptr;
  try {
    descriptor = entryPoint();
  } catch (...) {
    return std::string("entry point '") + kPluginEntryPoint + "' threw an exception";
  }
  if (descriptor == nullptr) {
    return std::string("entry point '") + kPluginEntryPoint + "' returned no descriptor";
  }
  // The version and hash lead every descriptor, old or new: check them before reading further.
  if (!image->readable(descriptor, offsetof(PluginDescriptor, id))) {
    return std::string("entry point '") + kPluginEntryPoint + "' returned a pointer outside the library";
  }
  if (descriptor->apiVersion != kPluginApiVersion) {
    return "built for plugin API version " + std::to_string(descriptor->apiVersion) +
           ", but this npu-pipeline provides version " + std::to_string(kPluginApiVersion) +
           "; rebuild the plugin against the matching SDK";
  }
  if (descriptor->headerHash != kPluginHeaderHash) {
    return "built against different npu-pipeline headers (header hash " + hex(descriptor->headerHash) + ", expected " +
           hex(kPluginHeaderHash) + "); rebuild the plugin against the installed SDK";
  }
  if (!image->readable(descriptor, sizeof(PluginDescriptor))) {
    return "its descriptor does not lie inside the library";
  }
  for (const char* text : {descriptor->id, descriptor->version, descriptor->summary}) {
    if (text != nullptr && !image->holdsString(text)) {
      return "its descriptor names a string outside the library";
    }
  }
  const std::string id = descriptor->id != nullptr ? descriptor->id : "";
  if (!isValidId(id)) {
    return "invalid plugin id '" + id + "' (use letters, digits, '_', '-', '.')";
  }
  if (nameOf(descriptor->kind) == "unknown") {
    return "plugin '" + id + "' declares an unknown kind " +
           std::to_string(static_cast<std::uint32_t>(descriptor->kind));
  }
  if (descriptor->factory == nullptr) {
    return "plugin '" + id + "' has no factory";
  }
  if (!image->executable(reinterpret_cast<const void*>(descriptor->factory))) {
    return "the factory of plugin '" + id + "' does not point into the library's code";
  }
  described.info = {id, descriptor->kind, descriptor->version != nullptr ? descriptor->version : "",
                    descriptor->summary != nullptr ? descriptor->summary : "", path};
  described.factory = descriptor->factory;
  return {};
}

/// Calls the factory and checks the object; returns the reason on refusal.
std::string create(const Described& described, std::unique_ptr<Plugin>& plugin) {
  const std::string& id = described.info.id;
  try {
    plugin = described.factory();
  } catch (const std::exception& error) {
    return "factory of plugin '" + id + "' threw: " + error.what();
  } catch (...) {
    return "factory of plugin '" + id + "' threw a non-standard exception";
  }
  if (!plugin) {
    return "factory of plugin '" + id + "' returned nothing";
  }
  if (!implementsKind(*plugin, described.info.kind)) {
    return "plugin '" + id + "' declares kind " + std::string(nameOf(described.info.kind)) +
           " but does not implement that interface";
  }
  return {};
}

boost::dll::shared_library openLibrary(const std::filesystem::path& path, std::string& reason) {
  boost::dll::shared_library library;
  try {
    library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& error) {
    reason = std::string("not a loadable shared library (") + error.what() + ")";
  }
  return library;
}

/// A loaded and described plugin as the child process reports it: fields separated by NUL bytes.
std::string encodeAccepted(const LoadedPluginInfo& info) {
  std::string text = "accepted";
  for (const std::string& field :
       {info.id, std::to_string(static_cast<std::uint32_t>(info.kind)), info.version, info.summary}) {
    text += '\0' + field;
  }
  return text;
}

std::vector<std::string> splitFields(const std::string& text) {
  std::vector<std::string> fields;
  std::size_t begin = 0;
  for (;;) {
    const auto end = text.find('\0', begin);
    fields.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) {
      return fields;
    }
    begin = end + 1;
  }
}

/// How long a child process may take to load and describe one library.
constexpr std::chrono::seconds kInspectionTimeout{20};

} // namespace

struct PluginHost::Impl {
  struct Entry {
    // Declared first so that it is destroyed last: the plugin object's code lives in the library.
    boost::dll::shared_library library;
    std::unique_ptr<Plugin> plugin;
    LoadedPluginInfo info;
  };
  Loading loading = Loading::InProcess;
  bool pipelinePluginPathsAllowed = false;
  std::deque<Entry> entries; // a deque: lazy loading must not move entries others point at
  std::vector<LoadedPluginInfo> infos;
  std::vector<RefusedPlugin> refused;
  std::vector<std::filesystem::path> searched;
  std::set<std::filesystem::path> seenFiles;
  std::vector<std::filesystem::path> pending; ///< checked candidates not opened yet, in search order
  std::recursive_mutex mutex;

  void refuse(const std::filesystem::path& path, std::string reason) { refused.push_back({path, std::move(reason)}); }

  std::string duplicateOf(const std::string& id) const {
    for (const auto& info : infos) {
      if (info.id == id) {
        return "duplicate plugin id '" + id + "': already provided by " + info.path.string();
      }
    }
    return {};
  }

  /// Opens the library in this process; returns the reason on refusal.
  std::string loadHere(const std::filesystem::path& path) {
    std::string reason;
    auto library = openLibrary(path, reason);
    Described described;
    if (reason.empty()) {
      reason = describe(library, path, described);
    }
    if (reason.empty()) {
      reason = duplicateOf(described.info.id);
    }
    std::unique_ptr<Plugin> plugin;
    if (reason.empty()) {
      reason = create(described, plugin);
    }
    if (!reason.empty()) {
      return reason;
    }
    infos.push_back(described.info);
    entries.push_back(Entry{std::move(library), std::move(plugin), std::move(described.info)});
    return {};
  }

  /// Opens the library in a child process that reports what it found; returns the reason on refusal.
  std::string inspectInChild(const std::filesystem::path& path) {
    const auto outcome = detail::runIsolated(
        [&path]() -> std::string {
          std::string reason;
          auto library = openLibrary(path, reason);
          Described described;
          std::unique_ptr<Plugin> plugin;
          if (reason.empty()) {
            reason = describe(library, path, described);
          }
          if (reason.empty()) {
            reason = create(described, plugin);
          }
          return reason.empty() ? encodeAccepted(described.info) : "refused" + ('\0' + reason);
        },
        kInspectionTimeout);
    if (!outcome.answer) {
      return "loading it " + outcome.failure;
    }
    const auto fields = splitFields(*outcome.answer);
    if (fields.size() == 2 && fields[0] == "refused") {
      return fields[1];
    }
    if (fields.size() != 5 || fields[0] != "accepted") {
      return "loading it gave an unreadable answer";
    }
    if (auto duplicate = duplicateOf(fields[1]); !duplicate.empty()) {
      return duplicate;
    }
    infos.push_back({fields[1], static_cast<PluginKind>(std::stoul(fields[2])), fields[3], fields[4], path});
    return {};
  }

  /// Opens one checked candidate; false when it was refused.
  bool open(const std::filesystem::path& path) {
    std::string reason = loading == Loading::InProcess ? loadHere(path) : inspectInChild(path);
    if (!reason.empty()) {
      refuse(path, std::move(reason));
    }
    return reason.empty();
  }

  const Entry* entryFor(PluginKind kind, std::string_view id) const {
    for (const auto& entry : entries) {
      if (entry.info.kind == kind && entry.info.id == id) {
        return &entry;
      }
    }
    return nullptr;
  }

  /// Opens candidates until one provides the plugin: the file named after the id first, then the
  /// others in search order.
  const Entry* loadFor(PluginKind kind, std::string_view id) {
    if (const Entry* entry = entryFor(kind, id)) {
      return entry;
    }
    const std::string wanted(id);
    const auto named = [&](const std::filesystem::path& path) {
      const std::string name = path.filename().string();
      return name == "npu_" + wanted + ".so" || name == wanted + ".so";
    };
    for (auto it = pending.begin(); it != pending.end();) {
      if (!named(*it)) {
        ++it;
        continue;
      }
      const auto path = *it;
      it = pending.erase(it);
      open(path);
      if (const Entry* entry = entryFor(kind, id)) {
        return entry;
      }
    }
    while (!pending.empty()) {
      const auto path = pending.front();
      pending.erase(pending.begin());
      open(path);
      if (const Entry* entry = entryFor(kind, id)) {
        return entry;
      }
    }
    return nullptr;
  }

  void loadAll() {
    while (!pending.empty()) {
      const auto path = pending.front();
      pending.erase(pending.begin());
      open(path);
    }
  }
};

PluginHost::PluginHost(Loading loading) : impl_(std::make_unique<Impl>()) {
  impl_->loading = loading;
}
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
    if (std::none_of(unique.begin(), unique.end(),
                     [&](const auto& seen) { return canonicalOrSelf(seen) == canonical; })) {
      unique.push_back(entry);
    }
  }
  return unique;
}

void PluginHost::loadDirectory(const std::filesystem::path& directory) {
  const std::lock_guard lock(impl_->mutex);
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
    if (!impl_->seenFiles.insert(canonicalOrSelf(file)).second) {
      continue;
    }
    if (auto reason = detail::checkPluginFile(file, kPluginEntryPoint); !reason.empty()) {
      impl_->refuse(file, std::move(reason));
    } else {
      impl_->pending.push_back(file);
    }
  }
}

bool PluginHost::loadFile(const std::filesystem::path& file) {
  const std::lock_guard lock(impl_->mutex);
  const auto canonical = canonicalOrSelf(file);
  const auto isCanonical = [&](const std::filesystem::path& path) { return canonicalOrSelf(path) == canonical; };
  if (!impl_->seenFiles.insert(canonical).second) {
    const auto pending = std::find_if(impl_->pending.begin(), impl_->pending.end(), isCanonical);
    if (pending == impl_->pending.end()) {
      return std::any_of(impl_->infos.begin(), impl_->infos.end(),
                         [&](const LoadedPluginInfo& info) { return isCanonical(info.path); });
    }
    const auto path = *pending;
    impl_->pending.erase(pending);
    return impl_->open(path);
  }
  if (auto reason = detail::checkPluginFile(file, kPluginEntryPoint); !reason.empty()) {
    impl_->refuse(file, std::move(reason));
    return false;
  }
  return impl_->open(file);
}

void PluginHost::loadSearchPath(const std::vector<std::filesystem::path>& directories) {
  for (const auto& directory : directories) {
    loadDirectory(directory);
  }
}

void PluginHost::allowPipelinePluginPaths(bool allowed) {
  impl_->pipelinePluginPathsAllowed = allowed;
}
bool PluginHost::pipelinePluginPathsAllowed() const {
  return impl_->pipelinePluginPathsAllowed;
}

const std::vector<LoadedPluginInfo>& PluginHost::plugins() const {
  const std::lock_guard lock(impl_->mutex);
  impl_->loadAll();
  return impl_->infos;
}

const std::vector<RefusedPlugin>& PluginHost::refused() const {
  const std::lock_guard lock(impl_->mutex);
  impl_->loadAll();
  return impl_->refused;
}

const std::vector<std::filesystem::path>& PluginHost::searchedDirectories() const {
  return impl_->searched;
}

const Plugin* PluginHost::find(PluginKind kind, std::string_view id) const {
  const std::lock_guard lock(impl_->mutex);
  const auto* entry = impl_->loadFor(kind, id);
  return entry != nullptr ? entry->plugin.get() : nullptr;
}

const LoadedPluginInfo* PluginHost::info(PluginKind kind, std::string_view id) const {
  const std::lock_guard lock(impl_->mutex);
  const auto* entry = impl_->loadFor(kind, id);
  return entry != nullptr ? &entry->info : nullptr;
}

const Plugin& PluginHost::require(PluginKind kind, std::string_view id, const SourceLocation& where) const {
  if (const Plugin* plugin = find(kind, id)) {
    return *plugin;
  }
  std::string available;
  for (const auto& info : plugins()) {
    if (info.kind == kind) {
      available += (available.empty() ? "" : ", ") + info.id;
    }
  }
  std::string hint = available.empty() ? "no " + std::string(nameOf(kind)) + " plugins were found"
                                       : "available " + std::string(nameOf(kind)) + " plugins: " + available;
  for (const auto& refused : refused()) {
    if (refused.path.filename().string().find(id) != std::string::npos) {
      hint += "; " + refused.path.string() + " was refused: " + refused.reason;
    }
  }
  hint += "; run `npu-pipeline plugins` to see the search path";
  throwConfigError("no " + std::string(nameOf(kind)) + " plugin '" + std::string(id) + "'", where, hint);
}

} // namespace npu
