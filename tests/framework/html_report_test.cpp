// SPDX-License-Identifier: Apache-2.0
// The HTML reports: structure (titled charts, ticked axes, a row per layer), alignment of compared layers
// by identity, and figures equal to the text and CSV writers'.
#include "npu/pipeline/pipeline.hpp"
#include "npu/report/comparison.hpp"
#include "npu/report/writers.hpp"

#include "report/report_figures.hpp"
#include "report/svg_chart.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>

#include <iomanip>
#include <regex>
#include <sstream>

namespace {

void setCycles(npu::OperationPerformance& performance, double npu, double sram, double offChip) {
  using npu::CycleComponent;
  performance.cycles[static_cast<std::size_t>(CycleComponent::Npu)] = npu;
  performance.cycles[static_cast<std::size_t>(CycleComponent::SramAccess)] = sram;
  performance.cycles[static_cast<std::size_t>(CycleComponent::OffChipFlashAccess)] = offChip;
  performance.cycles[static_cast<std::size_t>(CycleComponent::Total)] = std::max({npu, sram, offChip});
}

/// A network of `count` convolutions; layer i is compute bound for even i and off-chip bound for odd i.
npu::NetworkReport makeReport(int count, const std::string& network = "tiny") {
  npu::NetworkReport report;
  report.network = network;
  report.accelerator = {"ethos-u55-128", "Ethos_U55_128", 128, 1, {}, {}, 16};
  report.memory.systemName = "Test_System";
  report.memory.memoryMode = "Shared_Sram";
  report.memory.coreClockHz = 500e6;
  report.memory.arenaCacheSize = 96 * 1024;
  report.memory.fastStorageArea = npu::MemoryArea::Sram;
  for (auto area : {npu::MemoryArea::Sram, npu::MemoryArea::OffChipFlash}) {
    report.memory.areas[static_cast<std::size_t>(area)].present = true;
    report.memory.areas[static_cast<std::size_t>(area)].bandwidthBytesPerCycle = 8.0;
  }
  for (int i = 0; i < count; ++i) {
    npu::LayerReport layer;
    layer.op = static_cast<npu::OperationId>(i);
    layer.name = "conv_" + std::to_string(i);
    layer.sourceType = "CONV_2D";
    layer.irType = "Conv2DBias";
    layer.memoryUsage = 10240 * (i + 1);
    layer.schedule.blockConfig.ofmBlock = {1, 8, 8, 16};
    layer.schedule.blockConfig.ifmBlock = {1, 10, 10, 8};
    layer.schedule.ofmStripe = {1, 4, 8, 16};
    layer.schedule.ifmStripe = {1, 6, 10, 8};
    layer.schedule.cascade = i < 2 ? 1 : 0;
    setCycles(layer.performance, 1000.0 * (i + 1), 300.0, i % 2 == 0 ? 200.0 : 1500.0 * (i + 1));
    layer.performance.macs = 64000;
    layer.performance.byteCount(npu::MemoryArea::Sram, npu::TensorPurpose::FeatureMap, npu::AccessDirection::Read) =
        2048;
    layer.performance.byteCount(npu::MemoryArea::OffChipFlash, npu::TensorPurpose::Weights,
                                npu::AccessDirection::Read) = 700.0 + i;
    for (std::size_t c = 0; c < npu::kCycleComponentCount; ++c) {
      report.total.cycles[c] += layer.performance.cycles[c];
    }
    for (std::size_t a = 0; a < npu::kMemoryAreaCount; ++a) {
      for (std::size_t p = 0; p < npu::kTensorPurposeCount; ++p) {
        for (std::size_t d = 0; d < npu::kAccessDirectionCount; ++d) {
          report.total.bytes[a][p][d] += layer.performance.bytes[a][p][d];
        }
      }
    }
    report.total.macs += layer.performance.macs;
    report.layers.push_back(layer);
  }
  report.memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)] = 10240 * count + 512;
  report.memoryUsed[static_cast<std::size_t>(npu::MemoryArea::OffChipFlash)] = 4096;
  report.npuOperations = count;
  report.cpuOperations = 1;
  report.cpuOperationReasons = {"postprocess (CUSTOM): custom operators run on the CPU"};
  return report;
}

std::size_t occurrences(const std::string& text, const std::string& pattern) {
  const std::regex expression(pattern);
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), expression), std::sregex_iterator()));
}

/// The value of a named column in a one-row CSV.
std::string csvValue(const std::string& csv, const std::string& column) {
  std::istringstream in(csv);
  std::string header;
  std::string row;
  std::getline(in, header);
  std::getline(in, row);
  std::istringstream names(header);
  std::istringstream values(row);
  std::string name;
  std::string value;
  while (std::getline(names, name, ',') && std::getline(values, value, ',')) {
    if (name == column) {
      return value;
    }
  }
  return "missing " + column;
}

} // namespace

