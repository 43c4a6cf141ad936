// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace npu::detail {

/// What a call run in a child process produced: its answer, or why there is none.
struct IsolatedOutcome {
  std::optional<std::string> answer;
  std::string failure; ///< e.g. "crashed with signal 11 (Segmentation fault)"; empty with an answer
};

/// Runs `work` in a forked child process with its standard output and error discarded, and returns the
/// string it produced, or how the child ended without producing one (a signal, exit() or _exit() from
/// plugin code, or running past `timeout`, after which it is killed). The caller's process is unaffected
/// by anything the child does. Call it only while this process runs a single thread (the plugin host does
/// so while loading, before any parallel work).
[[nodiscard]] IsolatedOutcome runIsolated(const std::function<std::string()>& work, std::chrono::milliseconds timeout);

} // namespace npu::detail
