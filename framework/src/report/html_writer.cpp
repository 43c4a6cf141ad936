// Self-contained HTML reports: inline CSS and SVG, no scripts or external resources, deterministic.
#include "npu/report/comparison.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <utility>

namespace npu {

namespace {

constexpr double kChartWidth = 960.0;
constexpr double kChartHeight = 260.0;
constexpr double kMargin = 50.0;
constexpr const char* kColourA = "#3b6fb6";
constexpr const char* kColourB = "#e08a2c";

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string number(double value, int decimals = 0) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

struct Series {
  std::string label;
  std::string colour;
  std::vector<double> values;
  std::vector<std::string> names; ///< tooltip per value
};

std::string svgOpen(const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(kChartWidth + 2 * kMargin) + "\" height=\"" +
         number(kChartHeight + 2 * kMargin) + "\" role=\"img\"><title>" + escape(title) + "</title>\n";
}

std::string axes(double maxValue, std::size_t count, const std::string& yLabel, const std::vector<Series>& series) {
  std::ostringstream out;
  const double bottom = kMargin + kChartHeight;
  out << "<line x1=\"" << kMargin << "\" y1=\"" << bottom << "\" x2=\"" << kMargin + kChartWidth << "\" y2=\"" << bottom
      << "\" class=\"axis\"/>\n";
  out << "<line x1=\"" << kMargin << "\" y1=\"" << kMargin << "\" x2=\"" << kMargin << "\" y2=\"" << bottom
      << "\" class=\"axis\"/>\n";
  out << "<text x=\"" << kMargin - 4 << "\" y=\"" << kMargin + 4 << "\" class=\"tick\" text-anchor=\"end\">"
      << number(maxValue) << "</text>\n";
  out << "<text x=\"" << kMargin - 4 << "\" y=\"" << bottom << "\" class=\"tick\" text-anchor=\"end\">0</text>\n";
  out << "<text x=\"" << kMargin << "\" y=\"" << kMargin - 12 << "\" class=\"label\">" << escape(yLabel) << "</text>\n";
  out << "<text x=\"" << kMargin + kChartWidth << "\" y=\"" << bottom + 18 << "\" class=\"tick\" text-anchor=\"end\">"
      << "layer (execution order), " << count << " layers</text>\n";
  double legendX = kMargin + kChartWidth - 200;
  for (const auto& s : series) {
    out << "<rect x=\"" << legendX << "\" y=\"" << kMargin - 24 << "\" width=\"12\" height=\"12\" fill=\"" << s.colour
        << "\"/><text x=\"" << legendX + 16 << "\" y=\"" << kMargin - 14 << "\" class=\"tick\">" << escape(s.label)
        << "</text>\n";
    legendX += 100;
  }
  return out.str();
}

/// The longest series' length and the largest value of all series: what both axes span.
std::pair<std::size_t, double> extentOf(const std::vector<Series>& series) {
  std::size_t count = 0;
  double maxValue = 0.0;
  for (const auto& s : series) {
    count = std::max(count, s.values.size());
    for (double v : s.values) {
      maxValue = std::max(maxValue, v);
    }
  }
  return {count, maxValue};
}

/// Grouped bars, one group per layer index.
std::string barChart(const std::string& title, const std::string& yLabel, const std::vector<Series>& series) {
  const auto [count, maxValue] = extentOf(series);
  std::ostringstream out;
  out << svgOpen(title) << axes(maxValue, count, yLabel, series);
  if (count > 0 && maxValue > 0) {
    const double groupWidth = kChartWidth / static_cast<double>(count);
    const double barWidth = std::max(0.5, groupWidth * 0.8 / static_cast<double>(series.size()));
    for (std::size_t s = 0; s < series.size(); ++s) {
      for (std::size_t i = 0; i < series[s].values.size(); ++i) {
        const double height = series[s].values[i] / maxValue * kChartHeight;
        const double x = kMargin + groupWidth * static_cast<double>(i) + barWidth * static_cast<double>(s);
        out << "<rect x=\"" << number(x, 2) << "\" y=\"" << number(kMargin + kChartHeight - height, 2) << "\" width=\""
            << number(barWidth, 2) << "\" height=\"" << number(height, 2) << "\" fill=\"" << series[s].colour
            << "\"><title>" << i << " " << escape(series[s].names[i]) << ": " << number(series[s].values[i])
            << "</title></rect>\n";
      }
    }
  }
  out << "</svg>\n";
  return out.str();
}

/// Step lines, one point per layer index.
std::string stepChart(const std::string& title, const std::string& yLabel, const std::vector<Series>& series) {
  const auto [count, maxValue] = extentOf(series);
  std::ostringstream out;
  out << svgOpen(title) << axes(maxValue, count, yLabel, series);
  if (count > 0 && maxValue > 0) {
    const double step = kChartWidth / static_cast<double>(count);
    for (const auto& s : series) {
      out << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << s.colour << "\" points=\"";
      for (std::size_t i = 0; i < s.values.size(); ++i) {
        const double y = kMargin + kChartHeight - s.values[i] / maxValue * kChartHeight;
        out << number(kMargin + step * static_cast<double>(i), 2) << "," << number(y, 2) << " "
            << number(kMargin + step * static_cast<double>(i + 1), 2) << "," << number(y, 2) << " ";
      }
      out << "\"/>\n";
    }
  }
  out << "</svg>\n";
  return out.str();
}

Series cyclesSeries(const std::string& label, const std::string& colour, const NetworkReport& report) {
  Series series{label, colour, {}, {}};
  for (const auto& layer : report.layers) {
    series.values.push_back(layer.performance.cycle(CycleComponent::Total));
    series.names.push_back(layer.irType + " " + layer.name);
  }
  return series;
}

Series memorySeries(const std::string& label, const std::string& colour, const NetworkReport& report) {
  Series series{label, colour, {}, {}};
  for (const auto& layer : report.layers) {
    series.values.push_back(static_cast<double>(layer.memoryUsage));
    series.names.push_back(layer.name);
  }
  return series;
}

std::string pageOpen(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title) +
         "</title>\n<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em "
         "0}"
         "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f2f2f2}td.l,th.l{text-align:left}"
         ".axis{stroke:#444}.tick{font-size:11px;fill:#444}.label{font-size:12px;fill:#222}.win{font-weight:bold}"
         "</style></head><body>\n<h1>" +
         escape(title) + "</h1>\n";
}

std::string totalsRow(const std::string& name, double a, double b, int decimals) {
  const std::string best = winner(a, b);
  return "<tr><td class=\"l\">" + escape(name) + "</td><td" + (best == "A" ? " class=\"win\"" : "") + ">" +
         number(a, decimals) + "</td><td" + (best == "B" ? " class=\"win\"" : "") + ">" + number(b, decimals) +
         "</td><td>" + (a == 0.0 ? std::string("n/a") : number((b - a) / a * 100.0, 1) + "%") + "</td><td>" + best +
         "</td></tr>\n";
}

} // namespace