BOOST_AUTO_TEST_SUITE(html_reports)

BOOST_AUTO_TEST_CASE(a_layers_cycle_stack_sums_to_its_cycles_and_names_its_slowest_part) {
  npu::OperationPerformance performance;
  setCycles(performance, 1000.0, 1200.0, 3000.0);
  const auto segments = npu::figures::boundSegments(performance);
  BOOST_TEST(segments[static_cast<std::size_t>(npu::figures::Bound::Compute)] == 1000.0);
  BOOST_TEST(segments[static_cast<std::size_t>(npu::figures::Bound::Sram)] == 200.0);
  BOOST_TEST(segments[static_cast<std::size_t>(npu::figures::Bound::OffChip)] == 1800.0);
  BOOST_TEST(segments[0] + segments[1] + segments[2] + segments[3] + segments[4] == 3000.0);
  BOOST_TEST(npu::figures::nameOf(npu::figures::boundOf(performance)) == std::string("off-chip"));
  setCycles(performance, 5000.0, 1200.0, 3000.0);
  BOOST_TEST(npu::figures::nameOf(npu::figures::boundOf(performance)) == std::string("compute"));
}

BOOST_AUTO_TEST_CASE(axis_ticks_step_by_one_two_or_five_times_a_power_of_ten) {
  const auto ticks = npu::html::niceTicks(0.0, 3072.0, 6);
  BOOST_TEST(ticks.step == 500.0);
  BOOST_TEST(ticks.first == 0.0);
  BOOST_TEST(ticks.last() == 3500.0);
  const auto negative = npu::html::niceTicks(-130.0, 420.0, 5);
  BOOST_TEST(negative.step == 100.0);
  BOOST_TEST(negative.first == -200.0);
  BOOST_TEST(negative.last() == 500.0);
  BOOST_TEST(npu::html::tickLabel(0.0, 500.0) == "0");
  BOOST_TEST(npu::html::tickLabel(2500.0, 500.0) == "2.5k");
  BOOST_TEST(npu::html::tickLabel(1500000.0, 500000.0) == "1.5M");
  BOOST_TEST(npu::html::tickLabel(40.0, 20.0) == "40");
  BOOST_TEST(npu::html::tickLabel(0.25, 0.05) == "0.25");
}

