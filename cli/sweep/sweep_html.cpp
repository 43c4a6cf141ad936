// SPDX-License-Identifier: Apache-2.0
#include "sweep_html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace npu::sweep {

namespace {

constexpr const char* kCycles = "cycles_total";
constexpr const char* kSram = "sram_memory_used";

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
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

std::string number(double value, const char* format = "%.4g") {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string configurationLabel(const SweepTable& table, const SweepRow& row) {
  std::string label = "#" + std::to_string(row.configuration);
  for (std::size_t axis = 0; axis < row.axisValues.size() && axis < table.axisNames.size(); ++axis) {
    label += " " + table.axisNames[axis] + "=" + row.axisValues[axis];
  }
  return label;
}

struct Frame {
  double minX, maxX, minY, maxY;
  static constexpr double kWidth = 560, kHeight = 320, kLeft = 80, kRight = 45, kTop = 20, kBottom = 45;
  [[nodiscard]] double x(double value) const {
    return kLeft + (maxX > minX ? (value - minX) / (maxX - minX) : 0.5) * (kWidth - kLeft - kRight);
  }
  [[nodiscard]] double y(double value) const {
    return kHeight - kBottom - (maxY > minY ? (value - minY) / (maxY - minY) : 0.5) * (kHeight - kTop - kBottom);
  }
};

Frame frameAround(const std::vector<TradeOffPoint>& points) {
  Frame frame{points[0].sram, points[0].sram, points[0].cycles, points[0].cycles};
  for (const auto& point : points) {
    frame.minX = std::min(frame.minX, point.sram);
    frame.maxX = std::max(frame.maxX, point.sram);
    frame.minY = std::min(frame.minY, point.cycles);
    frame.maxY = std::max(frame.maxY, point.cycles);
  }
  const double padX = (frame.maxX - frame.minX) * 0.05;
  const double padY = (frame.maxY - frame.minY) * 0.05;
  return Frame{frame.minX - padX, frame.maxX + padX, frame.minY - padY, frame.maxY + padY};
}

/// Five evenly spaced tick labels from low to high, with as many digits as it takes to tell them apart.
std::vector<std::string> tickLabels(double low, double high) {
  std::vector<std::string> labels;
  for (int digits = 4; digits <= 12; ++digits) {
    const std::string format = "%." + std::to_string(digits) + "g";
    labels.clear();
    for (int tick = 0; tick <= 4; ++tick) {
      labels.push_back(number(low + (high - low) * tick / 4, format.c_str()));
    }
    if (std::set<std::string>(labels.begin(), labels.end()).size() == labels.size() || high <= low) {
      break;
    }
  }
  return labels;
}

std::string axesSvg(const Frame& frame, const std::string& xTitle, const std::string& yTitle) {
  std::string svg;
  const auto xLabels = tickLabels(frame.minX, frame.maxX);
  const auto yLabels = tickLabels(frame.minY, frame.maxY);
  const double bottom = Frame::kHeight - Frame::kBottom;
  svg += "<line x1='" + number(Frame::kLeft) + "' y1='" + number(bottom) + "' x2='" +
         number(Frame::kWidth - Frame::kRight) + "' y2='" + number(bottom) + "' stroke='#444'/>";
  svg += "<line x1='" + number(Frame::kLeft) + "' y1='" + number(Frame::kTop) + "' x2='" + number(Frame::kLeft) +
         "' y2='" + number(bottom) + "' stroke='#444'/>";
  for (int tick = 0; tick <= 4; ++tick) {
    const double vx = frame.minX + (frame.maxX - frame.minX) * tick / 4;
    const double vy = frame.minY + (frame.maxY - frame.minY) * tick / 4;
    svg += "<text x='" + number(frame.x(vx), "%.1f") + "' y='" + number(bottom + 15) + "' text-anchor='middle'>" +
           xLabels[static_cast<std::size_t>(tick)] + "</text>";
    svg += "<text x='" + number(Frame::kLeft - 4) + "' y='" + number(frame.y(vy) + 4, "%.1f") + "' text-anchor='end'>" +
           yLabels[static_cast<std::size_t>(tick)] + "</text>";
  }
  svg += "<text x='" + number((Frame::kLeft + Frame::kWidth) / 2) + "' y='" + number(Frame::kHeight - 8) +
         "' text-anchor='middle'>" + escape(xTitle) + "</text>";
  svg += "<text x='12' y='" + number(Frame::kTop - 6) + "'>" + escape(yTitle) + "</text>";
  return svg;
}

std::string openSvg() {
  return "<svg xmlns='http://www.w3.org/2000/svg' width='" + number(Frame::kWidth) + "' height='" +
         number(Frame::kHeight) + "' font-size='11' font-family='sans-serif'>";
}

/// A scatter of cycles against SRAM with the Pareto front drawn as a staircase and listed below.
std::string tradeOffPlot(const std::vector<TradeOffPoint>& points) {
  if (points.empty()) {
    return "<p>No point compiled.</p>\n";
  }
  const Frame frame = frameAround(points);
  const auto front = paretoFront(points);
  const std::set<std::size_t> onFront(front.begin(), front.end());
  std::string svg = openSvg() + axesSvg(frame, "SRAM peak (KiB)", "cycles");
  std::string staircase;
  for (std::size_t i = 0; i < front.size(); ++i) {
    const auto& point = points[front[i]];
    if (i > 0) {
      staircase +=
          " " + number(frame.x(point.sram), "%.1f") + "," + number(frame.y(points[front[i - 1]].cycles), "%.1f");
    }
    staircase += " " + number(frame.x(point.sram), "%.1f") + "," + number(frame.y(point.cycles), "%.1f");
  }
  svg += "<polyline fill='none' stroke='#c0392b' stroke-width='1.5' points='" + staircase + "'/>";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const bool best = onFront.contains(i);
    svg += "<circle cx='" + number(frame.x(points[i].sram), "%.1f") + "' cy='" +
           number(frame.y(points[i].cycles), "%.1f") + "' r='" + (best ? "4" : "3") + "' fill='" +
           (best ? "#c0392b" : "#7f8c8d") + "'><title>" + escape(points[i].label) + ": " +
           number(points[i].sram, "%.6g") + " KiB, " + number(points[i].cycles, "%.0f") + " cycles</title></circle>";
  }
  svg += "</svg>\n";
  std::string list = "<table><tr><th>on the front</th><th>SRAM peak (KiB)</th><th>cycles</th></tr>\n";
  for (const std::size_t index : front) {
    list += "<tr><td>" + escape(points[index].label) + "</td><td>" + number(points[index].sram, "%.6g") + "</td><td>" +
            number(points[index].cycles, "%.0f") + "</td></tr>\n";
  }
  return svg + list + "</table>\n";
}

/// Horizontal bars: one per value of the axis, the geometric mean over networks of a figure relative
/// to that network's best, over the compiled points with that value.
std::string axisPlot(const SweepTable& table, std::size_t axis, const char* column, const std::string& title) {
  std::map<std::string, double> best;
  for (const auto& row : table.rows) {
    if (const auto value = row.number(column); value && row.status == "ok") {
      best[row.network] = best.contains(row.network) ? std::min(best[row.network], *value) : *value;
    }
  }
  std::vector<std::string> values;
  std::map<std::string, std::pair<double, int>> logSums;
  for (const auto& row : table.rows) {
    const std::string& label = row.axisValues[axis];
    if (std::find(values.begin(), values.end(), label) == values.end()) {
      values.push_back(label);
    }
    const auto value = row.number(column);
    if (value && row.status == "ok" && best[row.network] > 0 && *value > 0) {
      auto& [sum, count] = logSums[label];
      sum += std::log(*value / best[row.network]);
      ++count;
    }
  }
  double highest = 1;
  for (const auto& [label, sums] : logSums) {
    highest = std::max(highest, std::exp(sums.first / sums.second));
  }
  constexpr double kLabelWidth = 190, kBarSpace = 300, kRowHeight = 22;
  const double height = 30 + kRowHeight * static_cast<double>(values.size());
  std::string svg = "<svg xmlns='http://www.w3.org/2000/svg' width='" + number(kLabelWidth + kBarSpace + 60) +
                    "' height='" + number(height) + "' font-size='11' font-family='sans-serif'><text x='" +
                    number(kLabelWidth) + "' y='14'>" + escape(title) + "</text>";
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double top = 22 + kRowHeight * static_cast<double>(i);
    const std::string shown = values[i].size() > 30 ? values[i].substr(0, 29) + "…" : values[i];
    svg += "<text x='" + number(kLabelWidth - 6) + "' y='" + number(top + 14) + "' text-anchor='end'>" + escape(shown) +
           "</text>";
    const auto found = logSums.find(values[i]);
    if (found == logSums.end()) {
      svg += "<text x='" + number(kLabelWidth) + "' y='" + number(top + 14) + "'>nothing compiled</text>";
      continue;
    }
    const double mean = std::exp(found->second.first / found->second.second);
    const double width = kBarSpace * mean / highest;
    svg += "<rect x='" + number(kLabelWidth) + "' y='" + number(top + 2) + "' width='" + number(width, "%.1f") +
           "' height='" + number(kRowHeight - 6) + "' fill='#2980b9'><title>" + escape(values[i]) + "</title></rect>";
    svg += "<text x='" + number(kLabelWidth + width + 4, "%.1f") + "' y='" + number(top + 14) + "'>" +
           number(mean, "%.3f") + "</text>";
  }
  return svg + "</svg>\n";
}

} // namespace

