// SPDX-License-Identifier: Apache-2.0
#include "npu/core/diagnostics.hpp"

namespace npu {

std::string SourceLocation::str() const {
  std::string text = file;
  if (!file.empty() && line > 0) {
    text += ':' + std::to_string(line);
    if (column > 0) {
      text += ':' + std::to_string(column);
    }
  }
  if (!object.empty()) {
    text += text.empty() ? object : ": " + object;
  }
  return text;
}

namespace {
std::string composeWhat(const std::string& message, const SourceLocation& location) {
  return location.empty() ? message : location.str() + ": " + message;
}
} // namespace

Error::Error(ErrorKind kind, std::string message, SourceLocation location, std::string hint)
    : std::runtime_error(composeWhat(message, location)), kind_(kind), message_(std::move(message)),
      location_(std::move(location)), hint_(std::move(hint)) {}

int Error::exitCode() const {
  return (kind_ == ErrorKind::Usage || kind_ == ErrorKind::Config) ? 2 : 1;
}

std::string Error::render() const {
  std::string text;
  if (!location_.empty()) {
    text += location_.str() + ": ";
  }
  text += kind_ == ErrorKind::Internal ? "internal error: " : "error: ";
  text += message_;
  if (!hint_.empty()) {
    text += "\n  hint: " + hint_;
  }
  return text;
}

void throwModelError(std::string message, SourceLocation location, std::string hint) {
  throw Error(ErrorKind::Model, std::move(message), std::move(location), std::move(hint));
}
void throwConfigError(std::string message, SourceLocation location, std::string hint) {
  throw Error(ErrorKind::Config, std::move(message), std::move(location), std::move(hint));
}
void throwCompileError(std::string message, SourceLocation location, std::string hint) {
  throw Error(ErrorKind::Compile, std::move(message), std::move(location), std::move(hint));
}
void throwInternalError(std::string message, SourceLocation location) {
  throw Error(ErrorKind::Internal, std::move(message), std::move(location),
              "this is a bug in npu-pipeline or one of its plugins; please report it");
}

} // namespace npu
