// SPDX-License-Identifier: Apache-2.0
#pragma once

// An allocator plugin's test fixture: the built plugin library (NPU_ALLOCATOR_PLUGIN_FILE, set by the
// plugin's CMakeLists) loaded through the plugin host like the CLI loads it, and its options resolved.

#include "npu/host/plugin_host.hpp"
#include "npu/plugin/allocator.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <utility>

namespace npu::test {

using GivenOptions = std::map<std::string, std::pair<std::string, SourceLocation>>;

struct LoadedAllocator {
  PluginHost host;
  const AllocatorPlugin* allocator = nullptr;
  std::string id;

  explicit LoadedAllocator(std::string pluginId) : id(std::move(pluginId)) {
    BOOST_TEST_REQUIRE(host.loadFile(NPU_ALLOCATOR_PLUGIN_FILE));
    allocator = &host.require<AllocatorPlugin>(PluginKind::Allocator, id, {});
  }

  [[nodiscard]] OptionValues resolve(const GivenOptions& given = {}) const {
    return resolveOptions(allocator->options(), given, id);
  }
};

} // namespace npu::test