std::vector<std::size_t> paretoFront(const std::vector<TradeOffPoint>& points) {
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return points[a].sram != points[b].sram ? points[a].sram < points[b].sram : points[a].cycles < points[b].cycles;
  });
  std::vector<std::size_t> front;
  for (const std::size_t index : order) {
    if (front.empty() || points[index].cycles < points[front.back()].cycles) {
      front.push_back(index);
    }
  }
  return front;
}

std::vector<TradeOffPoint> aggregatedPoints(const SweepTable& table) {
  std::set<std::string> networks;
  std::map<std::size_t, TradeOffPoint> sums;
  std::map<std::size_t, std::size_t> compiled;
  for (const auto& row : table.rows) {
    networks.insert(row.network);
    const auto cycles = row.number(kCycles);
    const auto sram = row.number(kSram);
    if (row.status != "ok" || !cycles || !sram) {
      continue;
    }
    auto& point = sums[row.configuration];
    point.cycles += *cycles;
    point.sram = std::max(point.sram, *sram);
    point.label = configurationLabel(table, row);
    ++compiled[row.configuration];
  }
  std::vector<TradeOffPoint> points;
  for (const auto& [configuration, point] : sums) {
    if (compiled[configuration] == networks.size()) {
      points.push_back(point);
    }
  }
  return points;
}

