// SPDX-License-Identifier: Apache-2.0
#pragma once

// Running the built npu-pipeline and npu-model-gen from CLI tests.

#include <filesystem>
#include <string>

namespace npu::test::cli {

struct Result {
  int exitCode = -1;
  std::string output; ///< stdout and stderr
};

/// The path in single quotes, for a shell command line.
std::string quoted(const std::filesystem::path& path);
std::string readText(const std::filesystem::path& file);
/// Runs a shell command line, stdout and stderr captured.
Result run(const std::string& command);
/// A built program under <build>/bin.
std::filesystem::path binary(const std::string& name);
/// A reference pipeline under configs/reference.
std::filesystem::path pipeline(const std::string& name);
/// A fresh, empty directory for one test.
std::filesystem::path scratchDirectory(const std::string& name);
/// `npu-model-gen ARGUMENTS -o FILE` (the test stops if it fails); returns FILE.
std::filesystem::path generateModel(const std::string& arguments, const std::filesystem::path& file);
/// A small MobileNet v1 (a few depthwise-separable blocks), written once per test run.
std::filesystem::path exampleModel();
/// `npu-pipeline ARGUMENTS`, stopped after 5 minutes (exit code 124) so that a command reading forever
/// fails its test instead of hanging the suite.
Result npuPipeline(const std::string& arguments);

} // namespace npu::test::cli
