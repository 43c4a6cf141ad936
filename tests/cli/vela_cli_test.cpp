// SPDX-License-Identifier: Apache-2.0
// `npu-pipeline vela`: Vela 3.10's command line gives what the matching reference pipeline gives (same
// summary and per-layer CSV, byte-identical optimised model), refuses what it does not support by
// name, and prints Vela's verbose views. Runs the built binaries on a generated model, and on a few
// shared models when NPU_PIPELINE_MODELS is set.
#include "cli_support.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

namespace fs = std::filesystem;

namespace {

using namespace npu::test::cli;

Result vela(const std::string& arguments, const fs::path& workingDirectory = fs::temp_directory_path()) {
  return run("cd " + quoted(workingDirectory) + " && " + quoted(binary("npu-pipeline")) + " vela " + arguments);
}

/// The Vela 3.10 options of each reference configuration (configs/reference/*.yaml say which in their
/// first line).
const std::map<std::string, std::string>& velaOptionsOfReferences() {
  static const std::map<std::string, std::string> options{
      {"C1", "--accelerator-config ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram "
             "--optimise Performance"},
      {"C2", "--accelerator-config ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram "
             "--optimise Size"},
      {"C3", "--accelerator-config ethos-u65-256 --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram "
             "--optimise Performance"},
      {"C4", "--accelerator-config ethos-u55-64 --system-config Ethos_U55_Deep_Embedded --memory-mode Shared_Sram "
             "--optimise Performance"},
      {"C5", "--accelerator-config ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram "
             "--optimise Performance --arena-cache-size 524288"},
  };
  return options;
}

std::vector<fs::path> cascadeReferences() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(npu::test::sourceDir() / "configs" / "reference")) {
    if (entry.path().filename().string().ends_with("-cascade.yaml")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::map<std::string, std::string> filesIn(const fs::path& directory) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    files[entry.path().filename().string()] = readText(entry.path());
  }
  return files;
}

/// Compiles `model` with every cascade reference pipeline and with its Vela options; the files both
/// write (summary CSV, per-layer CSV, optimised model) must be byte-identical.
void requireSameAsReferences(const fs::path& model) {
  BOOST_REQUIRE(!cascadeReferences().empty());
  for (const fs::path& reference : cascadeReferences()) {
    const std::string id = reference.filename().string().substr(0, 2);
    const auto options = velaOptionsOfReferences().find(id);
    BOOST_REQUIRE_MESSAGE(options != velaOptionsOfReferences().end(),
                          "no Vela options known for " + reference.string() + "; add them to this test");
    const fs::path ours = scratchDirectory(id + "_run");
    const fs::path velaOut = scratchDirectory(id + "_vela");
    const Result pipelineRun = run(quoted(binary("npu-pipeline")) + " run " + quoted(reference) + " " + quoted(model) +
                                   " -o " + quoted(ours) + " -q --set report.formats=csv");
    BOOST_REQUIRE_MESSAGE(pipelineRun.exitCode == 0, pipelineRun.output);
    const Result velaRun = vela(quoted(model) + " --config Arm/vela.ini " + options->second +
                                " --verbose-performance --output-dir " + quoted(velaOut));
    BOOST_REQUIRE_MESSAGE(velaRun.exitCode == 0, velaRun.output);
    const auto expected = filesIn(ours);
    const auto actual = filesIn(velaOut);
    BOOST_TEST_CONTEXT(id << " on " << model.filename()) {
      BOOST_TEST(expected.size() == 3u);
      for (const auto& [name, content] : expected) {
        BOOST_TEST_INFO(name);
        BOOST_REQUIRE(actual.count(name) == 1u);
        BOOST_TEST((actual.at(name) == content));
      }
      BOOST_TEST(actual.size() == expected.size());
    }
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_command_line)

BOOST_AUTO_TEST_CASE(vela_options_of_each_reference_configuration_give_its_files_byte_for_byte) {
  requireSameAsReferences(exampleModel());
}

BOOST_AUTO_TEST_CASE(vela_options_give_the_reference_files_on_shared_models) {
  const auto models = npu::test::sharedModelsDir();
  if (!models) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set; skipped");
    return;
  }
  for (const char* name : {"mlperf_tiny_kws_dscnn_int8.tflite", "mlperf_tiny_ic_resnet8_int8.tflite",
                           "mlperf_tiny_vww_mobilenet_v1_025_96_int8.tflite"}) {
    requireSameAsReferences(*models / name);
  }
}

