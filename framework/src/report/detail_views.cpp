// SPDX-License-Identifier: Apache-2.0
// The text views of what a compilation decided, beside the main report: configuration, schedule,
// allocation and stage times. Each mirrors one of Vela's --verbose-* printouts.
#include "npu/report/writers.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>
#include <tuple>

namespace npu {

namespace {

std::string shapeText(const Shape4& shape) {
  return "[" + std::to_string(shape.batch) + ", " + std::to_string(shape.height) + ", " + std::to_string(shape.width) +
         ", " + std::to_string(shape.depth) + "]";
}

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

std::string hex(std::int64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

} // namespace

std::string renderConfigurationText(const NetworkReport& report) {
  const MemorySystem& memory = report.memory;
  std::ostringstream out;
  out << "Accelerator " << report.accelerator.variant << " (" << report.accelerator.displayName
      << "): " << report.accelerator.macsPerCycle << " MACs/cycle x " << report.accelerator.cores << " core(s)\n";
  out << "System Configuration (" << memory.systemName << "):\n";
  out << "   core_clock = " << fixed(memory.coreClockHz, 0) << " Hz\n";
  for (int areaIndex = 1; areaIndex < kMemoryAreaCount; ++areaIndex) {
    const auto area = static_cast<MemoryArea>(areaIndex);
    const MemoryProperties& properties = memory.area(area);
    if (!properties.present || area == MemoryArea::Shram) { // Shram is inside the accelerator
      continue;
    }
    const std::string name(nameOf(area));
    out << "   " << name << "_clock_scale = " << properties.clockScale << "\n";
    out << "   " << name << "_burst_length = " << properties.burstLength << " bytes\n";
    out << "   " << name << "_read_latency = " << properties.readLatency << " cycles\n";
    out << "   " << name << "_write_latency = " << properties.writeLatency << " cycles\n";
    out << "   " << name << "_bandwidth = " << fixed(properties.bandwidthBytesPerCycle, 2) << " bytes/cycle ("
        << fixed(properties.bandwidthBytesPerCycle * memory.coreClockHz / 1e9, 2) << " GB/s)\n";
  }
  out << "Memory Mode (" << memory.memoryMode << "):\n";
  out << "   arena_cache_size = " << memory.arenaCacheSize << " bytes\n";
  out << "Architecture Settings:\n";
  out << "   permanent_storage_mem_area = " << nameOf(memory.constantArea) << "\n";
  out << "   feature_map_storage_mem_area = " << nameOf(memory.featureMapArea) << "\n";
  out << "   fast_storage_mem_area = " << nameOf(memory.fastStorageArea) << "\n";
  out << "   allocation_alignment = " << memory.allocationAlignment << " bytes\n";
  return out.str();
}

std::string renderScheduleText(const NetworkReport& report) {
  std::ostringstream out;
  std::string region;
  struct CascadeSpan {
    std::string first;
    std::string last;
    std::int64_t peakBytes = 0;
  };
  std::map<int, CascadeSpan> cascades;
  for (std::size_t i = 0; i < report.layers.size(); ++i) {
    const LayerReport& layer = report.layers[i];
    const ScheduledOperation& schedule = layer.schedule;
    if (layer.region != region) {
      region = layer.region;
      out << "Schedule: '" << region << "'\n";
    }
    out << "\t" << i << ": Operation " << layer.name << " - OFM stripe " << shapeText(schedule.ofmStripe) << "\n";
    out << "\t\tType: " << layer.irType << " (" << layer.sourceType << ")\n";
    const BlockConfig& block = schedule.blockConfig;
    out << "\t\tBlock config: OFM " << shapeText(block.ofmBlock) << ", IFM " << shapeText(block.ifmBlock)
        << (block.partKernelFirst ? ", part-kernel-first" : ", depth-first") << ", " << block.accumulatorBits
        << "-bit accumulators\n";
    out << "\t\tIFM stripe: " << shapeText(schedule.ifmStripe);
    if (schedule.ifm2Stripe) {
      out << ", IFM2 stripe: " << shapeText(*schedule.ifm2Stripe);
    }
    out << "\n";
    if (schedule.ifmRollingBuffer) {
      out << "\t\tIFM rolling buffer: " << shapeText(*schedule.ifmRollingBuffer) << "\n";
    }
    if (schedule.cascade != 0) {
      out << "\t\tCascade: " << schedule.cascade << "\n";
      auto& span = cascades[schedule.cascade];
      span.first = span.first.empty() ? layer.name : span.first;
      span.last = layer.name;
      span.peakBytes = std::max(span.peakBytes, layer.memoryUsage);
    }
    if (!schedule.strategy.empty()) {
      out << "\t\tStrategy: " << schedule.strategy << "\n";
    }
    if (schedule.weights) {
      out << "\t\tEncoded weights: " << schedule.weights->encodedBytes << " bytes";
      for (std::int64_t buffer : schedule.weights->bufferBytes) {
        out << ", buffer " << buffer << " bytes";
      }
      out << "\n";
    }
    out << "\t\tCycles: " << fixed(layer.performance.cycle(CycleComponent::Total), 0) << " (NPU "
        << fixed(layer.performance.cycle(CycleComponent::Npu), 0) << ")\n";
    out << "\t\tSRAM Used: " << layer.memoryUsage << " bytes\n";
  }
  out << "\tCascades:\n";
  for (const auto& [id, span] : cascades) {
    out << "\t\t" << id << ": " << span.first << " -> " << span.last << ", peak size: " << span.peakBytes << " bytes\n";
  }
  return out.str();
}

std::string renderAllocationText(const std::vector<AllocationEntry>& allocation) {
  std::string text;
  for (int areaIndex = 0; areaIndex < kMemoryAreaCount; ++areaIndex) {
    const auto area = static_cast<MemoryArea>(areaIndex);
    for (const bool constant : {false, true}) {
      std::vector<const AllocationEntry*> entries;
      for (const AllocationEntry& entry : allocation) {
        if (entry.area == area && entry.constant == constant) {
          entries.push_back(&entry);
        }
      }
      if (entries.empty()) {
        continue;
      }
      std::sort(entries.begin(), entries.end(), [](const AllocationEntry* a, const AllocationEntry* b) {
        return std::tie(a->start, a->end, a->size, a->address, a->name) <
               std::tie(b->start, b->end, b->size, b->address, b->name);
      });
      text += "\nAllocation of " + std::string(displayNameOf(area)) + (constant ? ", constants" : "") + ":\n";
      text += "Start Time -   End Time: Start Addr -   End Addr: Tensor Size: Name\n";
      std::int64_t peak = 0;
      for (const AllocationEntry* entry : entries) {
        char line[160];
        std::snprintf(line, sizeof line, "%10lld - %10lld: %10s - %10s: %11lld: ", static_cast<long long>(entry->start),
                      static_cast<long long>(entry->end), hex(entry->address).c_str(),
                      hex(entry->address + entry->size).c_str(), static_cast<long long>(entry->size));
        text += line + entry->name + "\n";
        peak = std::max(peak, entry->address + entry->size);
      }
      text += "Allocation peak: " + std::to_string(peak) + " bytes\n";
    }
  }
  return text;
}

std::string renderStageTimesText(const std::vector<StageTime>& times) {
  std::ostringstream out;
  double total = 0.0;
  for (const StageTime& time : times) {
    out << std::left << std::setw(18) << (time.stage + " took") << fixed(time.seconds, 6) << " s\n";
    total += time.seconds;
  }
  out << std::left << std::setw(18) << "compilation took" << fixed(total, 6) << " s\n";
  return out.str();
}

} // namespace npu