BOOST_AUTO_TEST_CASE(the_run_page_has_titled_charts_with_ticked_axes_and_a_row_per_layer) {
  const auto report = makeReport(5);
  const std::string page = npu::renderHtmlReport(report);
  BOOST_TEST(page.find("<figcaption>tiny: cycles per layer, by what bounds them</figcaption>") != std::string::npos);
  BOOST_TEST(page.find("<figcaption>tiny: SRAM in use over the schedule</figcaption>") != std::string::npos);
  // Both charts: y ticks with grid lines, x ticks at layers 0..4, axis titles with units.
  BOOST_TEST(occurrences(page, "<g class=\"x-axis\">") == 2U);
  BOOST_TEST(occurrences(page, "text-anchor=\"middle\">4</text>") == 2U);
  BOOST_TEST(occurrences(page, "<line class=\"grid\"") >= 8U);
  BOOST_TEST(page.find(">SRAM in use (KiB)</text>") != std::string::npos);
  BOOST_TEST(page.find(">cycles</text>") != std::string::npos);
  // The stack: compute and off-chip colours both appear, one tooltip per layer.
  BOOST_TEST(occurrences(page, "<g><title>#") == 5U);
  BOOST_TEST(page.find("bound by off-chip") != std::string::npos);
  // Layers 0, 2, 4 are compute bound (1000 + 3000 + 5000 cycles), 1 and 3 off-chip bound (3000 + 6000).
  BOOST_TEST(page.find("Bound by compute: 3 layers, 50.0% of the cycles; off-chip: 2 layers, 50.0% of the "
                       "cycles.") != std::string::npos);
  // The SRAM limit (96 KiB) and the allocated peak are drawn.
  BOOST_TEST(page.find("limit 96 KiB") != std::string::npos);
  BOOST_TEST(page.find("allocated peak 50.50 KiB") != std::string::npos);
  BOOST_TEST(occurrences(page, "<line class=\"level\"") == 2U);
  // The per-layer table: header plus one row per layer, with block config, stripes, cascade.
  const auto table = page.substr(page.find("<table class=\"wide\" id=\"layers\">"));
  BOOST_TEST(occurrences(table.substr(0, table.find("</table>")), "<tr>") == 6U);
  BOOST_TEST(table.find("<td class=\"l\">8x8x8x16</td><td class=\"l\">6x10x8</td><td class=\"l\">4x8x16</td>"
                        "<td class=\"l\">c1</td>") != std::string::npos);
  BOOST_TEST(page.find("<td class=\"wrap\">postprocess (CUSTOM)</td><td class=\"wrap\">custom operators run on the "
                       "CPU</td>") != std::string::npos);
  BOOST_TEST(page.find("<script") == std::string::npos);
  BOOST_TEST(page.find("src=") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_run_pages_summary_shows_the_summary_csvs_figures) {
  const auto report = makeReport(4);
  const std::string page = npu::renderHtmlReport(report);
  const std::string csv = npu::renderSummaryCsv(report);
  BOOST_TEST(csvValue(csv, "cycles_total") == "13000.0");
  BOOST_TEST(page.find("<td class=\"l\">Total cycles</td><td>13,000</td>") != std::string::npos);
  BOOST_TEST(csvValue(csv, "sram_memory_used") == "40.5");
  BOOST_TEST(page.find("<td class=\"l\">Total SRAM used</td><td>40.50</td><td class=\"l\">KiB</td>") !=
             std::string::npos);
  BOOST_TEST(csvValue(csv, "off_chip_flash_total_bytes") == "2806.0");
  BOOST_TEST(page.find("<td class=\"l\">Total Off-chip Flash bandwidth</td><td>0.00</td>") != std::string::npos);
  BOOST_TEST(csvValue(csv, "inference_time") == "2.6e-05");
  BOOST_TEST(page.find("<td class=\"l\">Batch inference time</td><td>0.03</td><td class=\"l\">ms</td>") !=
             std::string::npos);
  BOOST_TEST(page.find("<td class=\"l\">CPU operators</td><td>1 (20.0%)</td>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(compared_layers_are_aligned_by_operation_not_by_execution_order) {
  npu::ComparedModel model{"tiny", makeReport(4), makeReport(4)};
  std::reverse(model.b.layers.begin(), model.b.layers.end());
  const auto pairs = npu::pairLayers(model);
  BOOST_REQUIRE_EQUAL(pairs.size(), 4U);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    BOOST_TEST((pairs[i].a == i && pairs[i].b == 3 - i));
  }
  const std::string page = npu::renderComparisonHtml({"A", "B", {model}});
  BOOST_TEST(page.find("<tr data-a=\"0\" data-b=\"3\"><td>0</td>") != std::string::npos);
  BOOST_TEST(page.find("<tr data-a=\"3\" data-b=\"0\"><td>3</td>") != std::string::npos);
  // The same layers, so no differences anywhere.
  BOOST_TEST(occurrences(page, "class=\"worse\"") == 0U);
  // A difference too small to show is not coloured either.
  model.b.encodedWeightBytes = model.a.encodedWeightBytes + 1;
  model.a.encodedWeightBytes += 100000;
  model.b.encodedWeightBytes += 100000;
  BOOST_TEST(occurrences(npu::renderComparisonHtml({"A", "B", {model}}), "class=\"worse\">\\+0.0%") == 0U);
}

BOOST_AUTO_TEST_CASE(a_layer_only_one_side_has_sits_after_the_layer_before_it) {
  npu::ComparedModel model{"tiny", makeReport(3), makeReport(3)};
  auto extra = model.b.layers[1];
  extra.op = 99;
  extra.name = "only_in_b";
  model.b.layers.insert(model.b.layers.begin() + 2, extra);
  model.b.layers[0].op = 42; // renumbered by a different lowering: still paired by name
  const auto pairs = npu::pairLayers(model);
  BOOST_REQUIRE_EQUAL(pairs.size(), 4U);
  BOOST_TEST((pairs[0].a == 0U && pairs[0].b == 0U));
  BOOST_TEST((pairs[1].a == 1U && pairs[1].b == 1U));
  BOOST_TEST((!pairs[2].a && pairs[2].b == 2U));
  BOOST_TEST((pairs[3].a == 2U && pairs[3].b == 3U));
}

BOOST_AUTO_TEST_CASE(the_comparison_page_shows_per_layer_deltas_and_the_csvs_figures) {
  npu::ComparedModel model{"tiny", makeReport(4), makeReport(4)};
  setCycles(model.b.layers[2].performance, 4500.0, 300.0, 200.0); // B 1,500 cycles slower on layer 2
  model.b.total.cycles[static_cast<std::size_t>(npu::CycleComponent::Total)] += 1500.0;
  model.b.memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)] -= 1024;
  model.b.total.byteCount(npu::MemoryArea::OffChipFlash, npu::TensorPurpose::Weights, npu::AccessDirection::Read) +=
      1000.0;
  const npu::Comparison comparison{"A", "B", {model}};
  const std::string page = npu::renderComparisonHtml(comparison);
  const std::string csv = npu::renderComparisonSummaryCsv(comparison);
  BOOST_TEST(csv.find(",41472.0,40448.0,") != std::string::npos);
  BOOST_TEST(page.find("<tr data-figure=\"sram_peak_bytes\"><td class=\"l\">SRAM peak (bytes)</td><td>41,472</td>"
                       "<td>40,448</td>") != std::string::npos);
  BOOST_TEST(csv.find(",2806.0,3806.0,") != std::string::npos);
  BOOST_TEST(page.find("<td>2,806</td><td>3,806</td><td class=\"worse\">+35.6%</td><td>A</td>") != std::string::npos);
  BOOST_TEST(page.find("<td>3,000</td><td>4,500</td><td>1,500</td><td class=\"worse\">+50.0%</td>") !=
             std::string::npos);
  BOOST_TEST(page.find("<figcaption>tiny: cycles per layer, A and B side by side</figcaption>") != std::string::npos);
  BOOST_TEST(page.find("<figcaption>tiny: cycles of B minus cycles of A, per layer</figcaption>") != std::string::npos);
  BOOST_TEST(page.find("<figcaption>tiny: SRAM in use over the schedule, A and B</figcaption>") != std::string::npos);
  BOOST_TEST(occurrences(page, "<g class=\"x-axis\">") == 3U);
}

