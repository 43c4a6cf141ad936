// SPDX-License-Identifier: Apache-2.0
#include "vela_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace npu::cli {

namespace {

/// printf into a std::string (the summary's columns are fixed-width, as Vela prints them).
template <typename... Args>
std::string format(const char* pattern, Args... args) {
  char line[256];
  std::snprintf(line, sizeof line, pattern, args...);
  return line;
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) {
    text.resize(width, ' ');
  }
  return text;
}

constexpr MemoryArea kReportedAreas[] = {MemoryArea::Sram, MemoryArea::Dram, MemoryArea::OnChipFlash,
                                         MemoryArea::OffChipFlash};

double sumOf(const OperationPerformance& performance, MemoryArea area) {
  double total = 0.0;
  for (const auto& purpose : performance.bytes[static_cast<std::size_t>(area)]) {
    total += purpose[0] + purpose[1];
  }
  return total;
}

double purposeBytes(const OperationPerformance& performance, MemoryArea area, TensorPurpose purpose, int direction) {
  const auto& bytes = performance.bytes[static_cast<std::size_t>(area)][static_cast<std::size_t>(purpose)];
  return direction < 0 ? bytes[0] + bytes[1] : bytes[static_cast<std::size_t>(direction)];
}

constexpr const char* kCycleLabels[] = {"NPU cycles",
                                        "SRAM Access cycles",
                                        "DRAM Access cycles",
                                        "On-chip Flash Access cycles",
                                        "Off-chip Flash Access cycles",
                                        "Total cycles"};

} // namespace

std::string renderVelaSummary(const NetworkReport& report, const VelaSummaryOptions& options) {
  const MemorySystem& memory = report.memory;
  const double seconds = report.inferenceSeconds();
  const double perSecond = seconds > 0.0 ? 1.0 / seconds : NAN;
  std::vector<MemoryArea> areas;
  for (const MemoryArea area : kReportedAreas) {
    if (sumOf(report.total, area) > 0.0) {
      areas.push_back(area);
    }
  }
  std::string out = "\nNetwork summary for " + report.network + "\n";
  out += format("Accelerator configuration        %20s\n", report.accelerator.displayName.c_str());
  out += format("System configuration             %20s\n", memory.systemName.c_str());
  out += format("Memory mode                      %20s\n", memory.memoryMode.c_str());
  out += format("Accelerator clock                        %12d MHz\n", static_cast<int>(memory.coreClockHz / 1e6));
  for (const MemoryArea area : areas) {
    const double gigabytes = memory.area(area).bandwidthBytesPerCycle * memory.coreClockHz / 1e9;
    out += format("Design peak %s    %12.2f GB/s\n",
                  padded(std::string(displayNameOf(area)) + " bandwidth", 25).c_str(), gigabytes);
  }
  out += "\n";
  for (const MemoryArea area : areas) {
    const std::int64_t used = report.memoryUsed[static_cast<std::size_t>(area)];
    out += format("Total %s          %12.2f KiB\n", padded(std::string(displayNameOf(area)) + " used", 25).c_str(),
                  static_cast<double>(used) / 1024.0);
  }
  out += "\n";
  const int total = std::max(report.cpuOperations + report.npuOperations, 1);
  out += format("CPU operators = %d (%4.1f%%)\n", report.cpuOperations, 100.0 * report.cpuOperations / total);
  if (options.showCpuOperations) {
    for (const auto& reason : report.cpuOperationReasons) {
      out += "   CPU: " + reason + "\n";
    }
  }
  out += format("NPU operators = %d (%4.1f%%)\n", report.npuOperations, 100.0 * report.npuOperations / total);
  out += "\n";
  for (const MemoryArea area : areas) {
    const std::string label = padded(std::string(displayNameOf(area)) + " bandwidth", 25);
    const double all = sumOf(report.total, area);
    out += format("Average %s        %12.2f GB/s\n", label.c_str(), all * perSecond / 1e9);
    out += format("Input   %s        %12.2f MB/batch\n", label.c_str(),
                  purposeBytes(report.total, area, TensorPurpose::FeatureMap, 0) / 1e6);
    out += format("Weight  %s        %12.2f MB/batch\n", label.c_str(),
                  purposeBytes(report.total, area, TensorPurpose::Weights, -1) / 1e6);
    out += format("Output  %s        %12.2f MB/batch\n", label.c_str(),
                  purposeBytes(report.total, area, TensorPurpose::FeatureMap, 1) / 1e6);
    out += format("Total   %s        %12.2f MB/batch\n", label.c_str(), all / 1e6);
    out += format("Total   %s per input %9.2f MB/inference (batch size 1)\n\n", label.c_str(), all / 1e6);
  }
  if (options.verboseWeights) {
    out += format("Original Weights Size                    %12.2f KiB\n",
                  static_cast<double>(report.originalWeightBytes) / 1024.0);
    out += format("NPU Encoded Weights Size                 %12.2f KiB\n\n",
                  static_cast<double>(report.encodedWeightBytes) / 1024.0);
  }
  out +=
      format("Neural network macs                      %12lld MACs/batch\n", static_cast<long long>(report.total.macs));
  out += format("Network Tops/s                           %12.2f Tops/s\n\n",
                static_cast<double>(report.total.macs) * 2.0 * perSecond / 1e12);
  for (int component = 0; component < kCycleComponentCount; ++component) {
    out += format("%s           %12lld cycles/batch\n", padded(kCycleLabels[component], 30).c_str(),
                  static_cast<long long>(report.total.cycles[static_cast<std::size_t>(component)]));
  }
  out += format("\nBatch Inference time              %7.2f ms, %7.2f inferences/s (batch size 1)\n\n", seconds * 1000.0,
                perSecond);
  return out;
}

} // namespace npu::cli
