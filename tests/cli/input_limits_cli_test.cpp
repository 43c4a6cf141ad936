// SPDX-License-Identifier: Apache-2.0
// Hostile and careless inputs as the command line meets them: files that are not regular files, thread
// counts that would exhaust memory, nonsense configs, and the diagnostics and exit codes they get. Every
// command runs under `timeout`, so a regression that reads forever fails instead of hanging the suite.
#include "cli_support.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <string>

namespace fs = std::filesystem;

namespace {

using namespace npu::test::cli;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

fs::path systemConfig(const std::string& name) {
  return npu::test::sourceDir() / "configs" / "systems" / name;
}
fs::path memoryMode(const std::string& name) {
  return npu::test::sourceDir() / "configs" / "memory_modes" / name;
}

/// A u55-128 pipeline file; `system` on line 5 (value at column 11), `extra` accelerator lines from line 7.
fs::path writePipeline(const fs::path& folder, const std::string& system, const std::string& extra = "",
                       const std::string& stages = "  - frontend: frontend_tflite\n") {
  const fs::path file = folder / "p.yaml";
  npu::test::writeFile(file, "name: t\naccelerator:\n  plugin: perf_u55\n  config: ethos-u55-128\n  system: " + system +
                                 "\n  memory_mode: " + memoryMode("shared_sram.yaml").string() + "\n" + extra +
                                 "stages:\n" + stages +
                                 "  - lowering: ethosu_lowering\n  - scheduler: scheduler_cascade\n"
                                 "  - allocator: allocator_hillclimb\n");
  return file;
}

fs::path goodPipeline(const fs::path& folder) {
  return writePipeline(folder, systemConfig("ethos_u55_high_end_embedded.yaml").string());
}

} // namespace

BOOST_AUTO_TEST_SUITE(input_limits_cli)

BOOST_AUTO_TEST_CASE(a_pipeline_that_is_a_device_a_fifo_or_a_directory_is_refused_at_once) {
  const fs::path folder = scratchDirectory("pipeline_files");
  const Result device = npuPipeline("validate /dev/zero");
  BOOST_TEST(device.exitCode == 2, device.output);
  BOOST_TEST(contains(device.output, "pipeline file '/dev/zero' is not a regular file"), device.output);

  const fs::path fifo = folder / "fifo.yaml";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const Result piped = npuPipeline("validate " + quoted(fifo));
  BOOST_TEST(piped.exitCode == 2, piped.output);
  BOOST_TEST(contains(piped.output, "is not a regular file (it is a FIFO"), piped.output);

  const Result directory = npuPipeline("validate " + quoted(folder));
  BOOST_TEST(directory.exitCode == 2, directory.output);
  BOOST_TEST(contains(directory.output, "is not a regular file (it is a directory)"), directory.output);
}

BOOST_AUTO_TEST_CASE(a_system_config_that_is_a_device_is_refused_at_the_pipeline_line_naming_it) {
  const fs::path folder = scratchDirectory("system_devzero");
  const fs::path pipelineFile = writePipeline(folder, "/dev/zero");
  const Result validated = npuPipeline("validate " + quoted(pipelineFile));
  BOOST_TEST(validated.exitCode == 2, validated.output);
  BOOST_TEST(
      contains(validated.output, pipelineFile.string() + ":5:11: error: config file '/dev/zero' is not a regular"),
      validated.output);
}

BOOST_AUTO_TEST_CASE(a_model_that_is_not_a_regular_file_gets_the_same_error_from_run_and_inspect) {
  const fs::path folder = scratchDirectory("model_files");
  const fs::path pipelineFile = goodPipeline(folder);
  const fs::path fifo = folder / "fifo.tflite";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const fs::path directory = folder / "folder.tflite";
  fs::create_directory(directory);
  for (const fs::path& model : {fs::path("/dev/zero"), fifo, directory}) {
    BOOST_TEST_CONTEXT(model) {
      const Result compiled = npuPipeline("run " + quoted(pipelineFile) + " " + quoted(model));
      BOOST_TEST(compiled.exitCode == 2, compiled.output);
      BOOST_TEST(contains(compiled.output, "model file '" + model.string() + "' is not a regular file"),
                 compiled.output);
      const Result inspected = npuPipeline("inspect " + quoted(model));
      BOOST_TEST(inspected.exitCode == 2, inspected.output);
      BOOST_TEST(contains(inspected.output, "model file '" + model.string() + "' is not a regular file"),
                 inspected.output);
    }
  }
  const Result missing = npuPipeline("run " + quoted(pipelineFile) + " " + quoted(folder / "missing.tflite"));
  BOOST_TEST(missing.exitCode == 2, missing.output);
  BOOST_TEST(contains(missing.output, "does not exist"), missing.output);
}

BOOST_AUTO_TEST_CASE(thread_counts_outside_one_to_four_per_core_are_usage_errors) {
  const fs::path folder = scratchDirectory("threads");
  const fs::path pipelineFile = goodPipeline(folder);
  for (const std::string count : {"100000000", "0"}) {
    BOOST_TEST_CONTEXT(count) {
      const Result compiled =
          npuPipeline("run " + quoted(pipelineFile) + " " + quoted(exampleModel()) + " --threads " + count);
      BOOST_TEST(compiled.exitCode == 2, compiled.output);
      BOOST_TEST(contains(compiled.output, "--threads " + count + " is out of range: use 1 to "), compiled.output);
    }
  }
  const Result compared = npuPipeline("compare " + quoted(pipelineFile) + " " + quoted(pipelineFile) + " " +
                                      quoted(exampleModel()) + " --threads 100000000");
  BOOST_TEST(compared.exitCode == 2, compared.output);
  BOOST_TEST(npuPipeline("run " + quoted(pipelineFile) + " " + quoted(exampleModel()) + " -q --threads 1").exitCode ==
             0);
}

