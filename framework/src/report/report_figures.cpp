// SPDX-License-Identifier: Apache-2.0
#include "report_figures.hpp"
#include "number_format.hpp"

#include <algorithm>

namespace npu::figures {

Traffic trafficOf(const OperationPerformance& performance, MemoryArea area) {
  Traffic traffic;
  for (const auto& purpose : performance.bytes[static_cast<std::size_t>(area)]) {
    traffic.read += purpose[static_cast<std::size_t>(AccessDirection::Read)];
    traffic.written += purpose[static_cast<std::size_t>(AccessDirection::Write)];
    for (double bytes : purpose) {
      traffic.total += bytes;
    }
  }
  return traffic;
}

std::int64_t memoryUsedBytes(const NetworkReport& report, MemoryArea area) {
  return report.memoryUsed[static_cast<std::size_t>(area)];
}

std::int64_t sramPeakBytes(const NetworkReport& report) {
  return memoryUsedBytes(report, MemoryArea::Sram);
}

double offChipBytes(const NetworkReport& report) {
  return trafficOf(report.total, MemoryArea::Dram).total + trafficOf(report.total, MemoryArea::OffChipFlash).total;
}

double inferencesPerSecond(const NetworkReport& report) {
  const double seconds = report.inferenceSeconds();
  return seconds > 0.0 ? 1.0 / seconds : 0.0;
}

double peakBandwidthGigabytesPerSecond(const MemorySystem& memory, MemoryArea area) {
  return memory.area(area).bandwidthBytesPerCycle * memory.coreClockHz / 1e9;
}

double layerCycles(const LayerReport& layer) {
  return layer.performance.cycle(CycleComponent::Total);
}

double utilisationPercent(const NetworkReport& report, const LayerReport& layer) {
  const double macsPerCycle = static_cast<double>(report.accelerator.macsPerCycle) * report.accelerator.cores;
  return detail::percentage(static_cast<double>(layer.performance.macs), layerCycles(layer) * macsPerCycle);
}

std::array<double, kBoundCount> boundSegments(const OperationPerformance& performance) {
  const double stages[] = {
      performance.cycle(CycleComponent::Npu),
      performance.cycle(CycleComponent::SramAccess),
      performance.cycle(CycleComponent::OnChipFlashAccess),
      std::max(performance.cycle(CycleComponent::DramAccess), performance.cycle(CycleComponent::OffChipFlashAccess)),
      performance.cycle(CycleComponent::Total),
  };
  std::array<double, kBoundCount> segments{};
  double reached = 0.0;
  for (std::size_t i = 0; i < kBoundCount; ++i) {
    segments[i] = std::max(0.0, stages[i] - reached);
    reached = std::max(reached, stages[i]);
  }
  // A cost model whose total is below its slowest part: cut the stack at the total.
  double excess = reached - performance.cycle(CycleComponent::Total);
  for (std::size_t i = kBoundCount; i-- > 0 && excess > 0.0;) {
    const double cut = std::min(segments[i], excess);
    segments[i] -= cut;
    excess -= cut;
  }
  return segments;
}

double layerBoundCycles(const LayerReport& layer) {
  return layer.bound.total();
}

const char* layerBoundBy(const LayerReport& layer) {
  return nameOf(layer.bound.boundBy());
}

double networkBoundCycles(const NetworkReport& report) {
  return report.bound.total();
}

const char* networkBoundBy(const NetworkReport& report) {
  return nameOf(report.bound.boundBy());
}

double estimateToBoundRatio(const NetworkReport& report) {
  const double bound = networkBoundCycles(report);
  return bound > 0.0 ? report.totalCycles() / bound : 0.0;
}

Bound boundOf(const OperationPerformance& performance) {
  // The slowest part is the last segment that raised the stack.
  const auto segments = boundSegments(performance);
  for (std::size_t i = kBoundCount; i-- > 0;) {
    if (segments[i] > 0.0) {
      return static_cast<Bound>(i);
    }
  }
  return Bound::Compute;
}

const char* nameOf(Bound bound) {
  switch (bound) {
  case Bound::Compute:
    return "compute";
  case Bound::Sram:
    return "SRAM";
  case Bound::OnChipFlash:
    return "on-chip flash";
  case Bound::OffChip:
    return "off-chip";
  case Bound::Other:
    break;
  }
  return "other";
}

} // namespace npu::figures
