// SPDX-License-Identifier: Apache-2.0
#include "npu/report/comparison.hpp"
#include "comparison_figures.hpp"
#include "number_format.hpp"
#include "report_figures.hpp"

#include <iomanip>
#include <map>
#include <sstream>
#include <tuple>

namespace npu {

namespace detail {

const std::vector<ComparedFigure>& comparedFigures() {
  static const std::vector<ComparedFigure> kFigures{
      {"cycles", "cycles", [](const NetworkReport& r) { return r.totalCycles(); }, 0},
      {"inference_ms", "inference time (ms)", [](const NetworkReport& r) { return r.inferenceSeconds() * 1e3; }, 4},
      {"sram_peak_bytes", "SRAM peak (bytes)",
       [](const NetworkReport& r) { return static_cast<double>(figures::sramPeakBytes(r)); }, 0},
      {"off_chip_bytes", "off-chip traffic (bytes read and written)", figures::offChipBytes, 0},
      {"encoded_weight_bytes", "encoded weights (bytes)",
       [](const NetworkReport& r) { return static_cast<double>(r.encodedWeightBytes); }, 0},
      {"npu_layers", "NPU layers", [](const NetworkReport& r) { return static_cast<double>(r.layers.size()); }, 0},
  };
  return kFigures;
}

std::string blockText(const BlockConfig& block) {
  return std::to_string(block.ofmBlock.height) + "x" + std::to_string(block.ofmBlock.width) + "x" +
         std::to_string(block.ifmBlock.depth) + "x" + std::to_string(block.ofmBlock.depth);
}

std::string membershipText(const ScheduledOperation& op) {
  std::string text = op.cascade == 0 ? "-" : "c" + std::to_string(op.cascade);
  if (!op.strategy.empty()) {
    text += "/" + op.strategy;
  }
  return text;
}

} // namespace detail

namespace {

using detail::blockText;
using detail::fixed;
using detail::signedPercent;

std::string csvField(const std::string& text) {
  return text.find_first_of(",\"") == std::string::npos ? text : "\"" + text + "\"";
}

} // namespace

std::string winner(double a, double b) {
  if (a == b) {
    return "tie";
  }
  return a < b ? "A" : "B";
}

// The pairs follow A's order; a layer only B has comes right after the pair of the B layer before it.
std::vector<LayerPair> pairLayers(const ComparedModel& model) {
  const auto& a = model.a.layers;
  const auto& b = model.b.layers;
  // First by identity in the lowered graph (both sides lowered the same model the same way), then, for
  // what is left (different lowering), by operation name.
  std::vector<std::optional<std::size_t>> partnerOfA(a.size());
  std::vector<bool> pairedB(b.size(), false);
  const auto match = [&](auto keyOf) {
    std::map<decltype(keyOf(a.front())), std::size_t> indexB;
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (!pairedB[i]) {
        indexB.emplace(keyOf(b[i]), i);
      }
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto it = partnerOfA[i] ? indexB.end() : indexB.find(keyOf(a[i]));
      if (it != indexB.end()) {
        partnerOfA[i] = it->second;
        pairedB[it->second] = true;
        indexB.erase(it);
      }
    }
  };
  if (!a.empty() && !b.empty()) {
    match([](const LayerReport& layer) { return std::make_tuple(layer.subgraph, layer.op, layer.name); });
    match([](const LayerReport& layer) { return layer.name; });
  }
  // A's order; a layer only B has goes right after the pair of the B layer before it.
  std::vector<std::vector<std::size_t>> onlyBAfter(a.size() + 1);
  std::vector<std::size_t> pairOfB(b.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (partnerOfA[i]) {
      pairOfB[*partnerOfA[i]] = i;
    }
  }
  std::size_t anchor = a.size(); // before any A layer
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (pairedB[i]) {
      anchor = pairOfB[i];
    } else {
      onlyBAfter[anchor == a.size() ? 0 : anchor + 1].push_back(i);
    }
  }
  std::vector<LayerPair> pairs;
  for (std::size_t i = 0; i <= a.size(); ++i) {
    for (std::size_t onlyB : onlyBAfter[i]) {
      pairs.push_back({std::nullopt, onlyB});
    }
    if (i < a.size()) {
      pairs.push_back({i, partnerOfA[i]});
    }
  }
  return pairs;
}

