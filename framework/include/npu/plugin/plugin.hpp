// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/plugin/abi_hash.hpp" // generated at build time: kPluginHeaderHash
#include "npu/plugin/options.hpp"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace npu {

/// Version of the plugin API. Bump it on any change a compiled plugin could notice; the header hash
/// additionally catches changes to the headers that were not accompanied by a bump.
inline constexpr std::uint32_t kPluginApiVersion = 3;

enum class PluginKind : std::uint32_t {
  Frontend = 1,    ///< reads a model file into a Graph
  Lowering = 2,    ///< rewrites a Graph into what an accelerator executes
  Accelerator = 3, ///< architecture, supported operators, block configs, weight encoding, cost model
  Scheduler = 4,   ///< decides how each NPU operation is run (blocks, stripes, cascades, buffers)
  Allocator = 5,   ///< assigns addresses to live ranges
  Codegen = 6,     ///< turns the scheduled, allocated graph into the deployable output model
};
[[nodiscard]] std::string_view nameOf(PluginKind kind);
[[nodiscard]] std::optional<PluginKind> pluginKindFromName(std::string_view name);

/// Base of every plugin. A plugin object is created once per process by the host and then used
/// read-only, possibly from several threads: every const member must be thread-safe.
class NPU_API Plugin {
public:
  virtual ~Plugin() = default;
  /// The options this plugin accepts in pipeline YAML (validated strictly by the host).
  [[nodiscard]] virtual std::vector<OptionSpec> options() const { return {}; }
};

using PluginFactory = std::unique_ptr<Plugin> (*)();

/// What the exported entry point returns. The first two fields never move, so a host can check them
/// on any plugin, old or new, before it reads the rest.
struct PluginDescriptor {
  std::uint32_t apiVersion;
  std::uint64_t headerHash;
  const char* id;      ///< unique name used in pipeline YAML, e.g. "perf_u55"
  PluginKind kind;
  const char* version; ///< the plugin's own version, e.g. "1.2.0"
  const char* summary; ///< one line for `npu-pipeline plugins`
  PluginFactory factory;
};

/// Name of the single C entry point every plugin library exports.
inline constexpr const char* kPluginEntryPoint = "npu_pipeline_plugin_descriptor";

} // namespace npu

#define NPU_PIPELINE_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

/// Declares the entry point of a plugin library, e.g.
///   NPU_PIPELINE_PLUGIN("scheduler_cascade", npu::PluginKind::Scheduler, "1.0.0",
///                       "Vela 3.x cascade scheduler", CascadeSchedulerPlugin)
#define NPU_PIPELINE_PLUGIN(ID, KIND, VERSION, SUMMARY, CLASS)                                        \
  NPU_PIPELINE_PLUGIN_EXPORT const ::npu::PluginDescriptor* npu_pipeline_plugin_descriptor() {      \
    static const ::npu::PluginDescriptor descriptor{                                                 \
        ::npu::kPluginApiVersion, ::npu::kPluginHeaderHash, ID, KIND, VERSION, SUMMARY,              \
        []() -> std::unique_ptr<::npu::Plugin> { return std::make_unique<CLASS>(); }};               \
    return &descriptor;                                                                              \
  }
