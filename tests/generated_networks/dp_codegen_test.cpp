// SPDX-License-Identifier: Apache-2.0
// Generated networks whose schedules from the dynamic-programming scheduler code generation once
// refused or checked wrong (dp_codegen_networks.tsv says what each showed): every one must now compile
// through the whole pipeline, code generation and its command-stream check included. No Vela figures:
// Vela 2.1.1 lowers some of them differently (item 10 of issue 12), the point here is a valid program.

#include "generated_networks.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

namespace {

using npu::test::generated::folder;
using npu::test::generated::Pipelines;
using npu::test::generated::split;

} // namespace

BOOST_AUTO_TEST_SUITE(dp_codegen_networks)

BOOST_AUTO_TEST_CASE(every_dp_schedule_of_the_recorded_networks_passes_code_generation_and_its_check) {
  std::ifstream in(folder() / "dp_codegen_networks.tsv");
  std::string line;
  std::getline(in, line); // header
  Pipelines pipelines;
  int compiled = 0;
  while (std::getline(in, line)) {
    const auto cells = split(line, '\t');
    if (cells.size() < 3) {
      continue;
    }
    for (const std::string& entry : split(cells[1], ',')) {
      // "PIPELINE+KEY=VALUE+...": the pipeline with --set overrides.
      std::vector<std::string> parts = split(entry, '+');
      const std::string pipeline = parts.front();
      parts.erase(parts.begin());
      BOOST_TEST_CONTEXT(cells[0] << " " << entry << " (" << cells[2] << ")") {
        BOOST_CHECK_NO_THROW((void)pipelines.compile(cells[0], pipeline, parts));
        ++compiled;
      }
    }
  }
  BOOST_TEST(compiled > 0);
}

BOOST_AUTO_TEST_SUITE_END()
