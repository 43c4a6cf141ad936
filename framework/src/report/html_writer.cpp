// SPDX-License-Identifier: Apache-2.0
// The HTML report of one compilation: Vela's network summary, per-layer cycles stacked by what bounds
// them, SRAM in use over the schedule against its limit, a per-layer table and the CPU operations.
// Self-contained (inline CSS and SVG, no scripts), deterministic; every figure comes from the same
// functions the text and CSV writers use.
#include "npu/report/comparison.hpp"

#include "comparison_figures.hpp"
#include "html_page.hpp"
#include "html_report_parts.hpp"
#include "number_format.hpp"

#include <sstream>

namespace npu {

namespace html {

namespace {

/// One line of the summary: label, value, unit, in Vela's order and wording.
struct SummaryLine {
  std::string label;
  std::string value;
  std::string unit;
};

void section(std::ostringstream& out, const std::string& heading, const std::vector<SummaryLine>& lines) {
  out << "<table class=\"vela-summary\"><tr><th class=\"l\" colspan=\"3\">" << escape(heading) << "</th></tr>\n";
  for (const auto& line : lines) {
    out << "<tr><td class=\"l\">" << escape(line.label) << "</td><td>" << escape(line.value) << "</td><td class=\"l\">"
        << escape(line.unit) << "</td></tr>\n";
  }
  out << "</table>\n";
}

std::string kib(double bytes) {
  return fixed(bytes / 1024.0, 2);
}

std::string megabytes(double bytes) {
  return fixed(bytes / 1e6, 2);
}

/// Vela's network summary as tables: configuration, memory used, bandwidth per memory, cycles.
std::string networkSummary(const NetworkReport& report) {
  const MemorySystem& memory = report.memory;
  std::ostringstream out;
  out << "<div class=\"summary\" id=\"network-summary\">\n";
  std::vector<SummaryLine> configuration{
      {"Accelerator configuration", report.accelerator.displayName, ""},
      {"System configuration", memory.systemName, ""},
      {"Memory mode", memory.memoryMode, ""},
      {"Accelerator clock", fixed(memory.coreClockHz / 1e6, 0), "MHz"},
  };
  for (auto area : figures::kReportedAreas) {
    if (memory.area(area).present) {
      configuration.push_back({"Design peak " + std::string(displayNameOf(area)) + " bandwidth",
                               fixed(figures::peakBandwidthGigabytesPerSecond(memory, area), 2), "GB/s"});
    }
  }
  section(out, "Configuration", configuration);

  std::vector<SummaryLine> used;
  for (auto area : figures::kReportedAreas) {
    const auto bytes = figures::memoryUsedBytes(report, area);
    if (bytes != 0) {
      used.push_back({"Total " + std::string(displayNameOf(area)) + " used", kib(static_cast<double>(bytes)), "KiB"});
    }
  }
  const int operators = report.npuOperations + report.cpuOperations;
  const auto share = [&](int count) {
    return std::to_string(count) + " (" + fixed(detail::percentage(count, operators), 1) + "%)";
  };
  used.push_back({"CPU operators", share(report.cpuOperations), ""});
  used.push_back({"NPU operators", share(report.npuOperations), ""});
  used.push_back({"Original weights size", kib(static_cast<double>(report.originalWeightBytes)), "KiB"});
  used.push_back({"NPU encoded weights size", kib(static_cast<double>(report.encodedWeightBytes)), "KiB"});
  section(out, "Memory and operators", used);

  const double seconds = report.inferenceSeconds();
  for (auto area : figures::kReportedAreas) {
    const auto traffic = figures::trafficOf(report.total, area);
    if (traffic.total == 0.0) {
      continue;
    }
    const std::string name(displayNameOf(area));
    const auto read = [&](TensorPurpose purpose) {
      return report.total.byteCount(area, purpose, AccessDirection::Read);
    };
    section(out, name + " bandwidth",
            {{"Average " + name + " bandwidth", fixed(seconds > 0 ? traffic.total / seconds / 1e9 : 0.0, 2), "GB/s"},
             {"Input " + name + " bandwidth", megabytes(read(TensorPurpose::FeatureMap)), "MB/batch"},
             {"Weight " + name + " bandwidth", megabytes(read(TensorPurpose::Weights)), "MB/batch"},
             {"Output " + name + " bandwidth",
              megabytes(report.total.byteCount(area, TensorPurpose::FeatureMap, AccessDirection::Write)), "MB/batch"},
             {"Total " + name + " bandwidth", megabytes(traffic.total), "MB/batch"}});
  }

  const double macs = static_cast<double>(report.total.macs);
  std::vector<SummaryLine> cycles{
      {"Neural network MACs", grouped(macs), "MACs/batch"},
      {"Network TOPS", fixed(macs * 2.0 * figures::inferencesPerSecond(report) / 1e12, 2), "TOPS"},
  };
  for (const auto& [label, component] :
       {std::pair{"NPU cycles", CycleComponent::Npu}, std::pair{"SRAM access cycles", CycleComponent::SramAccess},
        std::pair{"DRAM access cycles", CycleComponent::DramAccess},
        std::pair{"On-chip flash access cycles", CycleComponent::OnChipFlashAccess},
        std::pair{"Off-chip flash access cycles", CycleComponent::OffChipFlashAccess},
        std::pair{"Total cycles", CycleComponent::Total}}) {
    cycles.push_back({label, grouped(report.total.cycle(component)), "cycles/batch"});
  }
  cycles.push_back({"Batch inference time", fixed(seconds * 1e3, 2), "ms"});
  cycles.push_back({"Inferences per second", fixed(figures::inferencesPerSecond(report), 2), "inferences/s"});
  section(out, "Compute", cycles);
  out << "</div>\n";
  return out.str();
}

std::string cyclesByBoundChart(const NetworkReport& report) {
  BarChart chart{"cycles-per-layer",
                 report.network + ": cycles per layer, by what bounds them",
                 "cycles",
                 "layer (execution order)",
                 {},
                 {}};
  std::array<bool, figures::kBoundCount> present{};
  for (std::size_t i = 0; i < report.layers.size(); ++i) {
    chart.slots.push_back({layerBar(i, report.layers[i], kBoundColours)});
    const auto segments = figures::boundSegments(report.layers[i].performance);
    for (std::size_t b = 0; b < figures::kBoundCount; ++b) {
      present[b] = present[b] || segments[b] > 0.0;
    }
  }
  // The legend names what the stacks show; compute always, so that an empty network still has one.
  for (std::size_t b = 0; b < figures::kBoundCount; ++b) {
    if (present[b] || b == 0) {
      chart.legend.push_back({figures::nameOf(static_cast<figures::Bound>(b)), kBoundColours[b]});
    }
  }
  return renderBarChart(chart);
}

/// "compute: 12 layers, 62.0% of cycles; off-chip: ..." in stack order.
std::string boundShares(const NetworkReport& report) {
  std::array<double, figures::kBoundCount> cycles{};
  std::array<int, figures::kBoundCount> layers{};
  for (const auto& layer : report.layers) {
    const auto bound = static_cast<std::size_t>(figures::boundOf(layer.performance));
    cycles[bound] += figures::layerCycles(layer);
    ++layers[bound];
  }
  std::string text;
  for (std::size_t b = 0; b < figures::kBoundCount; ++b) {
    if (layers[b] != 0) {
      text += std::string(text.empty() ? "" : "; ") + figures::nameOf(static_cast<figures::Bound>(b)) + ": " +
              std::to_string(layers[b]) + (layers[b] == 1 ? " layer, " : " layers, ") +
              fixed(detail::percentage(cycles[b], report.totalCycles()), 1) + "% of the cycles";
    }
  }
  return "<p class=\"note\">Bound by " + text + ".</p>\n";
}

/// The network's lower bound against the estimate (the text report's "Lower bound" line).
std::string lowerBoundLine(const NetworkReport& report) {
  return "<p class=\"note\" id=\"lower-bound\">Lower bound: " + grouped(figures::networkBoundCycles(report)) +
         " cycles (the estimate is " + fixed(figures::estimateToBoundRatio(report), 2) +
         "&times; the bound, bound by " + figures::networkBoundBy(report) +
         "): no schedule of these operations on this accelerator takes fewer cycles.</p>\n";
}

std::string sramChart(const NetworkReport& report) {
  StepChart chart{"sram-over-schedule",      report.network + ": SRAM in use over the schedule", "SRAM in use (KiB)",
                  "layer (execution order)", {{"in use while the layer runs", kColourA, {}}},    sramLevels(report)};
  for (const auto& layer : report.layers) {
    chart.series.front().values.push_back(static_cast<double>(layer.memoryUsage) / 1024.0);
  }
  return renderStepChart(chart);
}

std::string layerTable(const NetworkReport& report) {
  std::ostringstream out;
  out << "<div class=\"scroll\"><table class=\"wide\" id=\"layers\"><tr><th>#</th><th class=\"l\">TFLite operator</th>"
         "<th class=\"l\">NPU operation</th><th class=\"l\">block (HxWxCinxCout)</th><th class=\"l\">IFM stripe</th>"
         "<th class=\"l\">OFM stripe</th><th class=\"l\">cascade</th><th class=\"l\">weights</th>"
         "<th>SRAM used (bytes)</th><th>cycles</th><th class=\"l\">bound by</th><th>lower bound</th>"
         "<th class=\"l\">lower bound by</th><th>MACs</th><th>util %</th>"
         "<th class=\"l\">name</th></tr>\n";
  for (std::size_t i = 0; i < report.layers.size(); ++i) {
    const auto& layer = report.layers[i];
    out << "<tr><td>" << i << "</td><td class=\"l\">" << escape(layer.sourceType) << "</td><td class=\"l\">"
        << escape(layer.irType) << "</td><td class=\"l\">" << detail::blockText(layer.schedule.blockConfig)
        << "</td><td class=\"l\">" << stripeText(layer.schedule.ifmStripe) << "</td><td class=\"l\">"
        << stripeText(layer.schedule.ofmStripe) << "</td><td class=\"l\">"
        << escape(detail::membershipText(layer.schedule)) << "</td><td class=\"wrap\">" << weightsText(layer.schedule)
        << "</td><td>" << grouped(static_cast<double>(layer.memoryUsage)) << "</td><td>"
        << grouped(figures::layerCycles(layer)) << "</td><td class=\"l\">"
        << figures::nameOf(figures::boundOf(layer.performance)) << "</td><td>"
        << grouped(figures::layerBoundCycles(layer)) << "</td><td class=\"l\">" << figures::layerBoundBy(layer)
        << "</td><td>" << grouped(static_cast<double>(layer.performance.macs)) << "</td><td>"
        << fixed(figures::utilisationPercent(report, layer), 1) << "</td><td class=\"name\">" << escape(layer.name)
        << "</td></tr>\n";
  }
  out << "</table></div>\n";
  return out.str();
}

std::string cpuTable(const NetworkReport& report) {
  std::ostringstream out;
  out << "<div class=\"scroll\"><table class=\"wide\" id=\"cpu-operations\"><tr><th class=\"l\" "
         "style=\"width:40%\">CPU operation</th><th class=\"l\">why it runs on the CPU</th></tr>\n";
  for (const auto& reason : report.cpuOperationReasons) {
    const auto colon = reason.find("): ");
    const bool split = colon != std::string::npos;
    out << "<tr><td class=\"wrap\">" << escape(split ? reason.substr(0, colon + 1) : reason)
        << "</td><td class=\"wrap\">" << escape(split ? reason.substr(colon + 3) : std::string()) << "</td></tr>\n";
  }
  out << "</table></div>\n";
  return out.str();
}

} // namespace

} // namespace html

std::string renderHtmlReport(const NetworkReport& report) {
  using namespace html;
  std::ostringstream out;
  out << pageOpen("npu-pipeline: " + report.network);
  out << "<p class=\"sub\">" << escape(report.accelerator.displayName) << ", " << escape(report.memory.systemName)
      << ", " << escape(report.memory.memoryMode) << ", " << fixed(report.memory.coreClockHz / 1e6, 0) << " MHz</p>\n";
  for (const auto& warning : report.warnings) {
    out << "<p class=\"warning\">WARNING: " << escape(warning) << "</p>\n";
  }
  out << "<h2>Network summary</h2>\n" << networkSummary(report);
  if (report.layers.empty()) {
    out << "<h2>Layers</h2>\n<p>No NPU layers: every operation runs on the CPU.</p>\n";
  } else {
    out << "<h2>Where the time goes</h2>\n"
        << cyclesByBoundChart(report) << boundShares(report) << lowerBoundLine(report);
    out << "<h2>SRAM</h2>\n" << sramChart(report);
    out << "<h2>Layers</h2>\n" << layerTable(report);
  }
  out << "<h2>CPU operations (" << report.cpuOperations << ")</h2>\n";
  out << (report.cpuOperationReasons.empty() ? std::string("<p>none: every operation runs on the NPU</p>\n")
                                             : cpuTable(report));
  out << "<details><summary>resolved pipeline</summary><pre>" << escape(report.pipelineYaml) << "</pre></details>\n";
  out << pageClose();
  return out.str();
}

} // namespace npu