std::string renderSweepHtml(const SweepTable& table) {
  std::string html = "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>sweep " + escape(table.name) +
                     "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
                     "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}</style></head><body>\n";
  html += "<h1>Sweep " + escape(table.name) + "</h1>\n<p>" + std::to_string(table.rows.size()) +
          " points: " + std::to_string(table.count("ok")) + " compiled, " + std::to_string(table.count("failed")) +
          " failed, " + std::to_string(table.count("error")) + " internal errors, " +
          std::to_string(table.count("missing")) + " missing. Cycles are <code>" + kCycles + "</code>, SRAM is <code>" +
          kSram + "</code> (KiB); red points are on the Pareto front.</p>\n";
  std::string failures;
  for (const auto& row : table.rows) {
    if (row.status != "ok") {
      failures += "<tr><td>" + escape(row.network) + "</td><td>" + escape(configurationLabel(table, row)) +
                  "</td><td>" + row.status + "</td><td>" + escape(row.reason) + "</td></tr>\n";
    }
  }
  if (!failures.empty()) {
    html += "<h2>Points without a result</h2>\n<table><tr><th>network</th><th>configuration</th><th>status</th>"
            "<th>reason</th></tr>\n" +
            failures + "</table>\n";
  }
  html += "<h2>All networks: cycles summed, SRAM peak the largest</h2>\n" + tradeOffPlot(aggregatedPoints(table));
  std::vector<std::string> networks;
  std::map<std::string, std::vector<TradeOffPoint>> perNetwork;
  for (const auto& row : table.rows) {
    if (perNetwork.emplace(row.network, std::vector<TradeOffPoint>{}).second) {
      networks.push_back(row.network);
    }
    const auto cycles = row.number(kCycles);
    const auto sram = row.number(kSram);
    if (row.status == "ok" && cycles && sram) {
      perNetwork[row.network].push_back({*sram, *cycles, configurationLabel(table, row)});
    }
  }
  for (const auto& network : networks) {
    html += "<h2>" + escape(network) + "</h2>\n" + tradeOffPlot(perNetwork[network]);
  }
  for (std::size_t axis = 0; axis < table.axisNames.size(); ++axis) {
    html += "<h2>Axis " + escape(table.axisNames[axis]) +
            "</h2>\n<p>Geometric mean over the compiled points of "
            "each value, relative to each network's best (1 is the best seen).</p>\n";
    html += axisPlot(table, axis, kCycles, "cycles / best") + axisPlot(table, axis, kSram, "SRAM peak / best");
  }
  return html + "</body></html>\n";
}

} // namespace npu::sweep