BOOST_AUTO_TEST_CASE(vela_writes_vela_files_only_and_the_per_layer_csv_only_when_asked) {
  const fs::path out = scratchDirectory("defaults");
  const Result result = vela(quoted(exampleModel()) + " --output-dir " + quoted(out));
  BOOST_REQUIRE_MESSAGE(result.exitCode == 0, result.output);
  const auto files = filesIn(out);
  BOOST_TEST(files.size() == 2u);
  BOOST_TEST(files.count("small_mobilenet_vela.tflite") == 1u);
  BOOST_TEST(files.count("small_mobilenet_summary_internal-default.csv") == 1u);
  BOOST_TEST(result.output.find("Warning: Using internal-default values for system configuration") !=
             std::string::npos);
  BOOST_TEST(result.output.find("Network summary for small_mobilenet") != std::string::npos);
  BOOST_TEST(result.output.find("Ethos_U55_256") != std::string::npos); // Vela's default accelerator
  BOOST_TEST(result.output.find("Batch Inference time") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(vela_option_names_may_be_shortened_as_argparse_allows) {
  const fs::path out = scratchDirectory("short");
  const Result result = vela(quoted(exampleModel()) + " --accel=ethos-u55-64 --output-d " + quoted(out));
  BOOST_REQUIRE_MESSAGE(result.exitCode == 0, result.output);
  BOOST_TEST(result.output.find("Ethos_U55_64") != std::string::npos);
  const Result ambiguous = vela(quoted(exampleModel()) + " --verbose-a");
  BOOST_TEST(ambiguous.exitCode == 2);
  BOOST_TEST(ambiguous.output.find("ambiguous option: --verbose-a") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(unsupported_vela_options_are_usage_errors_that_name_them) {
  for (const char* option : {"--enable-debug-db", "--verbose-graph", "--show-subgraph-io-summary", "--api-version"}) {
    const Result result = vela(quoted(exampleModel()) + " " + option);
    BOOST_TEST_INFO(option);
    BOOST_TEST(result.exitCode == 2);
    BOOST_TEST(result.output.find(std::string("Vela option ") + option + " is not supported") != std::string::npos);
  }
  const Result unknown = vela(quoted(exampleModel()) + " --no-such-option");
  BOOST_TEST(unknown.exitCode == 2);
  BOOST_TEST(unknown.output.find("unrecognized argument: --no-such-option") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_vela_values_are_refused_as_vela_refuses_them) {
  const Result alignment = vela(quoted(exampleModel()) + " --cpu-tensor-alignment 24");
  BOOST_TEST(alignment.exitCode == 2);
  BOOST_TEST(alignment.output.find("must be greater than or equal to 16 and a power of 2") != std::string::npos);
  const Result optimise = vela(quoted(exampleModel()) + " --optimise Fast");
  BOOST_TEST(optimise.exitCode == 2);
  BOOST_TEST(optimise.output.find("invalid choice: 'Fast'") != std::string::npos);
  const Result noConfig = vela(quoted(exampleModel()) + " --system-config Ethos_U55_High_End_Embedded");
  BOOST_TEST(noConfig.exitCode == 2);
  BOOST_TEST(noConfig.output.find("Vela config file not specified") != std::string::npos);
  const Result noSection = vela(quoted(exampleModel()) + " --config Arm/vela.ini --memory-mode No_Such_Mode");
  BOOST_TEST(noSection.exitCode == 2);
  BOOST_TEST(noSection.output.find("Section Memory_Mode.No_Such_Mode not found") != std::string::npos);
  const Result variant = vela(quoted(exampleModel()) + " --accelerator-config ethos-u99-1");
  BOOST_TEST(variant.exitCode == 2);
  BOOST_TEST(variant.output.find("ethos-u55-128") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_users_ini_file_gives_the_same_result_as_the_bundled_section_it_copies) {
  const fs::path directory = scratchDirectory("ini");
  npu::test::writeFile(directory / "my.ini", "[System_Config.My_System]\ncore_clock=500e6\naxi0_port=Sram\n"
                                             "axi1_port=OffChipFlash\nSram_clock_scale=1.0\nSram_burst_length=32\n"
                                             "Sram_read_latency=32\nSram_write_latency=32\n"
                                             "OffChipFlash_clock_scale=0.125\nOffChipFlash_burst_length=128\n"
                                             "OffChipFlash_read_latency=64\nOffChipFlash_write_latency=64\n");
  const std::string common = quoted(exampleModel()) + " --accelerator-config ethos-u55-128 --memory-mode Shared_Sram ";
  const Result mine =
      vela(common + "--config Arm/vela.ini --config my.ini --system-config My_System --output-dir mine", directory);
  BOOST_REQUIRE_MESSAGE(mine.exitCode == 0, mine.output);
  const Result bundled = vela(common + "--config Arm/vela.ini --system-config Ethos_U55_High_End_Embedded "
                                       "--output-dir bundled",
                              directory);
  BOOST_REQUIRE_MESSAGE(bundled.exitCode == 0, bundled.output);
  BOOST_TEST((readText(directory / "mine" / "small_mobilenet_vela.tflite") ==
              readText(directory / "bundled" / "small_mobilenet_vela.tflite")));
  BOOST_TEST(fs::exists(directory / "mine" / "small_mobilenet_summary_My_System.csv"));
}

BOOST_AUTO_TEST_CASE(verbose_options_print_configuration_schedule_allocation_and_timing) {
  const fs::path out = scratchDirectory("verbose");
  const Result result = vela(quoted(exampleModel()) +
                             " --config Arm/vela.ini --system-config "
                             "Ethos_U55_High_End_Embedded --verbose-config --verbose-schedule "
                             "--verbose-allocation --timing --show-cpu-operations "
                             "--verbose-register-command-stream --output-dir " +
                             quoted(out));
  BOOST_REQUIRE_MESSAGE(result.exitCode == 0, result.output);
  for (const char* expected :
       {"System Configuration (Ethos_U55_High_End_Embedded):", "   core_clock = 500000000 Hz",
        "   Sram_bandwidth = 8.00 bytes/cycle (4.00 GB/s)", "fast_storage_mem_area = Sram", "Schedule: '",
        "\t\tBlock config: OFM [", "Allocation of SRAM:", "Start Time -   End Time: Start Addr -   End Addr",
        "scheduling took", "compilation took", "CPU operators = ", "NPU_OP_"}) {
    BOOST_TEST_INFO(expected);
    BOOST_TEST(result.output.find(expected) != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(supported_ops_report_comes_from_the_accelerator_plugins_tables) {
  const fs::path directory = scratchDirectory("supported");
  const Result result = vela("--supported-ops-report --json --accelerator-config ethos-u65-512", directory);
  BOOST_REQUIRE_MESSAGE(result.exitCode == 0, result.output);
  const std::string markdown = readText(directory / "SUPPORTED_OPS.md");
  BOOST_TEST(markdown.find("perf_u65") != std::string::npos);
  BOOST_TEST(markdown.find("## Conv2DBias Constraints") != std::string::npos);
  BOOST_TEST(markdown.find("## Generic Constraints") != std::string::npos);
  BOOST_TEST(markdown.find("Stride values for both width and height must be") != std::string::npos);
  const std::string json = readText(directory / "SUPPORTED_OPS.json");
  BOOST_TEST(json.find("\"id\": \"stride_range\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(list_config_files_names_the_bundled_vela_ini_and_its_sections) {
  const Result result = vela("--list-config-files");
  BOOST_REQUIRE_MESSAGE(result.exitCode == 0, result.output);
  BOOST_TEST(result.output.find("Arm/vela.ini") != std::string::npos);
  BOOST_TEST(result.output.find("ethos_u65_high_end") != std::string::npos);
  BOOST_TEST(result.output.find("dedicated_sram") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
