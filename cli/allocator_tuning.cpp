// SPDX-License-Identifier: Apache-2.0
#include "allocator_tuning.hpp"

#include <cstdlib>
#include <string_view>
#include <system_error>
#include <vector>

#if defined(__GLIBC__)
#include <unistd.h>
#endif

namespace npu::cli {

namespace {

/// glibc reads malloc's huge-page tunable from 2.35 on (older ones ignore the variable's other fields
/// too, so there is no reason to re-execute for them).
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
constexpr bool kTunablesSupported = true;
#else
constexpr bool kTunablesSupported = false;
#endif

constexpr const char* kTunablesVariable = "GLIBC_TUNABLES";

struct ProcessState {
  std::vector<char*> arguments; ///< argv, null-terminated
  bool reexecuted = false;      ///< this process started with kAllocatorTunables set by the parent
  std::string decision = "default (no model compiled)";
  bool smallModel = false; ///< the model compiled is a regular file below kTunedModelBytes
};

ProcessState& processState() {
  static ProcessState state;
  return state;
}

} // namespace

void rememberProcess(int argc, char** argv) {
  ProcessState& state = processState();
  state.arguments.assign(argv, argv + argc);
  state.arguments.push_back(nullptr);
  const char* tunables = std::getenv(kTunablesVariable);
  if (tunables != nullptr && std::string_view(tunables) == kAllocatorTunables) {
    state.reexecuted = true;
    ::unsetenv(kTunablesVariable); // glibc has read it; processes started from here start as usual
  }
}

void tuneAllocatorFor(const std::filesystem::path& model) {
  ProcessState& state = processState();
  std::error_code error;
  const bool regular = std::filesystem::is_regular_file(model, error);
  const std::uintmax_t bytes = regular ? std::filesystem::file_size(model, error) : 0;
  state.smallModel = regular && !error && bytes < kTunedModelBytes;
  if (state.reexecuted) {
    state.decision = std::string("tuned for a small model (") + kTunablesVariable + "=" + kAllocatorTunables + ")";
    return;
  }
  if (std::getenv(kTunablesVariable) != nullptr) {
    state.decision = std::string("as ") + kTunablesVariable + " sets it";
    return;
  }
  if (!kTunablesSupported || state.arguments.empty()) {
    state.decision = "default (the C library has no huge-page tunable)";
    return;
  }
  if (const char* preload = std::getenv("LD_PRELOAD"); preload != nullptr && *preload != '\0') {
    // A tool in the process (valgrind, a profiler or sanitizer runtime) may not follow a re-execution.
    state.decision = "default (LD_PRELOAD is set: a tool may be watching this process)";
    return;
  }
  if (!regular || error) {
    state.decision = "default (the model is not a regular file)";
    return;
  }
  if (!state.smallModel) {
    state.decision =
        "default (a model of " + std::to_string(bytes >> 20U) + " MiB: the memory of huge pages matters more)";
    return;
  }
  if (bytes < kTunedModelMinBytes) {
    state.decision = "default (a model of " + std::to_string(bytes >> 10U) +
                     " KiB: re-executing would cost more than its page faults)";
    return;
  }
#if defined(__GLIBC__)
  // The program's own file by its resolved name (not /proc/self/exe, which would name the process "exe").
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error && ::setenv(kTunablesVariable, kAllocatorTunables, 1) == 0) {
    ::execv(program.c_str(), state.arguments.data());
    ::unsetenv(kTunablesVariable); // execv failed: compile as is
  }
#endif
  state.decision = "default (re-executing with the tuning failed)";
}

bool compilingSmallModel() {
  return processState().smallModel;
}

std::string allocatorTuningDescription() {
  return processState().decision;
}

} // namespace npu::cli
