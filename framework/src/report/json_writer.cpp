#include "npu/core/json.hpp"
#include "npu/report/writers.hpp"

#include <array>

namespace npu {

namespace {

void writeShape(JsonWriter& out, std::string_view name, const Shape4& shape) {
  out.key(name).beginArray().value(shape.batch).value(shape.height).value(shape.width).value(shape.depth).endArray();
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
  out.key("bytes").beginObject();
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

void writeLayer(JsonWriter& out, const LayerReport& layer) {
  const auto& schedule = layer.schedule;
  out.beginObject().field("name", layer.name).field("tflite_operator", layer.sourceType);
  out.field("operation", layer.irType).field("region", layer.region).field("operation_index", layer.op);
  out.key("block_config").beginObject();
  writeShape(out, "ofm_block", schedule.blockConfig.ofmBlock);
  writeShape(out, "ifm_block", schedule.blockConfig.ifmBlock);
  out.field("part_kernel_first", schedule.blockConfig.partKernelFirst);
  out.field("accumulator_bits", schedule.blockConfig.accumulatorBits).endObject();
  writeShape(out, "ifm_stripe", schedule.ifmStripe);
  if (schedule.ifm2Stripe) {
    writeShape(out, "ifm2_stripe", *schedule.ifm2Stripe);
  }
  writeShape(out, "ofm_stripe", schedule.ofmStripe);
  out.field("cascade", schedule.cascade);
  if (!schedule.strategy.empty()) {
    out.field("strategy", schedule.strategy);
  }
  if (schedule.weights) {
    const auto& weights = *schedule.weights;
    out.key("weights").beginObject().field("encoded_bytes", weights.encodedBytes);
    out.key("depth_slices").beginArray();
    for (int slice : weights.depthSlices) {
      out.value(slice);
    }
    out.endArray().key("buffers").beginArray();
    for (std::int64_t bytes : weights.bufferBytes) {
      out.value(bytes);
    }
    out.endArray().endObject();
  }
  out.field("memory_usage", layer.memoryUsage);
  writePerformance(out, layer.performance);
  out.endObject();
}

} // namespace

std::string renderJsonReport(const NetworkReport& report) {
  JsonWriter out;
  out.beginObject().field("network", report.network);
  out.key("accelerator").beginObject().field("variant", report.accelerator.variant);
  out.field("name", report.accelerator.displayName).field("system", report.memory.systemName);
  out.field("memory_mode", report.memory.memoryMode).field("core_clock_hz", report.memory.coreClockHz);
  out.field("arena_cache_size", report.memory.arenaCacheSize).endObject();
  out.field("pipeline", report.pipelineYaml);
  out.key("warnings").beginArray();
  for (const auto& warning : report.warnings) {
    out.value(warning);
  }
  out.endArray();
  out.key("totals").beginObject();
  out.field("inference_time_s", report.inferenceSeconds());
  out.field("npu_operations", report.npuOperations).field("cpu_operations", report.cpuOperations);
  out.field("scheduled_operations", static_cast<std::int64_t>(report.layers.size()));
  out.field("original_weight_bytes", report.originalWeightBytes);
  out.field("encoded_weight_bytes", report.encodedWeightBytes);
  out.key("memory_used").beginObject();
  for (int area = 1; area < kMemoryAreaCount; ++area) {
    if (report.memoryUsed[static_cast<std::size_t>(area)] != 0) {
      out.field(identifierOf(static_cast<MemoryArea>(area)), report.memoryUsed[static_cast<std::size_t>(area)]);
    }
  }
  out.endObject();
  writePerformance(out, report.total);
  out.endObject();
  out.key("layers").beginArray();
  for (const auto& layer : report.layers) {
    writeLayer(out, layer);
  }
  out.endArray();
  out.key("cpu_operations").beginArray();
  for (const auto& reason : report.cpuOperationReasons) {
    out.value(reason);
  }
  out.endArray().endObject();
  return out.str();
}

} // namespace npu
