// SPDX-License-Identifier: Apache-2.0
#include "cli_support.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace npu::test::cli {

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Result run(const std::string& command) {
  const fs::path log = fs::temp_directory_path() / ("npu_cli_test_" + std::to_string(::getpid()) + ".log");
  const int status = std::system((command + " > " + quoted(log) + " 2>&1").c_str());
  Result result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, readText(log)};
  fs::remove(log);
  return result;
}

fs::path binary(const std::string& name) {
  return buildDir() / "bin" / name;
}
fs::path pipeline(const std::string& name) {
  return sourceDir() / "configs" / "reference" / name;
}

fs::path scratchDirectory(const std::string& name) {
  const fs::path directory = fs::temp_directory_path() / ("npu_cli_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(directory);
  fs::create_directories(directory);
  return directory;
}

fs::path generateModel(const std::string& arguments, const fs::path& file) {
  const Result made = run(quoted(binary("npu-model-gen")) + " " + arguments + " -o " + quoted(file));
  BOOST_REQUIRE_MESSAGE(made.exitCode == 0, made.output);
  return file;
}

fs::path exampleModel() {
  static const fs::path model = generateModel("mobilenet-v1 --alpha 0.25 --resolution 64 --blocks 4",
                                              scratchDirectory("model") / "small_mobilenet.tflite");
  return model;
}

Result npuPipeline(const std::string& arguments) {
  return run(quoted(binary("npu-pipeline")) + " " + arguments);
}

} // namespace npu::test::cli