std::string renderComparisonText(const Comparison& comparison) {
  std::ostringstream out;
  out << "A: " << comparison.labelA << "\nB: " << comparison.labelB << "\n\n";
  out << std::left << std::setw(44) << "model" << std::setw(22) << "figure" << std::right << std::setw(16) << "A"
      << std::setw(16) << "B" << std::setw(10) << "B vs A" << std::setw(8) << "winner"
      << "\n";
  int winsA = 0;
  int winsB = 0;
  std::size_t compared = 0;
  for (const auto& model : comparison.models) {
    if (!model.compared()) {
      out << std::left << std::setw(44) << model.model << "not compared\n";
      for (const auto& [side, failure] : {std::pair{"A", &model.failureA}, std::pair{"B", &model.failureB}}) {
        if (!failure->empty()) {
          out << "  " << side << " failed: " << *failure << "\n";
        }
      }
      continue;
    }
    ++compared;
    for (const auto& figure : detail::comparedFigures()) {
      const double a = figure.value(model.a);
      const double b = figure.value(model.b);
      out << std::left << std::setw(44) << model.model << std::setw(22) << figure.name << std::right << std::setw(16)
          << fixed(a, figure.decimals) << std::setw(16) << fixed(b, figure.decimals) << std::setw(10)
          << signedPercent(a, b) << std::setw(8) << winner(a, b) << "\n";
    }
    const std::string cyclesWinner = winner(model.a.totalCycles(), model.b.totalCycles());
    winsA += cyclesWinner == "A" ? 1 : 0;
    winsB += cyclesWinner == "B" ? 1 : 0;
  }
  out << "\nfaster (total cycles): A on " << winsA << ", B on " << winsB << " of " << compared << " models";
  if (compared != comparison.models.size()) {
    out << " (" << comparison.models.size() - compared << " not compared: a pipeline failed)";
  }
  out << "\n";
  for (const auto& model : comparison.models) {
    if (!model.compared()) {
      continue;
    }
    out << "\n" << model.model << " per layer\n";
    out << std::left << std::setw(5) << "#" << std::setw(20) << "operation" << std::setw(14) << "block A"
        << std::setw(14) << "block B" << std::setw(18) << "casc A" << std::setw(18) << "casc B" << std::right
        << std::setw(12) << "cycles A" << std::setw(12) << "cycles B" << std::setw(10) << "B vs A"
        << "  name\n";
    const auto pairs = pairLayers(model);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const LayerReport* a = pairs[i].a ? &model.a.layers[*pairs[i].a] : nullptr;
      const LayerReport* b = pairs[i].b ? &model.b.layers[*pairs[i].b] : nullptr;
      const LayerReport& any = a != nullptr ? *a : *b;
      const double cyclesA = a != nullptr ? a->performance.cycle(CycleComponent::Total) : 0.0;
      const double cyclesB = b != nullptr ? b->performance.cycle(CycleComponent::Total) : 0.0;
      out << std::left << std::setw(5) << i << std::setw(20) << any.irType << std::setw(14)
          << (a != nullptr ? blockText(a->schedule.blockConfig) : "-") << std::setw(14)
          << (b != nullptr ? blockText(b->schedule.blockConfig) : "-") << std::setw(18)
          << (a != nullptr ? detail::membershipText(a->schedule) : "-") << std::setw(18)
          << (b != nullptr ? detail::membershipText(b->schedule) : "-") << std::right << std::setw(12)
          << fixed(cyclesA, 0) << std::setw(12) << fixed(cyclesB, 0) << std::setw(10) << signedPercent(cyclesA, cyclesB)
          << "  " << any.name << "\n";
    }
  }
  return out.str();
}

std::string renderComparisonSummaryCsv(const Comparison& comparison) {
  std::ostringstream out;
  out << "model";
  for (const auto& figure : detail::comparedFigures()) {
    out << "," << figure.name << "_a," << figure.name << "_b," << figure.name << "_delta_percent," << figure.name
        << "_winner";
  }
  out << ",failure_a,failure_b\n";
  for (const auto& model : comparison.models) {
    out << csvField(model.model);
    for (const auto& figure : detail::comparedFigures()) {
      if (!model.compared()) {
        out << ",,,,";
        continue;
      }
      const double a = figure.value(model.a);
      const double b = figure.value(model.b);
      out << "," << detail::pythonFloat(a) << "," << detail::pythonFloat(b) << ","
          << (a == 0.0 ? std::string() : detail::pythonFloat((b - a) / a * 100.0)) << "," << winner(a, b);
    }
    out << "," << csvField(model.failureA) << "," << csvField(model.failureB) << "\n";
  }
  return out.str();
}

std::string renderComparisonLayersCsv(const Comparison&, const ComparedModel& model) {
  std::ostringstream out;
  out << "index,name,operation,tflite_operator,block_a,block_b,cascade_a,cascade_b,strategy_a,strategy_b,"
         "cycles_a,cycles_b,npu_cycles_a,npu_cycles_b,sram_usage_a,sram_usage_b,macs\n";
  const auto pairs = pairLayers(model);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const LayerReport* a = pairs[i].a ? &model.a.layers[*pairs[i].a] : nullptr;
    const LayerReport* b = pairs[i].b ? &model.b.layers[*pairs[i].b] : nullptr;
    const LayerReport& any = a != nullptr ? *a : *b;
    const auto value = [](const LayerReport* layer, auto get) -> std::string {
      return layer == nullptr ? std::string() : get(*layer);
    };
    out << i << "," << csvField(any.name) << "," << any.irType << "," << any.sourceType << ","
        << value(a, [](const LayerReport& l) { return blockText(l.schedule.blockConfig); }) << ","
        << value(b, [](const LayerReport& l) { return blockText(l.schedule.blockConfig); }) << ","
        << value(a, [](const LayerReport& l) { return std::to_string(l.schedule.cascade); }) << ","
        << value(b, [](const LayerReport& l) { return std::to_string(l.schedule.cascade); }) << ","
        << value(a, [](const LayerReport& l) { return l.schedule.strategy; }) << ","
        << value(b, [](const LayerReport& l) { return l.schedule.strategy; }) << ","
        << value(a,
                 [](const LayerReport& l) { return detail::pythonFloat(l.performance.cycle(CycleComponent::Total)); })
        << ","
        << value(b,
                 [](const LayerReport& l) { return detail::pythonFloat(l.performance.cycle(CycleComponent::Total)); })
        << ","
        << value(a, [](const LayerReport& l) { return detail::pythonFloat(l.performance.cycle(CycleComponent::Npu)); })
        << ","
        << value(b, [](const LayerReport& l) { return detail::pythonFloat(l.performance.cycle(CycleComponent::Npu)); })
        << "," << value(a, [](const LayerReport& l) { return std::to_string(l.memoryUsage); }) << ","
        << value(b, [](const LayerReport& l) { return std::to_string(l.memoryUsage); }) << "," << any.performance.macs
        << "\n";
  }
  return out.str();
}

} // namespace npu
