#include "npu/report/comparison.hpp"
#include "number_format.hpp"

#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace npu {

namespace {

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

std::string signedPercent(double a, double b) {
  if (a == 0.0) {
    return b == 0.0 ? "0.0%" : "n/a";
  }
  const double delta = (b - a) / a * 100.0;
  return (delta > 0 ? "+" : "") + fixed(delta, 1) + "%";
}

std::int64_t sramPeak(const NetworkReport& report) {
  return report.memoryUsed[static_cast<std::size_t>(report.memory.fastStorageArea)];
}

double offChipBytes(const NetworkReport& report) {
  double bytes = 0.0;
  for (auto area : {MemoryArea::Dram, MemoryArea::OffChipFlash}) {
    for (const auto& purpose : report.total.bytes[static_cast<std::size_t>(area)]) {
      bytes += purpose[0] + purpose[1];
    }
  }
  return bytes;
}

/// The figures compared per model, in table order: name, value of a report, decimals.
struct Figure {
  const char* name;
  double (*value)(const NetworkReport&);
  int decimals;
};

const std::vector<Figure>& figures() {
  static const std::vector<Figure> kFigures{
      {"cycles", [](const NetworkReport& r) { return r.totalCycles(); }, 0},
      {"inference_ms", [](const NetworkReport& r) { return r.inferenceSeconds() * 1e3; }, 4},
      {"sram_peak_bytes", [](const NetworkReport& r) { return static_cast<double>(sramPeak(r)); }, 0},
      {"off_chip_bytes", offChipBytes, 0},
      {"encoded_weight_bytes", [](const NetworkReport& r) { return static_cast<double>(r.encodedWeightBytes); }, 0},
      {"npu_layers", [](const NetworkReport& r) { return static_cast<double>(r.layers.size()); }, 0},
  };
  return kFigures;
}

std::string blockText(const BlockConfig& block) {
  return std::to_string(block.ofmBlock.height) + "x" + std::to_string(block.ofmBlock.width) + "x" +
         std::to_string(block.ifmBlock.depth) + "x" + std::to_string(block.ofmBlock.depth);
}

std::string membership(const ScheduledOperation& op) {
  std::string text = op.cascade == 0 ? "-" : "c" + std::to_string(op.cascade);
  if (!op.strategy.empty()) {
    text += "/" + op.strategy;
  }
  return text;
}

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

std::vector<LayerPair> pairLayers(const ComparedModel& model) {
  const auto& a = model.a.layers;
  const auto& b = model.b.layers;
  const auto keyOf = [](const LayerReport& layer) { return std::make_tuple(layer.subgraph, layer.op, layer.name); };
  std::map<std::tuple<int, OperationId, std::string>, std::size_t> indexB;
  for (std::size_t i = 0; i < b.size(); ++i) {
    indexB.emplace(keyOf(b[i]), i);
  }
  std::vector<LayerPair> pairs;
  std::set<std::size_t> usedB;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto it = indexB.find(keyOf(a[i]));
    if (it != indexB.end() && !usedB.contains(it->second)) {
      usedB.insert(it->second);
      pairs.push_back({i, it->second});
    } else {
      pairs.push_back({i, std::nullopt});
    }
  }
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!usedB.contains(i)) {
      pairs.push_back({std::nullopt, i});
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
    for (const auto& figure : figures()) {
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
          << (a != nullptr ? membership(a->schedule) : "-") << std::setw(18)
          << (b != nullptr ? membership(b->schedule) : "-") << std::right << std::setw(12) << fixed(cyclesA, 0)
          << std::setw(12) << fixed(cyclesB, 0) << std::setw(10) << signedPercent(cyclesA, cyclesB) << "  " << any.name
          << "\n";
    }
  }
  return out.str();
}

std::string renderComparisonSummaryCsv(const Comparison& comparison) {
  std::ostringstream out;
  out << "model";
  for (const auto& figure : figures()) {
    out << "," << figure.name << "_a," << figure.name << "_b," << figure.name << "_delta_percent," << figure.name
        << "_winner";
  }
  out << ",failure_a,failure_b\n";
  for (const auto& model : comparison.models) {
    out << csvField(model.model);
    for (const auto& figure : figures()) {
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
