// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace npu {

/// What kind of failure an Error is; decides the process exit code (see DESIGN.md).
enum class ErrorKind : std::uint8_t {
  Usage,    ///< bad command line                                  -> exit 2
  Config,   ///< bad pipeline YAML, missing or incompatible plugin  -> exit 2
  Model,    ///< malformed or unsupported model file               -> exit 1
  Compile,  ///< the model cannot be compiled (e.g. does not fit)  -> exit 1
  Internal, ///< a bug: an invariant of ours was broken            -> exit 1
};

/// Where an error was found: a file position (YAML, model file offset) and/or a graph object.
struct SourceLocation {
  std::string file;
  int line = 0;   ///< 1-based; 0 when unknown
  int column = 0; ///< 1-based; 0 when unknown
  std::string object; ///< e.g. "operator 12 'conv1' (CONV_2D)" or "tensor 'input'"

  [[nodiscard]] bool empty() const { return file.empty() && object.empty(); }
  /// "file:line:column", "file", "object" or "file:line:column: object".
  [[nodiscard]] std::string str() const;
};

/// The one error type of the project: what went wrong, where, and how to fix it.
class NPU_API Error : public std::runtime_error {
public:
  Error(ErrorKind kind, std::string message, SourceLocation location = {}, std::string hint = {});

  [[nodiscard]] ErrorKind kind() const { return kind_; }
  [[nodiscard]] const std::string& message() const { return message_; }
  [[nodiscard]] const SourceLocation& location() const { return location_; }
  [[nodiscard]] const std::string& hint() const { return hint_; }
  /// Exit code for this kind of error: 2 for usage/config, 1 otherwise.
  [[nodiscard]] int exitCode() const;
  /// The full text a user sees: "location: error: message\n  hint: ...".
  [[nodiscard]] std::string render() const;

private:
  ErrorKind kind_;
  std::string message_;
  SourceLocation location_;
  std::string hint_;
};

[[noreturn]] void throwModelError(std::string message, SourceLocation location = {}, std::string hint = {});
[[noreturn]] void throwConfigError(std::string message, SourceLocation location = {}, std::string hint = {});
[[noreturn]] void throwCompileError(std::string message, SourceLocation location = {}, std::string hint = {});
[[noreturn]] void throwInternalError(std::string message, SourceLocation location = {});

/// Checks an invariant of ours; failing it is a bug, reported as an Internal error rather than a crash.
inline void require(bool condition, const char* what) {
  if (!condition) {
    throwInternalError(what);
  }
}

} // namespace npu
