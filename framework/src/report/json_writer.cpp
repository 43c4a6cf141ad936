// SPDX-License-Identifier: Apache-2.0
// The JSON report, format version 1: docs/report.schema.json describes every field. Every name that
// carries a quantity ends in its unit (_bytes, _hz, _s, _cycles, _nhwc for [batch, height, width,
// depth] element shapes); an object named with a unit ("cycles", "access_bytes") holds only quantities
// in that unit.
#include "npu/core/json.hpp"
#include "npu/report/writers.hpp"
#include "report_figures.hpp"

#include <array>

namespace npu {

namespace {

/// Bump when a field is renamed or removed or changes meaning; adding fields keeps the version.
constexpr int kJsonFormatVersion = 1;

void writeShape(JsonWriter& out, std::string_view name, const Shape4& shape) {
  out.key(name).beginArray().value(shape.batch).value(shape.height).value(shape.width).value(shape.depth).endArray();
}

void writeOptionValue(JsonWriter& out, const OptionValue& value) {
  std::visit([&](const auto& v) { out.value(v); }, value);
}

void writeOptions(JsonWriter& out, const OptionValues& options) {
  out.key("options").beginObject();
  for (const auto& [name, value] : options.all()) {
    out.key(name);
    writeOptionValue(out, value);
  }
  out.endObject();
}

void writePipeline(JsonWriter& out, const PipelineRecord& pipeline) {
  out.key("pipeline").beginObject().field("name", pipeline.name).field("description", pipeline.description);
  if (!pipeline.acceleratorPlugin.empty()) {
    out.key("accelerator").beginObject().field("plugin", pipeline.acceleratorPlugin);
    out.field("plugin_version", pipeline.acceleratorPluginVersion).field("config", pipeline.variant);
    out.field("system", pipeline.system).field("memory_mode", pipeline.memoryMode);
    writeOptions(out, pipeline.acceleratorOptions);
    out.endObject();
  }
  out.key("stages").beginArray();
  for (const auto& stage : pipeline.stages) {
    out.beginObject().field("kind", stage.kind).field("plugin", stage.plugin);
    out.field("plugin_version", stage.pluginVersion);
    writeOptions(out, stage.options);
    out.endObject();
  }
  out.endArray().key("report_formats").beginArray();
  for (const auto& format : pipeline.reportFormats) {
    out.value(format);
  }
  out.endArray().endObject();
}

void writeConfiguration(JsonWriter& out, const NetworkReport& report) {
  const MemorySystem& memory = report.memory;
  out.key("configuration").beginObject().field("variant", report.accelerator.variant);
  out.field("name", report.accelerator.displayName).field("system", memory.systemName);
  out.field("memory_mode", memory.memoryMode).field("core_clock_hz", memory.coreClockHz);
  out.field("macs_per_cycle", report.accelerator.macsPerCycle).field("cores", report.accelerator.cores);
  out.field("constant_memory", identifierOf(memory.constantArea));
  out.field("feature_map_memory", identifierOf(memory.featureMapArea));
  out.field("fast_storage_memory", identifierOf(memory.fastStorageArea));
  out.field("arena_cache_size_bytes", memory.arenaCacheSize);
  out.field("allocation_alignment_bytes", memory.allocationAlignment);
  out.key("memories").beginObject();
  for (int area = 1; area < kMemoryAreaCount; ++area) {
    const MemoryProperties& properties = memory.area(static_cast<MemoryArea>(area));
    if (!properties.present) {
      continue;
    }
    out.key(identifierOf(static_cast<MemoryArea>(area))).beginObject();
    out.field("clock_scale", properties.clockScale);
    out.field("bandwidth_bytes_per_cycle", properties.bandwidthBytesPerCycle);
    out.field("bandwidth_bytes_per_s", properties.bandwidthBytesPerCycle * memory.coreClockHz);
    out.field("read_latency_cycles", properties.readLatency);
    out.field("write_latency_cycles", properties.writeLatency);
    out.field("burst_length_bytes", properties.burstLength).endObject();
  }
  out.endObject().endObject();
}

void writePerformance(JsonWriter& out, const OperationPerformance& performance) {
  static constexpr std::array<std::string_view, kCycleComponentCount> kCycleNames{
      "npu", "sram_access", "dram_access", "on_chip_flash_access", "off_chip_flash_access", "total"};
  out.key("cycles").beginObject();
  for (std::size_t i = 0; i < kCycleNames.size(); ++i) {
    out.field(kCycleNames[i], performance.cycles[i]);
  }
  out.endObject();
  out.field("macs", performance.macs);
  out.key("access_bytes").beginObject();
  for (int area = 1; area < kMemoryAreaCount; ++area) {
    const auto& perArea = performance.bytes[static_cast<std::size_t>(area)];
    bool any = false;
    for (const auto& purpose : perArea) {
      any = any || purpose[0] != 0.0 || purpose[1] != 0.0;
    }
    if (!any) {
      continue;
    }
    out.key(identifierOf(static_cast<MemoryArea>(area))).beginObject();
    for (std::size_t purpose = 0; purpose < perArea.size(); ++purpose) {
      if (perArea[purpose][0] == 0.0 && perArea[purpose][1] == 0.0) {
        continue;
      }
      out.key(nameOf(static_cast<TensorPurpose>(purpose))).beginObject();
      out.field("read", perArea[purpose][0]).field("write", perArea[purpose][1]).endObject();
    }
    out.endObject();
  }
  out.endObject();
}

void writeBoundResources(JsonWriter& out, const std::array<double, kBoundResourceCount>& cycles) {
  out.key("bound_resource_cycles").beginObject();
  for (int resource = 0; resource < kBoundResourceCount; ++resource) {
    out.field(nameOf(static_cast<BoundResource>(resource)), cycles[static_cast<std::size_t>(resource)]);
  }
  out.endObject();
}

void writeLayer(JsonWriter& out, const LayerReport& layer) {
  const auto& schedule = layer.schedule;
  out.beginObject().field("name", layer.name).field("tflite_operator", layer.sourceType);
  out.field("operation", layer.irType).field("region", layer.region).field("operation_index", layer.op);
  out.key("block_config").beginObject();
  writeShape(out, "ofm_block_nhwc", schedule.blockConfig.ofmBlock);
  writeShape(out, "ifm_block_nhwc", schedule.blockConfig.ifmBlock);
  out.field("part_kernel_first", schedule.blockConfig.partKernelFirst);
  out.field("accumulator_bits", schedule.blockConfig.accumulatorBits).endObject();
  writeShape(out, "ifm_stripe_nhwc", schedule.ifmStripe);
  if (schedule.ifm2Stripe) {
    writeShape(out, "ifm2_stripe_nhwc", *schedule.ifm2Stripe);
  }
  writeShape(out, "ofm_stripe_nhwc", schedule.ofmStripe);
  if (schedule.ifmRollingBuffer) {
    writeShape(out, "ifm_rolling_buffer_nhwc", *schedule.ifmRollingBuffer);
  }
  out.field("cascade", schedule.cascade);
  if (!schedule.strategy.empty()) {
    out.field("strategy", schedule.strategy);
  }
  if (schedule.weights) {
    const auto& weights = *schedule.weights;
    out.key("weights").beginObject().field("encoded_bytes", weights.encodedBytes);
    out.key("depth_slice_boundaries_channels").beginArray();
    for (int slice : weights.depthSlices) {
      out.value(slice);
    }
    out.endArray().key("buffer_bytes").beginArray();
    for (std::int64_t bytes : weights.bufferBytes) {
      out.value(bytes);
    }
    out.endArray().endObject();
  }
  out.field("fast_storage_used_bytes", layer.memoryUsage);
  writePerformance(out, layer.performance);
  out.field("bound_cycles", figures::layerBoundCycles(layer)).field("bound_by", figures::layerBoundBy(layer));
  writeBoundResources(out, layer.bound.cycles);
  out.field("bound_ahead_cycles", layer.bound.cyclesAhead);
  out.endObject();
}

void writeAllocation(JsonWriter& out, const std::vector<AllocationEntry>& allocation) {
  out.key("allocation").beginArray();
  for (const AllocationEntry& entry : allocation) {
    out.beginObject().field("name", entry.name).field("memory", identifierOf(entry.area));
    out.field("constant", entry.constant).field("live_range_start_step", entry.start);
    out.field("live_range_end_step", entry.end).field("address_bytes", entry.address);
    out.field("size_bytes", entry.size).endObject();
  }
  out.endArray();
}

void writeTotals(JsonWriter& out, const NetworkReport& report) {
  out.key("totals").beginObject();
  out.field("inference_time_s", report.inferenceSeconds());
  const double seconds = report.inferenceSeconds();
  out.field("inferences_per_s", seconds > 0.0 ? 1.0 / seconds : 0.0);
  out.field("npu_operations", report.npuOperations).field("cpu_operations", report.cpuOperations);
  out.field("scheduled_operations", static_cast<std::int64_t>(report.layers.size()));
  out.field("original_weight_bytes", report.originalWeightBytes);
  out.field("encoded_weight_bytes", report.encodedWeightBytes);
  out.key("memory_used_bytes").beginObject();
  for (int area = 1; area < kMemoryAreaCount; ++area) {
    if (report.memoryUsed[static_cast<std::size_t>(area)] != 0) {
      out.field(identifierOf(static_cast<MemoryArea>(area)), report.memoryUsed[static_cast<std::size_t>(area)]);
    }
  }
  out.endObject();
  writePerformance(out, report.total);
  out.field("bound_cycles", figures::networkBoundCycles(report)).field("bound_by", figures::networkBoundBy(report));
  writeBoundResources(out, report.bound.cycles);
  out.field("estimate_to_bound_ratio", figures::estimateToBoundRatio(report));
  out.endObject();
}

} // namespace

std::string renderJsonReport(const NetworkReport& report) {
  JsonWriter out;
  out.beginObject().field("format", "npu-pipeline-report").field("format_version", kJsonFormatVersion);
  out.field("network", report.network);
  writeConfiguration(out, report);
  writePipeline(out, report.pipeline);
  out.key("warnings").beginArray();
  for (const auto& warning : report.warnings) {
    out.value(warning);
  }
  out.endArray();
  writeTotals(out, report);
  out.key("layers").beginArray();
  for (const auto& layer : report.layers) {
    writeLayer(out, layer);
  }
  out.endArray();
  out.key("cpu_operations").beginArray();
  for (const auto& reason : report.cpuOperationReasons) {
    out.value(reason);
  }
  out.endArray();
  writeAllocation(out, report.allocation);
  if (!report.stageTimes.empty()) {
    out.key("stage_times").beginArray();
    for (const StageTime& time : report.stageTimes) {
      out.beginObject().field("stage", time.stage).field("duration_s", time.seconds).endObject();
    }
    out.endArray();
  }
  out.endObject();
  return out.str();
}

} // namespace npu
