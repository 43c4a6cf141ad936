// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace npu::test {

/// The repository's source directory (set by CTest; falls back to the compile-time path).
std::filesystem::path sourceDir();
/// The build directory (set by CTest; falls back to the compile-time path).
std::filesystem::path buildDir();
/// Directory of the shared real models, from NPU_PIPELINE_MODELS; nullopt when unset, so tests that
/// need real models can skip themselves.
std::optional<std::filesystem::path> sharedModelsDir();
/// Directory of the Vela reference outputs (NPU_PIPELINE_REFERENCE, or <models>/../reference).
std::optional<std::filesystem::path> sharedReferenceDir();

/// A fresh directory removed again when the object goes out of scope.
class TemporaryDirectory {
public:
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

/// Reads a whole file; throws std::runtime_error when it cannot.
std::string readFile(const std::filesystem::path& file);
void writeFile(const std::filesystem::path& file, const std::string& content);

} // namespace npu::test
