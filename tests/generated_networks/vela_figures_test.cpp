// SPDX-License-Identifier: Apache-2.0
// Networks made by `npu-model-gen random` that showed a behaviour of Vela 3.10 or 2.1.1 we had to
// reproduce, compiled through the whole pipeline and compared with what real Vela reported for them
// (vela310_figures.tsv with the cascade pipelines, vela21_figures.tsv with the DP scheduler and the
// 2020 cost model: the figures and the Vela command line of each; README.md says how they were
// recorded). Vela is not needed: its figures are the test data.

#include "generated_networks.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace {

using npu::test::generated::folder;
using npu::test::generated::Pipelines;
using npu::test::generated::split;

struct Case {
  std::string pipeline; ///< configs/reference/<config><pipeline>.yaml
  std::string network;
  std::string config;
  std::vector<std::string> overrides;
  double cycles = 0.0;
  std::int64_t sramBytes = 0;
  std::optional<std::int64_t> encodedWeights; ///< Vela 2.1.1 reports no weight totals
  std::optional<std::int64_t> originalWeights;
  std::string note;
};

std::optional<std::int64_t> optionalNumber(const std::string& cell) {
  return cell.empty() ? std::nullopt : std::optional(std::stoll(cell));
}

/// vela310_figures.tsv (pipelines `-cascade`) or vela21_figures.tsv (pipelines `-dp-vela2`).
std::vector<Case> readCases(const std::string& table = "vela310_figures.tsv",
                            const std::string& pipeline = "-cascade") {
  std::ifstream in(folder() / table);
  std::string line;
  std::getline(in, line); // header
  std::vector<Case> cases;
  while (std::getline(in, line)) {
    const auto cells = split(line, '\t');
    if (cells.size() < 8) {
      continue;
    }
    Case c{pipeline,
           cells[0],
           cells[1],
           cells[2].empty() ? std::vector<std::string>{} : split(cells[2], ','),
           std::stod(cells[3]),
           std::stoll(cells[4]),
           optionalNumber(cells[5]),
           optionalNumber(cells[6]),
           cells[7]};
    cases.push_back(std::move(c));
  }
  return cases;
}

} // namespace

BOOST_AUTO_TEST_SUITE(generated_networks)

void requireVelaFigures(const std::vector<Case>& cases) {
  BOOST_TEST_REQUIRE(!cases.empty());
  Pipelines pipelines;
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.network << " " << c.config << c.pipeline << " (" << c.note << ")") {
      const npu::Compilation compilation = pipelines.compile(c.network, c.config + c.pipeline, c.overrides);
      const npu::NetworkReport& report = *compilation.report;
      BOOST_TEST(std::abs(report.totalCycles() - c.cycles) <= 1e-6 * std::max(1.0, c.cycles));
      BOOST_TEST(report.memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)] == c.sramBytes);
      if (c.encodedWeights) {
        BOOST_TEST(report.encodedWeightBytes == *c.encodedWeights);
      }
      if (c.originalWeights) {
        BOOST_TEST(report.originalWeightBytes == *c.originalWeights);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(every_recorded_network_has_vela_s_cycles_sram_peak_and_weight_totals) {
  requireVelaFigures(readCases());
}

BOOST_AUTO_TEST_CASE(every_network_recorded_with_vela_2_1_has_its_cycles_and_sram_peak_with_the_dp_scheduler) {
  requireVelaFigures(readCases("vela21_figures.tsv", "-dp-vela2"));
}

BOOST_AUTO_TEST_CASE(a_schedule_over_the_sram_limit_is_an_error_by_default_and_a_loud_warning_on_request) {
  const std::vector<Case> cases = readCases();
  const auto overflow = std::find_if(cases.begin(), cases.end(), [](const Case& c) {
    return std::find(c.overrides.begin(), c.overrides.end(), "accelerator.on_sram_overflow=warn") != c.overrides.end();
  });
  BOOST_TEST_REQUIRE((overflow != cases.end()));
  Pipelines pipelines;
  Case strict = *overflow;
  std::erase(strict.overrides, "accelerator.on_sram_overflow=warn");
  BOOST_CHECK_THROW((void)pipelines.compile(strict.network, strict.config + strict.pipeline, strict.overrides),
                    npu::Error);
  const npu::Compilation warned =
      pipelines.compile(overflow->network, overflow->config + overflow->pipeline, overflow->overrides);
  BOOST_TEST_REQUIRE(warned.report->warnings.size() == 1U);
  BOOST_TEST(warned.report->warnings.front().find("SRAM target for arena memory area exceeded") != std::string::npos);
  BOOST_TEST(warned.report->warnings.front().find(std::to_string(overflow->sramBytes)) != std::string::npos);
  // By how much, so the user sees how far the target is: 433504 - 262144 bytes.
  BOOST_TEST(warned.report->warnings.front().find("171,360 bytes (167.3 KiB, 65.4%) over the target") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
