// SPDX-License-Identifier: Apache-2.0
#include "svg_chart.hpp"

#include "html_page.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace npu::html {

namespace {

// The drawing area in SVG units; the SVG scales to the page width and keeps its proportions.
constexpr double kWidth = 1200.0;
constexpr double kHeight = 330.0;
constexpr double kLeft = 76.0;
constexpr double kRight = 16.0;
constexpr double kTop = 30.0;
constexpr double kBottom = 54.0;
constexpr double kPlotWidth = kWidth - kLeft - kRight;
constexpr double kPlotHeight = kHeight - kTop - kBottom;
constexpr std::size_t kYTicks = 6;
constexpr std::size_t kMaxXTicks = 24;

std::string n(double value) {
  return fixed(value, 1);
}

/// Maps values of [ticks.first, ticks.last()] onto the plot's height.
struct YScale {
  Ticks ticks;
  [[nodiscard]] double operator()(double value) const {
    const double span = ticks.last() - ticks.first;
    return kTop + kPlotHeight - (value - ticks.first) / (span > 0 ? span : 1.0) * kPlotHeight;
  }
};

std::string open(const std::string& id, const std::string& title) {
  return "<figure id=\"" + escape(id) + "\"><figcaption>" + escape(title) +
         "</figcaption>\n<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + n(kWidth) + " " +
         n(kHeight) + "\" role=\"img\" aria-label=\"" + escape(title) + "\"><title>" + escape(title) + "</title>\n";
}

std::string close() {
  return "</svg></figure>\n";
}

/// Grid lines, y ticks and labels, the axis lines and both axis titles.
std::string frame(const YScale& y, std::size_t slots, const std::string& yLabel, const std::string& xLabel) {
  std::ostringstream out;
  out << "<g class=\"y-axis\">\n";
  for (std::size_t i = 0; i < y.ticks.count; ++i) {
    const double value = y.ticks.at(i);
    const double at = y(value);
    out << "<line class=\"grid\" x1=\"" << n(kLeft) << "\" y1=\"" << n(at) << "\" x2=\"" << n(kLeft + kPlotWidth)
        << "\" y2=\"" << n(at) << "\"/><text class=\"tick\" x=\"" << n(kLeft - 6) << "\" y=\"" << n(at + 4)
        << "\" text-anchor=\"end\">" << tickLabel(value, y.ticks.step) << "</text>\n";
  }
  out << "<text class=\"axis-label\" transform=\"translate(16," << n(kTop + kPlotHeight / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">" << escape(yLabel) << "</text>\n</g>\n";
  out << "<g class=\"x-axis\">\n";
  const Ticks x = niceTicks(0.0, static_cast<double>(std::max<std::size_t>(slots, 1) - 1),
                            std::min(kMaxXTicks, std::max<std::size_t>(slots, 1)));
  const double slotWidth = kPlotWidth / static_cast<double>(std::max<std::size_t>(slots, 1));
  for (std::size_t i = 0; i < x.count && x.at(i) < static_cast<double>(slots); ++i) {
    const double at = kLeft + slotWidth * (x.at(i) + 0.5);
    out << "<line class=\"axis\" x1=\"" << n(at) << "\" y1=\"" << n(kTop + kPlotHeight) << "\" x2=\"" << n(at)
        << "\" y2=\"" << n(kTop + kPlotHeight + 5) << "\"/><text class=\"tick\" x=\"" << n(at) << "\" y=\""
        << n(kTop + kPlotHeight + 18) << "\" text-anchor=\"middle\">" << tickLabel(x.at(i), x.step) << "</text>\n";
  }
  out << "<text class=\"axis-label\" x=\"" << n(kLeft + kPlotWidth / 2) << "\" y=\"" << n(kHeight - 8)
      << "\" text-anchor=\"middle\">" << escape(xLabel) << "</text>\n</g>\n";
  const double zero = std::clamp(y(0.0), kTop, kTop + kPlotHeight);
  out << "<line class=\"axis\" x1=\"" << n(kLeft) << "\" y1=\"" << n(kTop) << "\" x2=\"" << n(kLeft) << "\" y2=\""
      << n(kTop + kPlotHeight) << "\"/>\n<line class=\"axis\" x1=\"" << n(kLeft) << "\" y1=\"" << n(zero) << "\" x2=\""
      << n(kLeft + kPlotWidth) << "\" y2=\"" << n(zero) << "\"/>\n";
  return out.str();
}

/// The legend, right-aligned above the plot.
std::string legend(const std::vector<LegendEntry>& entries, const std::vector<bool>& dashed = {}) {
  std::ostringstream out;
  double width = 0.0;
  for (const auto& entry : entries) {
    width += 30.0 + 7.0 * static_cast<double>(entry.label.size());
  }
  double x = kLeft + kPlotWidth - width;
  out << "<g class=\"legend-box\">\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& entry = entries[i];
    if (i < dashed.size() && dashed[i]) {
      out << "<line x1=\"" << n(x) << "\" y1=\"" << n(kTop - 15) << "\" x2=\"" << n(x + 16) << "\" y2=\""
          << n(kTop - 15) << "\" stroke=\"" << entry.colour << "\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>";
    } else {
      out << "<rect x=\"" << n(x) << "\" y=\"" << n(kTop - 21) << "\" width=\"12\" height=\"12\" fill=\""
          << entry.colour << "\"/>";
    }
    out << "<text class=\"legend\" x=\"" << n(x + 19) << "\" y=\"" << n(kTop - 11) << "\">" << escape(entry.label)
        << "</text>\n";
    x += 30.0 + 7.0 * static_cast<double>(entry.label.size());
  }
  out << "</g>\n";
  return out.str();
}

} // namespace

