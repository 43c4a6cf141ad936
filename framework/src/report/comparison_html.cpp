// SPDX-License-Identifier: Apache-2.0
// The HTML page of a comparison: the figures of the text and CSV comparison (the same list, computed by
// the same functions), then per model the layers of both schedules aligned by identity (pairLayers),
// with cycles, per-layer deltas and SRAM in use side by side. Self-contained and deterministic.
#include "npu/report/comparison.hpp"

#include "comparison_figures.hpp"
#include "html_page.hpp"
#include "html_report_parts.hpp"

#include <sstream>

namespace npu {

namespace html {

namespace {

constexpr const char* kFasterColour = "#2e8b57";
constexpr const char* kSlowerColour = "#c62828";

/// "better" (green) when b is lower than a, "worse" (red) when higher: every compared figure is a cost.
/// A difference that rounds to 0.0% is not coloured.
std::string deltaCell(double a, double b) {
  const std::string percent = signedPercent(a, b);
  const bool negligible = percent == "+0.0%" || percent == "-0.0%" || percent == "0.0%";
  const char* verdict = negligible ? "" : (b < a ? " class=\"better\"" : (b > a ? " class=\"worse\"" : ""));
  return std::string("<td") + verdict + ">" + percent + "</td>";
}

std::string failureText(const ComparedModel& model) {
  std::string text;
  for (const auto& [side, failure] : {std::pair{"A", &model.failureA}, std::pair{"B", &model.failureB}}) {
    if (!failure->empty()) {
      text += (text.empty() ? "" : "; ") + std::string(side) + " failed: " + *failure;
    }
  }
  return "not compared: " + text;
}

std::string overview(const Comparison& comparison) {
  const auto& figures = detail::comparedFigures();
  std::ostringstream out;
  out << "<table id=\"overview\"><tr><th class=\"l\">model</th>";
  for (const auto& figure : figures) {
    out << "<th>" << escape(figure.label) << "<br>B vs A</th>";
  }
  out << "<th>faster</th></tr>\n";
  for (const auto& model : comparison.models) {
    out << "<tr><td class=\"l\"><a href=\"#model-" << escape(model.model) << "\">" << escape(model.model)
        << "</a></td>";
    if (!model.compared()) {
      out << "<td class=\"l\" colspan=\"" << figures.size() + 1 << "\">" << escape(failureText(model))
          << "</td></tr>\n";
      continue;
    }
    for (const auto& figure : figures) {
      out << deltaCell(figure.value(model.a), figure.value(model.b));
    }
    out << "<td>" << winner(model.a.totalCycles(), model.b.totalCycles()) << "</td></tr>\n";
  }
  out << "</table>\n";
  return out.str();
}

std::string totals(const ComparedModel& model) {
  std::ostringstream out;
  out << "<table class=\"totals\"><tr><th class=\"l\">figure</th><th>A</th><th>B</th><th>B vs A</th>"
         "<th>winner</th></tr>\n";
  for (const auto& figure : detail::comparedFigures()) {
    const double a = figure.value(model.a);
    const double b = figure.value(model.b);
    const auto text = [&](double value) {
      return figure.decimals == 0 ? grouped(value) : fixed(value, figure.decimals);
    };
    out << "<tr data-figure=\"" << figure.name << "\"><td class=\"l\">" << escape(figure.label) << "</td><td>"
        << text(a) << "</td><td>" << text(b) << "</td>" << deltaCell(a, b) << "<td>" << winner(a, b) << "</td></tr>\n";
  }
  out << "</table>\n";
  return out.str();
}

const LayerReport* sideOf(const std::vector<LayerReport>& layers, const std::optional<std::size_t>& index) {
  return index ? &layers[*index] : nullptr;
}

std::string cyclesChart(const ComparedModel& model, const std::vector<LayerPair>& pairs) {
  BarChart chart{"cycles-" + model.model,
                 model.model + ": cycles per layer, A and B side by side",
                 "cycles",
                 "layer (aligned by operation: A's order, layers only one side has in between)",
                 {{"A", kColourA}, {"B", kColourB}},
                 {}};
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::vector<Bar> slot;
    for (const auto& [layers, index, colour, side] : {std::tuple{&model.a.layers, pairs[i].a, kColourA, "A"},
                                                      std::tuple{&model.b.layers, pairs[i].b, kColourB, "B"}}) {
      const LayerReport* layer = sideOf(*layers, index);
      slot.push_back(layer != nullptr ? layerBar(i, *layer, colour, side)
                                      : Bar{{}, std::string(side) + ": no such layer"});
    }
    chart.slots.push_back(std::move(slot));
  }
  return renderBarChart(chart);
}

std::string deltaChart(const ComparedModel& model, const std::vector<LayerPair>& pairs) {
  BarChart chart{"delta-" + model.model,
                 model.model + ": cycles of B minus cycles of A, per layer",
                 "cycle difference (B - A)",
                 "layer (aligned by operation)",
                 {{"B faster", kFasterColour}, {"B slower", kSlowerColour}},
                 {}};
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const LayerReport* a = sideOf(model.a.layers, pairs[i].a);
    const LayerReport* b = sideOf(model.b.layers, pairs[i].b);
    const double cyclesA = a != nullptr ? figures::layerCycles(*a) : 0.0;
    const double cyclesB = b != nullptr ? figures::layerCycles(*b) : 0.0;
    const double delta = cyclesB - cyclesA;
    const LayerReport& any = a != nullptr ? *a : *b;
    chart.slots.push_back({{{{delta, delta < 0 ? kFasterColour : kSlowerColour}},
                            "#" + std::to_string(i) + " " + any.irType + " " + any.name + "\nA " + grouped(cyclesA) +
                                ", B " + grouped(cyclesB) + " cycles (" + signedPercent(cyclesA, cyclesB) + ")"}});
  }
  return renderBarChart(chart);
}

std::string sramChart(const ComparedModel& model, const std::vector<LayerPair>& pairs) {
  StepChart chart{
      "sram-" + model.model,          model.model + ": SRAM in use over the schedule, A and B", "SRAM in use (KiB)",
      "layer (aligned by operation)", {{"A in use", kColourA, {}}, {"B in use", kColourB, {}}}, {}};
  for (const auto& pair : pairs) {
    // A layer only one side has: the other side's use stays as it was.
    for (const auto& [series, layers, index] : {std::tuple{&chart.series[0], &model.a.layers, pair.a},
                                                std::tuple{&chart.series[1], &model.b.layers, pair.b}}) {
      const LayerReport* layer = sideOf(*layers, index);
      const double previous = series->values.empty() ? 0.0 : series->values.back();
      series->values.push_back(layer != nullptr ? static_cast<double>(layer->memoryUsage) / 1024.0 : previous);
    }
  }
  // Both allocated peaks, then the limits: one line when both sides have the same.
  const auto levelsA = sramLevels(model.a, "A");
  const auto levelsB = sramLevels(model.b, "B");
  chart.levels = {levelsA.front(), levelsB.front()};
  if (levelsA.size() > 1 && levelsB.size() > 1 && levelsA[1].value == levelsB[1].value) {
    chart.levels.push_back(sramLevels(model.a)[1]);
  } else {
    chart.levels.insert(chart.levels.end(), levelsA.begin() + 1, levelsA.end());
    chart.levels.insert(chart.levels.end(), levelsB.begin() + 1, levelsB.end());
  }
  return renderStepChart(chart);
}

std::string layerTable(const ComparedModel& model, const std::vector<LayerPair>& pairs) {
  std::ostringstream out;
  out << "<div class=\"scroll\"><table class=\"wide layers\"><tr><th>#</th><th class=\"l\">operation</th><th "
         "class=\"l\">block A</th>"
         "<th class=\"l\">block B</th><th class=\"l\">cascade A</th><th class=\"l\">cascade B</th>"
         "<th>cycles A</th><th>cycles B</th><th>B - A</th><th>B vs A</th><th class=\"l\">bound A</th>"
         "<th class=\"l\">bound B</th><th>SRAM A (bytes)</th><th>SRAM B (bytes)</th><th class=\"l\">name</th></tr>\n";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const LayerReport* a = sideOf(model.a.layers, pairs[i].a);
    const LayerReport* b = sideOf(model.b.layers, pairs[i].b);
    const LayerReport& any = a != nullptr ? *a : *b;
    const auto cell = [](const LayerReport* layer, auto text) {
      return std::string("<td class=\"l\">") + (layer != nullptr ? escape(text(*layer)) : std::string("-")) + "</td>";
    };
    const auto number = [](const LayerReport* layer, auto value) {
      return "<td>" + (layer != nullptr ? grouped(value(*layer)) : std::string("-")) + "</td>";
    };
    const auto block = [](const LayerReport& l) { return detail::blockText(l.schedule.blockConfig); };
    const auto cascade = [](const LayerReport& l) { return detail::membershipText(l.schedule); };
    const auto cycles = [](const LayerReport& l) { return figures::layerCycles(l); };
    const auto bound = [](const LayerReport& l) {
      return std::string(figures::nameOf(figures::boundOf(l.performance)));
    };
    const auto sram = [](const LayerReport& l) { return static_cast<double>(l.memoryUsage); };
    const double cyclesA = a != nullptr ? cycles(*a) : 0.0;
    const double cyclesB = b != nullptr ? cycles(*b) : 0.0;
    out << "<tr data-a=\"" << (a != nullptr ? std::to_string(*pairs[i].a) : "") << "\" data-b=\""
        << (b != nullptr ? std::to_string(*pairs[i].b) : "") << "\"><td>" << i << "</td><td class=\"l\">"
        << escape(any.irType) << "</td>" << cell(a, block) << cell(b, block) << cell(a, cascade) << cell(b, cascade)
        << number(a, cycles) << number(b, cycles) << "<td>" << grouped(cyclesB - cyclesA) << "</td>"
        << deltaCell(cyclesA, cyclesB) << cell(a, bound) << cell(b, bound) << number(a, sram) << number(b, sram)
        << "<td class=\"name\">" << escape(any.name) << "</td></tr>\n";
  }
  out << "</table></div>\n";
  return out.str();
}

} // namespace

} // namespace html

