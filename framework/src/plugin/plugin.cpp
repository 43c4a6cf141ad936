// SPDX-License-Identifier: Apache-2.0
#include "npu/plugin/plugin.hpp"

#include <array>

namespace npu {

namespace {
constexpr std::array<std::pair<PluginKind, std::string_view>, 6> kKindNames{{
    {PluginKind::Frontend, "frontend"},
    {PluginKind::Lowering, "lowering"},
    {PluginKind::Accelerator, "accelerator"},
    {PluginKind::Scheduler, "scheduler"},
    {PluginKind::Allocator, "allocator"},
    {PluginKind::Codegen, "codegen"},
}};
} // namespace

std::string_view nameOf(PluginKind kind) {
  for (const auto& [candidate, name] : kKindNames) {
    if (candidate == kind) {
      return name;
    }
  }
  return "unknown";
}

std::optional<PluginKind> pluginKindFromName(std::string_view name) {
  for (const auto& [kind, candidate] : kKindNames) {
    if (candidate == name) {
      return kind;
    }
  }
  return std::nullopt;
}

} // namespace npu
