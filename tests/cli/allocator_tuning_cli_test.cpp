// SPDX-License-Identifier: Apache-2.0
// The allocator tuning of a small model's compile (cli/allocator_tuning.hpp): chosen only when the user
// did not set GLIBC_TUNABLES, and without effect on what is written.
#include "cli_support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <map>
#include <string>

namespace fs = std::filesystem;

namespace {

using namespace npu::test::cli;

/// A MobileNet v1 of 24 blocks (860 KB): within the sizes the tuning is for.
fs::path mediumModel() {
  static const fs::path model = generateModel("mobilenet-v1 --alpha 0.25 --resolution 64 --blocks 24",
                                              scratchDirectory("allocator_model") / "medium_mobilenet.tflite");
  return model;
}

/// `npu-pipeline run C1-cascade MODEL -o OUTPUT --timing`, with `environment` (e.g. `env -u NAME`) before it.
Result compileWithTiming(const std::string& environment, const fs::path& model, const fs::path& output) {
  return run(environment + " " + quoted(binary("npu-pipeline")) + " run " + quoted(pipeline("C1-cascade.yaml")) + " " +
             quoted(model) + " -o " + quoted(output) + " -q --timing");
}

std::map<std::string, std::string> filesIn(const fs::path& directory) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    files[entry.path().filename().string()] = readText(entry.path());
  }
  return files;
}

} // namespace

BOOST_AUTO_TEST_SUITE(allocator_tuning_cli)

BOOST_AUTO_TEST_CASE(
    a_model_of_a_few_hundred_kib_to_32_mib_is_compiled_with_the_tuned_allocator_unless_the_user_set_glibc_tunables) {
  const fs::path tuned = scratchDirectory("allocator_tuned");
  const Result tunedRun = compileWithTiming("env -u GLIBC_TUNABLES", mediumModel(), tuned);
  BOOST_TEST_REQUIRE(tunedRun.exitCode == 0, tunedRun.output);
#if defined(__GLIBC__) && defined(__LP64__)
  // In this process: the re-execution it replaces cost 2 ms of a 75 ms compile.
  BOOST_TEST(tunedRun.output.find("allocator: tuned for a small model (huge-page heaps, mmap threshold") !=
                 std::string::npos,
             tunedRun.output);
#endif

  const fs::path users = scratchDirectory("allocator_users");
  const Result usersRun = compileWithTiming("env GLIBC_TUNABLES=", mediumModel(), users);
  BOOST_TEST_REQUIRE(usersRun.exitCode == 0, usersRun.output);
  BOOST_TEST(usersRun.output.find("allocator: as GLIBC_TUNABLES sets it") != std::string::npos, usersRun.output);
}

BOOST_AUTO_TEST_CASE(a_tiny_model_is_compiled_with_the_default_allocator) {
  // Its compile touches too little memory for the tuning to pay.
  const fs::path output = scratchDirectory("allocator_tiny");
  const Result tiny = compileWithTiming("env -u GLIBC_TUNABLES", exampleModel(), output);
  BOOST_TEST_REQUIRE(tiny.exitCode == 0, tiny.output);
#if defined(__GLIBC__) && defined(__LP64__)
  BOOST_TEST(tiny.output.find("allocator: default (a model of ") != std::string::npos, tiny.output);
  BOOST_TEST(tiny.output.find("too little memory touched for the tuning to pay") != std::string::npos, tiny.output);
#endif
}

BOOST_AUTO_TEST_CASE(a_process_with_a_preloaded_library_keeps_the_default_allocator) {
  // valgrind, other allocators and similar tools preload their own malloc, whose heaps are not glibc's.
  const fs::path output = scratchDirectory("allocator_preload");
  const Result preloaded = compileWithTiming("env -u GLIBC_TUNABLES LD_PRELOAD=libm.so.6", mediumModel(), output);
  BOOST_TEST_REQUIRE(preloaded.exitCode == 0, preloaded.output);
#if defined(__GLIBC__) && defined(__LP64__)
  BOOST_TEST(preloaded.output.find("allocator: default (LD_PRELOAD is set") != std::string::npos, preloaded.output);
#endif
}

BOOST_AUTO_TEST_CASE(a_command_that_fails_after_tuning_the_allocator_exits_with_its_own_error) {
  // The tuning starts a thread for the workers' heap; a configuration error before the compile must still
  // end the process with its exit code and message, not abort it.
  const fs::path output = scratchDirectory("allocator_failing");
  const Result failed = run("env -u GLIBC_TUNABLES " + quoted(binary("npu-pipeline")) + " run " +
                            quoted(output / "missing.yaml") + " " + quoted(mediumModel()) + " --threads 2");
  BOOST_TEST(failed.exitCode == 2, failed.output);
  BOOST_TEST(failed.output.find("terminate") == std::string::npos, failed.output);
}

BOOST_AUTO_TEST_CASE(the_tuned_allocator_writes_the_same_files_as_the_default_one) {
  const fs::path tuned = scratchDirectory("allocator_same_tuned");
  BOOST_TEST_REQUIRE(compileWithTiming("env -u GLIBC_TUNABLES", mediumModel(), tuned).exitCode == 0);
  const fs::path plain = scratchDirectory("allocator_same_plain");
  BOOST_TEST_REQUIRE(compileWithTiming("env GLIBC_TUNABLES=", mediumModel(), plain).exitCode == 0);
  const auto expected = filesIn(plain);
  const auto actual = filesIn(tuned);
  BOOST_TEST(expected.size() == actual.size());
  for (const auto& [file, bytes] : expected) {
    // The JSON report holds --timing's stage times, which differ from run to run.
    if (file.ends_with(".json")) {
      continue;
    }
    BOOST_TEST((actual.count(file) == 1 && actual.at(file) == bytes), file << " differs");
  }
}

BOOST_AUTO_TEST_SUITE_END()
