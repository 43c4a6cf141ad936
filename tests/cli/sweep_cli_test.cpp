// SPDX-License-Identifier: Apache-2.0
// `npu-pipeline sweep` as users run it: two generated networks × six configurations (the smallest
// arena does not fit, so those points fail as rows), checked table and page, the same bytes at any
// thread count and from shards merged, and a killed sweep resumed without recompiling what was done.
#include "cli_support.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using namespace npu::test::cli;

/// A folder with two generated networks and a sweep over them, made once per test run.
const fs::path& sweepFolder() {
  static const fs::path folder = [] {
    const fs::path directory = fs::temp_directory_path() / ("npu_sweep_cli_test_" + std::to_string(::getpid()));
    fs::remove_all(directory);
    fs::create_directories(directory / "networks");
    for (const auto& [name, arguments] : std::vector<std::pair<std::string, std::string>>{
             {"v1", "mobilenet-v1 --alpha 0.25 --resolution 48 --blocks 3"},
             {"v2", "mobilenet-v2 --alpha 0.35 --resolution 48 --blocks 3"}}) {
      const Result made = run(quoted(binary("npu-model-gen")) + " " + arguments + " --classes 10 -o " +
                              quoted(directory / "networks" / (name + ".tflite")));
      BOOST_REQUIRE_MESSAGE(made.exitCode == 0, made.output);
    }
    npu::test::writeFile(directory / "sweep.yaml",
                         "name: test sweep\npipeline: " +
                             (npu::test::sourceDir() / "configs" / "reference" / "C1-cascade.yaml").string() +
                             "\naxes:\n"
                             "  accelerator.config: [ethos-u55-64, ethos-u55-128, ethos-u55-256]\n"
                             "  accelerator.arena_cache_size: [1KiB, 1MiB]\n"
                             "networks: ['networks/*.tflite']\n");
    return directory;
  }();
  return folder;
}

Result sweep(const std::string& arguments) {
  return run(quoted(binary("npu-pipeline")) + " sweep " + arguments);
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

/// The full local sweep, run once.
const fs::path& localRun() {
  static const fs::path output = [] {
    const fs::path directory = sweepFolder() / "local";
    const Result result = sweep(quoted(sweepFolder() / "sweep.yaml") + " -o " + quoted(directory) + " --threads 2");
    BOOST_REQUIRE_MESSAGE(result.exitCode == 1, result.output); // the 1KiB points fail
    BOOST_TEST_MESSAGE(result.output);
    return directory;
  }();
  return output;
}

std::vector<fs::path> pointFiles(const fs::path& output) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(output / "points")) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sweep_cli)