std::string renderComparisonHtml(const Comparison& comparison) {
  std::ostringstream out;
  out << pageOpen("npu-pipeline comparison");
  out << "<p>A: <b>" << escape(comparison.labelA) << "</b><br>B: <b>" << escape(comparison.labelB) << "</b></p>\n";
  out << "<table><tr><th class=\"l\">model</th><th>cycles A</th><th>cycles B</th><th>B vs A</th><th>SRAM peak A</th>"
         "<th>SRAM peak B</th><th>B vs A</th><th>faster</th></tr>\n";
  for (const auto& model : comparison.models) {
    if (!model.compared()) {
      const std::string failure =
          model.failureA.empty() ? "B failed: " + model.failureB : "A failed: " + model.failureA;
      out << "<tr><td class=\"l\">" << escape(model.model)
          << "</td><td class=\"l\" colspan=\"7\">not compared: " << escape(failure) << "</td></tr>\n";
      continue;
    }
    const double ca = model.a.totalCycles();
    const double cb = model.b.totalCycles();
    const auto sa = static_cast<double>(model.a.memoryUsed[static_cast<std::size_t>(model.a.memory.fastStorageArea)]);
    const auto sb = static_cast<double>(model.b.memoryUsed[static_cast<std::size_t>(model.b.memory.fastStorageArea)]);
    out << "<tr><td class=\"l\"><a href=\"#" << escape(model.model) << "\">" << escape(model.model) << "</a></td><td>"
        << number(ca) << "</td><td>" << number(cb) << "</td><td>"
        << (ca == 0 ? std::string("n/a") : number((cb - ca) / ca * 100, 1) + "%") << "</td><td>" << number(sa)
        << "</td><td>" << number(sb) << "</td><td>"
        << (sa == 0 ? std::string("n/a") : number((sb - sa) / sa * 100, 1) + "%") << "</td><td>" << winner(ca, cb)
        << "</td></tr>\n";
  }
  out << "</table>\n";
  for (const auto& model : comparison.models) {
    if (!model.compared()) {
      continue;
    }
    out << "<h2 id=\"" << escape(model.model) << "\">" << escape(model.model) << "</h2>\n<table><tr><th class=\"l\">"
        << "figure</th><th>A</th><th>B</th><th>B vs A</th><th>winner</th></tr>\n";
    out << totalsRow("cycles", model.a.totalCycles(), model.b.totalCycles(), 0);
    out << totalsRow("inference time (ms)", model.a.inferenceSeconds() * 1e3, model.b.inferenceSeconds() * 1e3, 4);
    out << totalsRow("encoded weights (bytes)", static_cast<double>(model.a.encodedWeightBytes),
                     static_cast<double>(model.b.encodedWeightBytes), 0);
    for (auto area : {MemoryArea::Sram, MemoryArea::Dram, MemoryArea::OnChipFlash, MemoryArea::OffChipFlash}) {
      const auto index = static_cast<std::size_t>(area);
      if (model.a.memoryUsed[index] != 0 || model.b.memoryUsed[index] != 0) {
        out << totalsRow(std::string(displayNameOf(area)) + " used (bytes)",
                         static_cast<double>(model.a.memoryUsed[index]), static_cast<double>(model.b.memoryUsed[index]),
                         0);
      }
    }
    out << "</table>\n";
    out << barChart(model.model + ": cycles per layer", "cycles",
                    {cyclesSeries("A", kColourA, model.a), cyclesSeries("B", kColourB, model.b)});
    out << stepChart(model.model + ": SRAM in use over time", "bytes",
                     {memorySeries("A", kColourA, model.a), memorySeries("B", kColourB, model.b)});
  }
  out << "</body></html>\n";
  return out.str();
}