BOOST_AUTO_TEST_CASE(a_limit_far_above_the_data_is_named_but_does_not_flatten_the_chart) {
  auto report = makeReport(3);
  report.memory.arenaCacheSize = std::int64_t{4} << 30;
  const std::string page = npu::renderHtmlReport(report);
  BOOST_TEST(page.find("limit 4 GiB (off the scale)") != std::string::npos);
  BOOST_TEST(occurrences(page, "<line class=\"level\"") == 1U);
}

BOOST_AUTO_TEST_CASE(a_network_without_npu_layers_gets_no_empty_charts) {
  auto report = makeReport(0);
  report.cpuOperations = 2;
  report.cpuOperationReasons.push_back("operator 1 'a;very;long;name' (CONV_2D): dynamic tensors");
  const std::string page = npu::renderHtmlReport(report);
  BOOST_TEST(page.find("<svg") == std::string::npos);
  BOOST_TEST(page.find("No NPU layers: every operation runs on the CPU.") != std::string::npos);
  BOOST_TEST(page.find("<td class=\"wrap\">operator 1 'a;very;long;name' (CONV_2D)</td><td class=\"wrap\">dynamic "
                       "tensors</td>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_limit_far_above_a_level_is_off_the_scale_even_without_data) {
  const npu::html::StepChart chart{
      "id", "title", "KiB", "layer", {{"in use", "#000", {}}}, {{"peak", 147.0, "#111"}, {"limit", 4194304.0, "#222"}}};
  const std::string svg = npu::html::renderStepChart(chart);
  BOOST_TEST(svg.find("limit (off the scale)") != std::string::npos);
  BOOST_TEST(occurrences(svg, "<line class=\"level\"") == 1U);
}

BOOST_AUTO_TEST_CASE(every_reference_pipeline_writes_the_html_report) {
  std::size_t pipelines = 0;
  for (const auto& entry : std::filesystem::directory_iterator(npu::test::sourceDir() / "configs" / "reference")) {
    const auto spec = npu::parsePipelineFile(entry.path());
    BOOST_TEST_CONTEXT(entry.path().filename()) {
      BOOST_TEST((std::ranges::find(spec.report.formats, npu::ReportFormat::Html) != spec.report.formats.end()));
    }
    ++pipelines;
  }
  BOOST_TEST(pipelines >= 10U);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(lower_bound_in_reports)

BOOST_AUTO_TEST_CASE(the_text_and_html_reports_show_the_bound_its_ratio_and_what_bounds_it) {
  npu::NetworkReport report = makeReport(2);
  for (auto& layer : report.layers) {
    layer.bound.cycles[static_cast<std::size_t>(npu::BoundResource::Compute)] = 500.0;
    layer.bound.cycles[static_cast<std::size_t>(npu::BoundResource::Sram)] = 200.0;
    report.bound += layer.bound;
  }
  // Estimate: 1000 + 3000 cycles (the larger of NPU and access cycles per layer); bound: 1000 of compute.
  const double ratio = report.totalCycles() / 1000.0;
  std::ostringstream expected;
  expected << "Lower bound: 1000 cycles (estimate is " << std::fixed << std::setprecision(2) << ratio
           << "\u00d7 the bound, bound by compute)";
  const std::string text = npu::renderTextReport(report);
  BOOST_TEST(text.find(expected.str()) != std::string::npos, text);
  const std::string page = npu::renderHtmlReport(report);
  BOOST_TEST(page.find("id=\"lower-bound\">Lower bound: 1,000 cycles") != std::string::npos);
  BOOST_TEST(page.find("<th>lower bound</th>") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
