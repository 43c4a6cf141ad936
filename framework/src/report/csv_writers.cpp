// SPDX-License-Identifier: Apache-2.0
// Vela 3.10-compatible CSV files: the same columns in the same order with the same meaning and number
// formatting (stats_writer.write_summary_metrics_csv, npu_performance.print_performance), so scripts
// written against Vela's output keep working.
#include "npu/report/writers.hpp"
#include "number_format.hpp"
#include "report_figures.hpp"

#include <array>
#include <limits>
#include <set>
#include <sstream>

namespace npu {

namespace {

using detail::percentage;
using detail::pythonFloat;

using figures::kReportedAreas;

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string quoted = "\"";
  for (char c : text) {
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return quoted + "\"";
}

class CsvRow {
public:
  CsvRow& operator<<(const std::string& text) {
    add(csvField(text));
    return *this;
  }
  CsvRow& operator<<(const char* text) { return *this << std::string(text); }
  CsvRow& operator<<(double value) {
    add(pythonFloat(value));
    return *this;
  }
  CsvRow& operator<<(std::int64_t value) {
    add(std::to_string(value));
    return *this;
  }
  [[nodiscard]] std::string line() const { return text_ + "\n"; }

private:
  void add(const std::string& field) {
    text_ += (first_ ? "" : ",") + field;
    first_ = false;
  }
  std::string text_;
  bool first_ = true;
};

double bytesOf(const OperationPerformance& performance, MemoryArea area, TensorPurpose purpose,
               AccessDirection direction) {
  return performance.byteCount(area, purpose, direction);
}

/// Vela's pass counts (stats_writer.py: passes and cascaded passes summed over its subgraphs). Every
/// subgraph of the model starts with a startup pass and has a pass per CPU operator and per NPU region
/// (the call of that NPU subgraph); each NPU subgraph has its own startup pass and a pass per NPU
/// operation. Only the model's subgraphs have cascaded passes, one per pass.
std::pair<std::int64_t, std::int64_t> passCounts(const NetworkReport& report) {
  std::set<std::pair<int, std::string>> regions;
  for (const auto& layer : report.layers) {
    regions.emplace(layer.subgraph, layer.region);
  }
  const auto regionCount = static_cast<std::int64_t>(regions.size());
  const std::int64_t afterFusing = report.subgraphs + report.cpuOperations + regionCount;
  const std::int64_t beforeFusing = afterFusing + regionCount + static_cast<std::int64_t>(report.layers.size());
  return {beforeFusing, afterFusing};
}

} // namespace

std::string renderSummaryCsv(const NetworkReport& report) {
  CsvRow header;
  header << "experiment"
         << "network"
         << "accelerator_configuration"
         << "system_config"
         << "memory_mode"
         << "core_clock"
         << "arena_cache_size";
  for (auto area : kReportedAreas) {
    header << std::string(identifierOf(area)) + "_bandwidth";
  }
  header << "weights_storage_area"
         << "feature_map_storage_area"
         << "inferences_per_second"
         << "batch_size"
         << "inference_time"
         << "passes_before_fusing"
         << "passes_after_fusing";
  for (auto area : kReportedAreas) {
    header << std::string(identifierOf(area)) + "_memory_used";
  }
  header << "total_original_weights"
         << "total_npu_encoded_weights";
  for (auto area : kReportedAreas) {
    const std::string name(identifierOf(area));
    header << name + "_feature_map_read_bytes" << name + "_feature_map_write_bytes" << name + "_weight_read_bytes"
           << name + "_weight_write_bytes" << name + "_total_bytes";
  }
  header << "nn_macs"
         << "nn_tops"
         << "cycles_npu"
         << "cycles_sram_access"
         << "cycles_dram_access"
         << "cycles_on_chip_flash_access"
         << "cycles_off_chip_flash_access"
         << "cycles_total";

  const MemorySystem& memory = report.memory;
  const double inferenceTime = report.inferenceSeconds();
  const double fps = inferenceTime > 0 ? 1.0 / inferenceTime : std::numeric_limits<double>::quiet_NaN();
  const auto [before, after] = passCounts(report);
  CsvRow row;
  row << "default" << report.network << report.accelerator.displayName << memory.systemName << memory.memoryMode
      << memory.coreClockHz << static_cast<double>(memory.arenaCacheSize) / 1024.0;
  for (auto area : kReportedAreas) {
    row << figures::peakBandwidthGigabytesPerSecond(memory, area);
  }
  row << std::string(displayNameOf(memory.constantArea)) << std::string(displayNameOf(memory.featureMapArea)) << fps
      << std::int64_t{1} << inferenceTime << before << after;
  for (auto area : kReportedAreas) {
    row << static_cast<double>(figures::memoryUsedBytes(report, area)) / 1024.0;
  }
  row << report.originalWeightBytes << report.encodedWeightBytes;
  for (auto area : kReportedAreas) {
    const auto& total = report.total;
    row << bytesOf(total, area, TensorPurpose::FeatureMap, AccessDirection::Read)
        << bytesOf(total, area, TensorPurpose::FeatureMap, AccessDirection::Write)
        << bytesOf(total, area, TensorPurpose::Weights, AccessDirection::Read)
        << bytesOf(total, area, TensorPurpose::Weights, AccessDirection::Write)
        << figures::trafficOf(total, area).total;
  }
  row << report.total.macs << static_cast<double>(report.total.macs) * 2.0 * fps / 1e12;
  for (auto component :
       {CycleComponent::Npu, CycleComponent::SramAccess, CycleComponent::DramAccess, CycleComponent::OnChipFlashAccess,
        CycleComponent::OffChipFlashAccess, CycleComponent::Total}) {
    row << report.total.cycle(component);
  }
  // Vela's columns stay as they are; a warning (a schedule over its SRAM limit) adds one at the end.
  if (!report.warnings.empty()) {
    std::string warnings;
    for (const auto& warning : report.warnings) {
      warnings += (warnings.empty() ? "" : "; ") + warning;
    }
    header << "warnings";
    row << warnings;
  }
  return header.line() + row.line();
}

std::string renderPerLayerCsv(const NetworkReport& report) {
  CsvRow header;
  header << "TFLite_operator"
         << "NNG Operator"
         << "SRAM Usage"
         << "Peak%"
         << "Op Cycles"
         << "Network%"
         << "NPU"
         << "SRAM AC"
         << "DRAM AC"
         << "OnFlash AC"
         << "OffFlash AC"
         << "MAC Count"
         << "Network%"
         << "Util%"
         << "Name";
  std::string text = header.line();
  const auto sramPeak = static_cast<double>(figures::sramPeakBytes(report));
  for (const auto& layer : report.layers) {
    const auto& performance = layer.performance;
    const double cycles = performance.cycle(CycleComponent::Total);
    CsvRow row;
    row << layer.sourceType << layer.irType << layer.memoryUsage
        << (sramPeak > 0 ? percentage(static_cast<double>(layer.memoryUsage), sramPeak) : 0.0) << cycles
        << percentage(cycles, report.totalCycles()) << performance.cycle(CycleComponent::Npu)
        << performance.cycle(CycleComponent::SramAccess) << performance.cycle(CycleComponent::DramAccess)
        << performance.cycle(CycleComponent::OnChipFlashAccess) << performance.cycle(CycleComponent::OffChipFlashAccess)
        << performance.macs << percentage(static_cast<double>(performance.macs), static_cast<double>(report.total.macs))
        << figures::utilisationPercent(report, layer) << layer.name;
    text += row.line();
  }
  return text;
}

} // namespace npu
