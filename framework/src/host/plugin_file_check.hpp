// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace npu::detail {

/// Plugin libraries larger than this are refused unread (ours are a few MB, with debug info ~30 MB).
inline constexpr std::uintmax_t kMaxPluginFileBytes = std::uintmax_t{256} << 20;

/// Checks, without loading it, that a file can be a plugin for this process: a regular file under the
/// size cap, an ELF shared object of this machine's class, byte order and architecture, whose program and
/// section headers and loadable segments lie inside the file (a truncated library would otherwise fault
/// with SIGBUS when the loader touches a page past its end), and whose dynamic symbol table defines
/// `entryPoint` as a function in an executable section. Returns why it cannot, or "" when it can.
/// No code of the file runs: this is the gate in front of dlopen.
[[nodiscard]] std::string checkPluginFile(const std::filesystem::path& file, std::string_view entryPoint);

} // namespace npu::detail
