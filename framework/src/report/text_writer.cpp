// SPDX-License-Identifier: Apache-2.0
#include "number_format.hpp"
#include "report_figures.hpp"
#include "npu/report/writers.hpp"

#include <array>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace npu {

namespace {

std::string blockText(const BlockConfig& block) {
  std::ostringstream out;
  out << block.ofmBlock.height << "x" << block.ofmBlock.width << "x" << block.ifmBlock.depth << "x"
      << block.ofmBlock.depth;
  return out.str();
}

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

std::string kib(std::int64_t bytes) { return fixed(static_cast<double>(bytes) / 1024.0, 2) + " KiB"; }

} // namespace

std::string renderTextReport(const NetworkReport& report) {
  std::ostringstream out;
  const MemorySystem& memory = report.memory;
  out << "Network " << report.network << " on " << report.accelerator.displayName << " (" << memory.systemName
      << ", " << memory.memoryMode << ", " << fixed(memory.coreClockHz / 1e6, 0) << " MHz)\n\n";
  for (const auto& warning : report.warnings) {
    out << "WARNING: " << warning << "\n";
  }
  if (!report.warnings.empty()) {
    out << "\n";
  }
  out << std::left << std::setw(5) << "#" << std::setw(18) << "TFLite operator" << std::setw(20) << "NPU operation"
      << std::setw(14) << "block" << std::right << std::setw(8) << "cascade" << std::setw(12) << "SRAM used"
      << std::setw(12) << "cycles" << std::setw(12) << "NPU cycles" << std::setw(12) << "MACs" << std::setw(8)
      << "util%" << std::setw(12) << "bound"
      << "  " << std::left << std::setw(17) << "bound by"
      << "name\n";
  const double macsPerCycle = static_cast<double>(report.accelerator.macsPerCycle) * report.accelerator.cores;
  for (std::size_t i = 0; i < report.layers.size(); ++i) {
    const auto& layer = report.layers[i];
    const double cycles = layer.performance.cycle(CycleComponent::Total);
    out << std::left << std::setw(5) << i << std::setw(18) << layer.sourceType << std::setw(20) << layer.irType
        << std::setw(14) << blockText(layer.schedule.blockConfig) << std::right << std::setw(8)
        << (layer.schedule.cascade == 0 ? std::string("-") : std::to_string(layer.schedule.cascade)) << std::setw(12)
        << layer.memoryUsage << std::setw(12) << fixed(cycles, 0) << std::setw(12)
        << fixed(layer.performance.cycle(CycleComponent::Npu), 0) << std::setw(12) << layer.performance.macs
        << std::setw(8)
        << fixed(detail::percentage(static_cast<double>(layer.performance.macs), cycles * macsPerCycle), 1)
        << std::setw(12) << fixed(figures::layerBoundCycles(layer), 0) << "  " << std::left << std::setw(17)
        << figures::layerBoundBy(layer) << layer.name << "\n";
  }
  out << "\nTotals\n";
  out << "  NPU operations            " << report.npuOperations << " (" << report.layers.size() << " scheduled)\n";
  out << "  CPU operations            " << report.cpuOperations << "\n";
  out << "  cycles                    " << fixed(report.totalCycles(), 0) << " (NPU "
      << fixed(report.total.cycle(CycleComponent::Npu), 0) << ")\n";
  out << "  Lower bound: " << fixed(figures::networkBoundCycles(report), 0) << " cycles (estimate is "
      << fixed(figures::estimateToBoundRatio(report), 2) << "\u00d7 the bound, bound by "
      << figures::networkBoundBy(report) << ")\n";
  out << "  inference time            " << fixed(report.inferenceSeconds() * 1e3, 3) << " ms\n";
  out << "  MACs                      " << report.total.macs << "\n";
  out << "  original weights          " << report.originalWeightBytes << " bytes\n";
  out << "  encoded weights           " << report.encodedWeightBytes << " bytes\n";
  for (auto area : {MemoryArea::Sram, MemoryArea::Dram, MemoryArea::OnChipFlash, MemoryArea::OffChipFlash}) {
    const std::int64_t used = report.memoryUsed[static_cast<std::size_t>(area)];
    double read = 0.0;
    double written = 0.0;
    for (const auto& purpose : report.total.bytes[static_cast<std::size_t>(area)]) {
      read += purpose[0];
      written += purpose[1];
    }
    if (used == 0 && read == 0.0 && written == 0.0) {
      continue;
    }
    out << "  " << std::left << std::setw(26) << std::string(displayNameOf(area)) << kib(used) << " used, "
        << fixed(read, 0) << " bytes read, " << fixed(written, 0) << " bytes written\n";
  }
  if (!report.cpuOperationReasons.empty()) {
    out << "\nCPU operations\n";
    for (const auto& reason : report.cpuOperationReasons) {
      out << "  " << reason << "\n";
    }
  }
  return out.str();
}

} // namespace npu