BOOST_AUTO_TEST_CASE(validate_and_run_agree_on_a_pipeline_without_a_frontend) {
  const fs::path folder = scratchDirectory("no_frontend");
  const fs::path pipelineFile =
      writePipeline(folder, systemConfig("ethos_u55_high_end_embedded.yaml").string(), "", "");
  const std::string expected = pipelineFile.string() + ":8:15: error: the pipeline has no frontend stage";
  const Result validated = npuPipeline("validate " + quoted(pipelineFile));
  const Result compiled = npuPipeline("run " + quoted(pipelineFile) + " " + quoted(exampleModel()));
  BOOST_TEST(validated.exitCode == 2, validated.output);
  BOOST_TEST(compiled.exitCode == 2, compiled.output);
  BOOST_TEST(contains(validated.output, expected), validated.output);
  BOOST_TEST(contains(compiled.output, expected), compiled.output);
}

BOOST_AUTO_TEST_CASE(a_nonsense_system_config_is_refused_at_its_line_and_column) {
  const fs::path folder = scratchDirectory("clock_scale_0");
  std::string system = npu::test::readFile(systemConfig("ethos_u55_high_end_embedded.yaml"));
  const std::string sramScale = "      clock_scale: 1.0";
  system.replace(system.find(sramScale), sramScale.size(), "      clock_scale: 0");
  npu::test::writeFile(folder / "s.yaml", system);
  const Result validated = npuPipeline("validate " + quoted(writePipeline(folder, (folder / "s.yaml").string())));
  BOOST_TEST(validated.exitCode == 2, validated.output);
  BOOST_TEST(contains(validated.output, (folder / "s.yaml").string() + ":11:20: error: clock_scale 0 is out of range"),
             validated.output);
}

BOOST_AUTO_TEST_CASE(an_arena_cache_size_too_large_blames_the_setting_the_user_wrote) {
  const fs::path folder = scratchDirectory("arena_2p63");
  const fs::path pipelineFile = writePipeline(folder, systemConfig("ethos_u55_high_end_embedded.yaml").string(),
                                              "  arena_cache_size: 9223372036854775807\n");
  const Result inFile = npuPipeline("validate " + quoted(pipelineFile));
  BOOST_TEST(inFile.exitCode == 2, inFile.output);
  BOOST_TEST(contains(inFile.output, pipelineFile.string() + ":7:3: error: arena_cache_size"), inFile.output);

  const Result bySet = npuPipeline("validate " + quoted(goodPipeline(folder)) +
                                   " --set accelerator.arena_cache_size=9223372036854775807");
  BOOST_TEST(bySet.exitCode == 2, bySet.output);
  BOOST_TEST(contains(bySet.output, "--set accelerator.arena_cache_size=9223372036854775807: error:"), bySet.output);

  const Result systemBySet =
      npuPipeline("validate " + quoted(goodPipeline(folder)) + " --set accelerator.system=/dev/zero");
  BOOST_TEST(systemBySet.exitCode == 2, systemBySet.output);
  BOOST_TEST(contains(systemBySet.output, "--set accelerator.system=/dev/zero: error:"), systemBySet.output);
}

BOOST_AUTO_TEST_CASE(a_missing_plugin_directory_is_an_error) {
  const fs::path folder = scratchDirectory("plugin_path");
  const Result listed =
      npuPipeline("validate " + quoted(goodPipeline(folder)) + " --plugin-path " + quoted(folder / "no_such_folder"));
  BOOST_TEST(listed.exitCode == 2, listed.output);
  BOOST_TEST(contains(listed.output, "is not a directory"), listed.output);
}

BOOST_AUTO_TEST_CASE(compare_writes_its_files_only_when_every_model_was_compared) {
  const fs::path folder = scratchDirectory("compare");
  const fs::path pipelineFile = goodPipeline(folder);
  const std::string bytes = readText(exampleModel());
  npu::test::writeFile(folder / "truncated.tflite", bytes.substr(0, bytes.size() / 2));

  const fs::path failed = folder / "failed";
  const Result partial =
      npuPipeline("compare " + quoted(pipelineFile) + " " + quoted(pipelineFile) + " " + quoted(exampleModel()) + " " +
                  quoted(folder / "truncated.tflite") + " -o " + quoted(failed));
  BOOST_TEST(partial.exitCode == 1, partial.output);
  BOOST_TEST(contains(partial.output, "nothing was written to"), partial.output);
  BOOST_TEST((!fs::exists(failed) || fs::is_empty(failed)));

  const fs::path succeeded = folder / "succeeded";
  const Result complete = npuPipeline("compare " + quoted(pipelineFile) + " " + quoted(pipelineFile) + " " +
                                      quoted(exampleModel()) + " -o " + quoted(succeeded));
  BOOST_TEST(complete.exitCode == 0, complete.output);
  BOOST_TEST(fs::exists(succeeded / "compare.html"));
  BOOST_TEST(fs::exists(succeeded / "compare_summary.csv"));
}

BOOST_AUTO_TEST_SUITE_END()
