// SPDX-License-Identifier: Apache-2.0
// Broken plugin libraries on the search path, as users meet them: `plugins` lists each as refused
// with a reason (even those that crash or exit while loading), and other commands keep working.
#include "cli_support.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace fs = std::filesystem;

namespace {

using namespace npu::test::cli;

/// Every hostile library of the plugin-host tests, the crashing ones included, plus a truncated copy
/// of a real plugin, in one directory.
struct HostileDirectory {
  npu::test::TemporaryDirectory directory;
  HostileDirectory() {
    for (const fs::path& source : {fs::path(NPU_TEST_PLUGIN_DIR), fs::path(NPU_TEST_CRASHING_PLUGIN_DIR)}) {
      for (const auto& entry : fs::directory_iterator(source)) {
        fs::copy_file(entry.path(), directory.path() / entry.path().filename());
      }
    }
    const fs::path real = npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins" / "npu_allocator_greedy.so";
    fs::copy_file(real, directory.path() / "npu_half_allocator.so");
    fs::resize_file(directory.path() / "npu_half_allocator.so", fs::file_size(real) / 2);
  }
  [[nodiscard]] std::string option() const { return " --plugin-path " + quoted(directory.path()); }
};

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_SUITE(plugin_trust_cli)

BOOST_AUTO_TEST_CASE(plugins_lists_every_broken_library_as_refused_and_the_real_plugins_as_loaded) {
  const HostileDirectory hostile;
  const Result listed = run(quoted(binary("npu-pipeline")) + " plugins" + hostile.option());
  BOOST_TEST_REQUIRE(listed.exitCode == 0, listed.output);
  for (const char* expected :
       {"crashed with signal 6", "ended the process with exit status 0", "is a data object, not a function",
        "does not point into the library's code", "returned no descriptor", "missing entry point",
        "not a loadable shared library (truncated", "scheduler_cascade", "frontend_tflite"}) {
    BOOST_TEST(mentions(listed.output, expected), "expected '" << expected << "' in:\n" << listed.output);
  }
}

BOOST_AUTO_TEST_CASE(a_run_is_unaffected_by_broken_libraries_it_does_not_need) {
  const HostileDirectory hostile;
  const fs::path model =
      generateModel("mobilenet-v1 --alpha 0.25 --resolution 32 --blocks 2", hostile.directory.path() / "model.tflite");
  const fs::path pipeline = npu::test::sourceDir() / "configs" / "reference" / "C1-cascade.yaml";
  const Result compiled =
      run(quoted(binary("npu-pipeline")) + " run " + quoted(pipeline) + " " + quoted(model) + hostile.option());
  BOOST_TEST(compiled.exitCode == 0, compiled.output);
}

BOOST_AUTO_TEST_SUITE_END()
