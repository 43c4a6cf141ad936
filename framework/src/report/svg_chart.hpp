// SPDX-License-Identifier: Apache-2.0
// Charts as inline SVG for the HTML reports: titled, with ticked and labelled axes, a legend, a tooltip
// per bar, scaled to the page width. No scripts, no external resources, deterministic text.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace npu::html {

struct LegendEntry {
  std::string label;
  std::string colour;
};

/// One part of a stacked bar; negative values grow downwards from zero.
struct Segment {
  double value = 0.0;
  std::string colour;
};

struct Bar {
  std::vector<Segment> segments;
  std::string tooltip;
};

/// Bars over an x axis of slots (layers); each slot holds one bar per group (e.g. A and B).
struct BarChart {
  std::string id; ///< HTML id of the figure
  std::string title;
  std::string yLabel; ///< with its unit, e.g. "cycles"
  std::string xLabel;
  std::vector<LegendEntry> legend;
  std::vector<std::vector<Bar>> slots;
};

/// A horizontal reference line, e.g. the SRAM limit.
struct Level {
  std::string label;
  double value = 0.0;
  std::string colour;
};

/// A value held from one slot to the next (e.g. SRAM in use while each layer runs).
struct StepSeries {
  std::string label;
  std::string colour;
  std::vector<double> values;
};

struct StepChart {
  std::string id;
  std::string title;
  std::string yLabel;
  std::string xLabel;
  std::vector<StepSeries> series;
  std::vector<Level> levels;
};

/// Tick positions for an axis from lower to upper: steps of 1, 2 or 5 times a power of ten, about
/// `target` of them (the step nearest to range / target), the range widened to whole steps.
struct Ticks {
  double first = 0.0;
  double step = 1.0;
  std::size_t count = 1;
  [[nodiscard]] double at(std::size_t i) const { return first + step * static_cast<double>(i); }
  [[nodiscard]] double last() const { return at(count - 1); }
};
[[nodiscard]] Ticks niceTicks(double lower, double upper, std::size_t target);

/// A tick label: 0, 250, 12.5k, 1.2M, with as many decimals as the step needs.
[[nodiscard]] std::string tickLabel(double value, double step);

[[nodiscard]] std::string renderBarChart(const BarChart& chart);
[[nodiscard]] std::string renderStepChart(const StepChart& chart);

} // namespace npu::html
