// SPDX-License-Identifier: Apache-2.0
#include "test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace npu::test {

namespace {
std::filesystem::path fromEnvironment(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return (value != nullptr && *value != '\0') ? std::filesystem::path(value) : std::filesystem::path(fallback);
}
} // namespace

std::filesystem::path sourceDir() { return fromEnvironment("NPU_PIPELINE_SOURCE_DIR", NPU_TEST_SOURCE_DIR); }
std::filesystem::path buildDir() { return fromEnvironment("NPU_PIPELINE_BUILD_DIR", NPU_TEST_BUILD_DIR); }

std::optional<std::filesystem::path> sharedModelsDir() {
  const char* value = std::getenv("NPU_PIPELINE_MODELS");
  if (value == nullptr || *value == '\0' || !std::filesystem::is_directory(value)) {
    return std::nullopt;
  }
  return std::filesystem::path(value);
}

std::optional<std::filesystem::path> sharedReferenceDir() {
  if (const char* value = std::getenv("NPU_PIPELINE_REFERENCE"); value != nullptr && *value != '\0') {
    return std::filesystem::is_directory(value) ? std::optional(std::filesystem::path(value)) : std::nullopt;
  }
  if (auto models = sharedModelsDir()) {
    auto reference = models->parent_path() / "reference";
    if (std::filesystem::is_directory(reference)) {
      return reference;
    }
  }
  return std::nullopt;
}

TemporaryDirectory::TemporaryDirectory() {
  std::random_device seed;
  std::mt19937_64 random(seed());
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto candidate = std::filesystem::temp_directory_path() / ("npu-test-" + std::to_string(random()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory");
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string readFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot read " + file.string());
  }
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void writeFile(const std::filesystem::path& file, const std::string& content) {
  std::ofstream out(file, std::ios::binary);
  out << content;
  if (!out) {
    throw std::runtime_error("cannot write " + file.string());
  }
}

} // namespace npu::test