std::string renderHtmlReport(const NetworkReport& report) {
  std::ostringstream out;
  out << pageOpen("npu-pipeline: " + report.network);
  out << "<p>" << escape(report.accelerator.displayName) << ", " << escape(report.memory.systemName) << ", "
      << escape(report.memory.memoryMode) << "</p>\n";
  for (const auto& warning : report.warnings) {
    out << "<p style=\"color:#b00;font-weight:bold\">WARNING: " << escape(warning) << "</p>\n";
  }
  out << "<table>";
  out << "<tr><td class=\"l\">cycles</td><td>" << number(report.totalCycles()) << "</td></tr>";
  out << "<tr><td class=\"l\">inference time (ms)</td><td>" << number(report.inferenceSeconds() * 1e3, 4)
      << "</td></tr>";
  out << "<tr><td class=\"l\">MACs</td><td>" << report.total.macs << "</td></tr>";
  out << "<tr><td class=\"l\">NPU / CPU operations</td><td>" << report.npuOperations << " / " << report.cpuOperations
      << "</td></tr>";
  for (auto area : {MemoryArea::Sram, MemoryArea::Dram, MemoryArea::OnChipFlash, MemoryArea::OffChipFlash}) {
    const auto used = report.memoryUsed[static_cast<std::size_t>(area)];
    if (used != 0) {
      out << "<tr><td class=\"l\">" << displayNameOf(area) << " used (bytes)</td><td>" << used << "</td></tr>";
    }
  }
  out << "</table>\n";
  out << barChart(report.network + ": cycles per layer", "cycles", {cyclesSeries("cycles", kColourA, report)});
  out << stepChart(report.network + ": SRAM in use over time", "bytes", {memorySeries("SRAM", kColourA, report)});
  out << "<details><summary>pipeline</summary><pre>" << escape(report.pipelineYaml) << "</pre></details>\n";
  out << "</body></html>\n";
  return out.str();
}

} // namespace npu