BOOST_AUTO_TEST_CASE(a_local_sweep_writes_one_row_per_network_and_configuration_with_failures_as_rows) {
  const auto lines = linesOf(npu::test::readFile(localRun() / "sweep.csv"));
  BOOST_REQUIRE_EQUAL(lines.size(), 13U);
  BOOST_TEST(
      lines[0].starts_with("network_file,configuration,accelerator.config,accelerator.arena_cache_size,status,reason,"
                           "experiment,network,accelerator_configuration"));
  BOOST_TEST(lines[0].find(",cycles_total") != std::string::npos);
  BOOST_TEST(lines[1].starts_with("networks/v1.tflite,0,ethos-u55-64,1KiB,failed,"));
  BOOST_TEST(lines[1].find("limit") != std::string::npos);
  BOOST_TEST(lines[2].starts_with("networks/v1.tflite,1,ethos-u55-64,1MiB,ok,,default,v1,Ethos_U55_64"));
  BOOST_TEST(lines[12].starts_with("networks/v2.tflite,5,ethos-u55-256,1MiB,ok,,"));
  std::size_t failed = 0;
  for (const auto& line : lines) {
    failed += line.find(",failed,") != std::string::npos ? 1 : 0;
  }
  BOOST_TEST(failed == 6U);
  BOOST_TEST(pointFiles(localRun()).size() == 12U);
  const std::string json = npu::test::readFile(localRun() / "sweep.json");
  BOOST_TEST(json.find("\"ok\": 6") != std::string::npos);
  BOOST_TEST(json.find("\"failed\": 6") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_page_shows_the_pareto_fronts_and_axes_without_scripts) {
  const std::string html = npu::test::readFile(localRun() / "sweep.html");
  BOOST_TEST(html.find("<script") == std::string::npos);
  BOOST_TEST(html.find("src=") == std::string::npos);
  BOOST_TEST(html.find("<h2>All networks") != std::string::npos);
  BOOST_TEST(html.find("<h2>networks/v1.tflite</h2>") != std::string::npos);
  BOOST_TEST(html.find("<h2>networks/v2.tflite</h2>") != std::string::npos);
  BOOST_TEST(html.find("<h2>Axis accelerator.arena_cache_size</h2>") != std::string::npos);
  BOOST_TEST(html.find("<th>on the front</th>") != std::string::npos);
  BOOST_TEST(html.find("fill='#c0392b'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_thread_and_three_merged_shards_give_the_same_bytes) {
  const fs::path serial = sweepFolder() / "serial";
  BOOST_TEST(sweep(quoted(sweepFolder() / "sweep.yaml") + " -o " + quoted(serial) + " --threads 1").exitCode == 1);
  const fs::path sharded = sweepFolder() / "sharded";
  for (const char* shard : {"2/3", "0/3", "1/3"}) {
    const Result result = sweep(quoted(sweepFolder() / "sweep.yaml") + " -o " + quoted(sharded) + " --shard " + shard);
    BOOST_TEST(result.exitCode == 1, result.output);
    BOOST_TEST(!fs::exists(sharded / "sweep.csv"));
  }
  BOOST_TEST(sweep("merge " + quoted(sweepFolder() / "sweep.yaml") + " -o " + quoted(sharded)).exitCode == 1);
  for (const char* file : {"sweep.csv", "sweep.json", "sweep.html"}) {
    const std::string expected = npu::test::readFile(localRun() / file);
    BOOST_TEST((npu::test::readFile(serial / file) == expected), file);
    BOOST_TEST((npu::test::readFile(sharded / file) == expected), file);
  }
}

BOOST_AUTO_TEST_CASE(a_killed_sweep_rerun_compiles_only_the_missing_points) {
  const fs::path resumed = sweepFolder() / "resumed";
  fs::create_directories(resumed / "points");
  const auto done = pointFiles(localRun());
  for (std::size_t i = 0; i < 5; ++i) {
    fs::copy_file(done[i], resumed / "points" / done[i].filename());
  }
  // What a kill leaves behind: a half-written temporary, which is not a result.
  npu::test::writeFile(resumed / "points" / (done[5].filename().string() + ".partial-1-0"), "{\"format\"");
  // A stored point is trusted, not recompiled: mark one to see that it survives the re-run.
  std::string marked = npu::test::readFile(resumed / "points" / done[0].filename());
  const auto reason = marked.find("\"reason\": \"");
  marked.insert(reason + 11, "MARK ");
  npu::test::writeFile(resumed / "points" / done[0].filename(), marked);

  const Result dryRun = sweep(quoted(sweepFolder() / "sweep.yaml") + " -o " + quoted(resumed) + " --dry-run");
  BOOST_TEST(dryRun.exitCode == 0);
  BOOST_TEST(std::count(dryRun.output.begin(), dryRun.output.end(), '\n') == 12);
  const Result result = sweep(quoted(sweepFolder() / "sweep.yaml") + " -o " + quoted(resumed));
  BOOST_TEST(result.output.find("5 already done, 7 compiled") != std::string::npos, result.output);
  BOOST_TEST(npu::test::readFile(resumed / "sweep.csv").find("MARK ") != std::string::npos);
  const Result again = sweep(quoted(sweepFolder() / "sweep.yaml") + " -o " + quoted(resumed));
  BOOST_TEST(again.output.find("12 already done, 0 compiled") != std::string::npos, again.output);
}

BOOST_AUTO_TEST_CASE(a_setting_the_pipeline_refuses_stops_the_sweep_before_compiling_at_its_line) {
  const fs::path file = sweepFolder() / "bad.yaml";
  npu::test::writeFile(file,
                       "pipeline: " + (npu::test::sourceDir() / "configs" / "reference" / "C1-cascade.yaml").string() +
                           "\naxes:\n  accelerator.config: [ethos-u55-64, ethos-u99-1]\n"
                           "networks: ['networks/*.tflite']\n");
  const Result result = sweep(quoted(file) + " -o " + quoted(sweepFolder() / "bad"));
  BOOST_TEST(result.exitCode == 2, result.output);
  BOOST_TEST(result.output.find("ethos-u99-1") != std::string::npos, result.output);
  BOOST_TEST(!fs::exists(sweepFolder() / "bad" / "sweep.csv"));

  npu::test::writeFile(file,
                       "pipeline: " + (npu::test::sourceDir() / "configs" / "reference" / "C1-cascade.yaml").string() +
                           "\naxes:\n  scheduler.optimise: [size]\n  scheduler.nonsense: [1]\n"
                           "networks: ['networks/*.tflite']\n");
  const Result option = sweep(quoted(file) + " -o " + quoted(sweepFolder() / "bad"));
  BOOST_TEST(option.exitCode == 2, option.output);
  BOOST_TEST(option.output.find("bad.yaml:4:24: error: configuration #0") != std::string::npos, option.output);
}

BOOST_AUTO_TEST_SUITE_END()