// The figures of the text and CSV comparison, then per model the layers aligned by pairLayers: cycles of A
// and B, the per-layer difference, SRAM in use with both peaks and the limit, and a per-layer table.
std::string renderComparisonHtml(const Comparison& comparison) {
  using namespace html;
  std::ostringstream out;
  out << pageOpen("npu-pipeline comparison");
  out << "<p class=\"sub\"><span class=\"swatch\" style=\"background:" << kColourA << "\"></span>A: <b>"
      << escape(comparison.labelA) << "</b><br><span class=\"swatch\" style=\"background:" << kColourB
      << "\"></span>B: <b>" << escape(comparison.labelB) << "</b></p>\n";
  out << "<p>Lower is better for every figure: green where B is lower than A, red where it is higher.</p>\n";
  out << overview(comparison);
  for (const auto& model : comparison.models) {
    out << "<h2 id=\"model-" << escape(model.model) << "\">" << escape(model.model) << "</h2>\n";
    if (!model.compared()) {
      out << "<p class=\"warning\">" << escape(failureText(model)) << "</p>\n";
      continue;
    }
    const auto pairs = pairLayers(model);
    out << totals(model) << cyclesChart(model, pairs) << deltaChart(model, pairs) << sramChart(model, pairs)
        << layerTable(model, pairs);
  }
  out << pageClose();
  return out.str();
}

} // namespace npu
