// SPDX-License-Identifier: Apache-2.0
// A network over its SRAM limit, as users meet it: `npu-pipeline run` fails (exit 1) naming the smallest
// limit that fits it with the pipeline, and that limit is right to the search's granularity: the
// network compiles at it and not one KiB below, with the cascade and the dynamic-programming scheduler.
#include "cli_support.hpp"

#include <boost/test/unit_test.hpp>

#include <regex>
#include <string>

namespace fs = std::filesystem;

namespace {

using namespace npu::test::cli;

/// A MobileNet v1 whose first layers need far more than a few KiB of SRAM.
fs::path largeModel() {
  static const fs::path model = generateModel("mobilenet-v1 --alpha 0.25 --resolution 96 --blocks 3",
                                              scratchDirectory("fit_model") / "mobilenet_v1_025_96.tflite");
  return model;
}

Result compileAt(const std::string& pipelineName, const std::string& limit, const std::string& extra = "") {
  return npuPipeline("run " + quoted(pipeline(pipelineName)) + " " + quoted(largeModel()) +
                     " --quiet --set accelerator.arena_cache_size=" + limit + " " + extra);
}

/// The limit the error names in its hint (`--set accelerator.arena_cache_size=NKiB`), in bytes.
std::int64_t namedLimit(const std::string& output) {
  static const std::regex hint("--set accelerator\\.arena_cache_size=([0-9]+)KiB\\)");
  std::smatch match;
  BOOST_REQUIRE_MESSAGE(std::regex_search(output, match, hint), output);
  return std::stoll(match[1]) * 1024;
}

void requireTheNamedLimitIsTheSmallestThatFits(const std::string& pipelineName) {
  const Result failed = compileAt(pipelineName, "16KiB");
  BOOST_TEST_REQUIRE(failed.exitCode == 1, failed.output);
  BOOST_TEST(failed.output.find("does not fit in 16,384 bytes (16 KiB) of SRAM") != std::string::npos, failed.output);
  BOOST_TEST(failed.output.find("the smallest SRAM limit that fits this network with this pipeline is") !=
                 std::string::npos,
             failed.output);
  const std::int64_t limit = namedLimit(failed.output);
  BOOST_TEST(limit > 16 * 1024);
  const Result atLimit = compileAt(pipelineName, std::to_string(limit));
  BOOST_TEST(atLimit.exitCode == 0, atLimit.output);
  const Result below = compileAt(pipelineName, std::to_string(limit - 1024), "--set fit_search=false");
  BOOST_TEST(below.exitCode == 1, below.output);
  BOOST_TEST(below.output.find("smallest") == std::string::npos, below.output); // no search when turned off
}

} // namespace

BOOST_AUTO_TEST_SUITE(fit_cli)

BOOST_AUTO_TEST_CASE(the_cascade_scheduler_s_error_names_the_smallest_sram_limit_that_fits) {
  requireTheNamedLimitIsTheSmallestThatFits("C5-cascade.yaml");
}

BOOST_AUTO_TEST_CASE(the_dp_scheduler_s_error_names_the_smallest_sram_limit_that_fits) {
  requireTheNamedLimitIsTheSmallestThatFits("C5-dp.yaml");
}

BOOST_AUTO_TEST_SUITE_END()