Ticks niceTicks(double lower, double upper, std::size_t target) {
  if (!(upper > lower)) {
    upper = lower + 1.0;
  }
  const double rough = (upper - lower) / static_cast<double>(std::max<std::size_t>(target, 1));
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  // The nice step nearest to the rough one (on a log scale), so the count stays near the target.
  double step = magnitude;
  for (double factor : {2.0, 5.0, 10.0}) {
    if (std::fabs(std::log(factor * magnitude / rough)) < std::fabs(std::log(step / rough))) {
      step = factor * magnitude;
    }
  }
  const double first = std::floor(lower / step) * step;
  const auto count = static_cast<std::size_t>(std::ceil((upper - first) / step - 1e-9)) + 1;
  return {first, step, count};
}

std::string tickLabel(double value, double step) {
  const auto decimalsFor = [](double scaledStep) {
    return scaledStep >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(scaledStep) - 1e-9));
  };
  if (std::fabs(value) < step * 1e-6) {
    return "0";
  }
  for (const auto& [scale, suffix] : {std::pair{1e9, "G"}, std::pair{1e6, "M"}, std::pair{1e3, "k"}}) {
    if (step >= scale / 10.0 && std::fabs(value) >= scale) {
      return fixed(value / scale, decimalsFor(step / scale)) + suffix;
    }
  }
  return fixed(value, decimalsFor(step));
}

std::string renderBarChart(const BarChart& chart) {
  double lowest = 0.0;
  double highest = 0.0;
  std::size_t groups = 1;
  for (const auto& slot : chart.slots) {
    groups = std::max(groups, slot.size());
    for (const auto& bar : slot) {
      double up = 0.0;
      double down = 0.0;
      for (const auto& segment : bar.segments) {
        (segment.value >= 0 ? up : down) += segment.value;
      }
      highest = std::max(highest, up);
      lowest = std::min(lowest, down);
    }
  }
  const YScale y{niceTicks(lowest, highest, kYTicks)};
  std::ostringstream out;
  out << open(chart.id, chart.title) << frame(y, chart.slots.size(), chart.yLabel, chart.xLabel) << legend(chart.legend)
      << "<g class=\"bars\">\n";
  const double slotWidth = kPlotWidth / static_cast<double>(std::max<std::size_t>(chart.slots.size(), 1));
  const double barWidth = slotWidth * (groups > 1 ? 0.9 : 0.8) / static_cast<double>(groups);
  for (std::size_t s = 0; s < chart.slots.size(); ++s) {
    const double left = kLeft + slotWidth * static_cast<double>(s) + slotWidth * (groups > 1 ? 0.05 : 0.1);
    for (std::size_t g = 0; g < chart.slots[s].size(); ++g) {
      const Bar& bar = chart.slots[s][g];
      out << "<g><title>" << escape(bar.tooltip) << "</title>";
      double up = 0.0;
      double down = 0.0;
      for (const auto& segment : bar.segments) {
        if (segment.value == 0.0) {
          continue;
        }
        double& base = segment.value > 0 ? up : down;
        const double from = y(base);
        base += segment.value;
        const double to = y(base);
        out << "<rect x=\"" << fixed(left + barWidth * static_cast<double>(g), 2) << "\" y=\""
            << fixed(std::min(from, to), 2) << "\" width=\"" << fixed(std::max(barWidth - 0.5, 0.5), 2)
            << "\" height=\"" << fixed(std::fabs(to - from), 2) << "\" fill=\"" << segment.colour << "\"/>";
      }
      out << "</g>\n";
    }
  }
  out << "</g>\n" << close();
  return out.str();
}

std::string renderStepChart(const StepChart& chart) {
  std::size_t slots = 0;
  double highest = 0.0;
  for (const auto& series : chart.series) {
    slots = std::max(slots, series.values.size());
    for (double value : series.values) {
      highest = std::max(highest, value);
    }
  }
  // A level far above the data (e.g. a limit of gigabytes) would flatten the chart: it is only named.
  // Without data, the lowest level sets the scale.
  double reference = highest;
  for (const auto& level : chart.levels) {
    reference = highest > 0.0 ? reference : (reference == 0.0 ? level.value : std::min(reference, level.value));
  }
  std::vector<bool> onScale;
  for (const auto& level : chart.levels) {
    onScale.push_back(level.value <= reference * 4.0);
    highest = onScale.back() ? std::max(highest, level.value) : highest;
  }
  const YScale y{niceTicks(0.0, highest * 1.02, kYTicks)};
  std::vector<LegendEntry> entries;
  std::vector<bool> dashed;
  for (const auto& series : chart.series) {
    entries.push_back({series.label, series.colour});
    dashed.push_back(false);
  }
  for (std::size_t i = 0; i < chart.levels.size(); ++i) {
    entries.push_back({chart.levels[i].label + (onScale[i] ? "" : " (off the scale)"), chart.levels[i].colour});
    dashed.push_back(true);
  }
  std::ostringstream out;
  out << open(chart.id, chart.title) << frame(y, slots, chart.yLabel, chart.xLabel) << legend(entries, dashed);
  const double slotWidth = kPlotWidth / static_cast<double>(std::max<std::size_t>(slots, 1));
  for (std::size_t i = 0; i < chart.levels.size(); ++i) {
    if (onScale[i]) {
      const double at = y(chart.levels[i].value);
      out << "<line class=\"level\" x1=\"" << n(kLeft) << "\" y1=\"" << n(at) << "\" x2=\"" << n(kLeft + kPlotWidth)
          << "\" y2=\"" << n(at) << "\" stroke=\"" << chart.levels[i].colour
          << "\" stroke-width=\"2\" stroke-dasharray=\"8 4\"><title>" << escape(chart.levels[i].label)
          << "</title></line>\n";
    }
  }
  for (const auto& series : chart.series) {
    out << "<polyline class=\"series\" fill=\"none\" stroke-width=\"2\" stroke=\"" << series.colour << "\" points=\"";
    for (std::size_t i = 0; i < series.values.size(); ++i) {
      const double at = y(series.values[i]);
      out << fixed(kLeft + slotWidth * static_cast<double>(i), 2) << "," << fixed(at, 2) << " "
          << fixed(kLeft + slotWidth * static_cast<double>(i + 1), 2) << "," << fixed(at, 2) << " ";
    }
    out << "\"><title>" << escape(series.label) << "</title></polyline>\n";
  }
  out << close();
  return out.str();
}

} // namespace npu::html
