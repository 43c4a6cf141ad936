// SPDX-License-Identifier: Apache-2.0
#include "npu/pipeline/compiler.hpp"

#include "network_allocation.hpp"

#include "npu/core/shape.hpp"
#include "npu/ir/graph_algorithms.hpp"
#include "npu/plugin/codegen.hpp"
#include "npu/plugin/frontend.hpp"
#include "npu/plugin/lowering.hpp"
#include "npu/plugin/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <tuple>

namespace npu {

namespace {

/// Records how long a stage takes, from construction to stop().
class StageClock {
public:
  StageClock(std::vector<StageTime>& times, std::string stage) : times_(times), stage_(std::move(stage)) {}
  void stop() {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    times_.push_back({stage_, elapsed.count()});
  }

private:
  std::vector<StageTime>& times_;
  std::string stage_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

template <typename Interface>
const Interface* stagePlugin(const ResolvedPipeline& pipeline, PluginKind kind) {
  const ResolvedStage* stage = pipeline.stage(kind);
  return stage == nullptr ? nullptr : static_cast<const Interface*>(stage->implementation);
}

/// Without a lowering stage, operations are placed by asking the accelerator directly.
void placeByAccelerator(Graph& graph, const Accelerator& accelerator) {
  for (Subgraph& subgraph : graph.subgraphs) {
    for (Operation& op : subgraph.operations) {
      const SupportVerdict verdict = accelerator.support().check(subgraph, op);
      op.placement = verdict.supported ? Placement::Npu : Placement::Cpu;
      op.placementReason = verdict.supported ? "" : verdict.reason;
    }
  }
}

/// Every operation of the region appears exactly once in the schedule, and nothing else does.
void requireCompleteSchedule(const Schedule& schedule, const NpuRegion& region, const Subgraph& subgraph) {
  std::multiset<OperationId> scheduled;
  for (const auto& op : schedule.operations) {
    scheduled.insert(op.op);
  }
  const std::multiset<OperationId> expected(region.operations.begin(), region.operations.end());
  if (scheduled != expected) {
    std::string missing;
    for (OperationId op : region.operations) {
      if (scheduled.count(op) != 1) {
        missing += "\n  " + subgraph.describe(op) + " scheduled " + std::to_string(scheduled.count(op)) + " times";
      }
    }
    throwInternalError("schedule '" + schedule.label + "' does not schedule every operation exactly once" + missing);
  }
}

/// The operation live at the time memory usage peaks, for "does not fit" messages.
std::string busiestOperation(const Schedule& schedule, const Subgraph& subgraph, MemoryArea area) {
  std::vector<LiveRange> ranges;
  for (const auto& buffer : schedule.buffers) {
    if (buffer.area == area) {
      ranges.push_back(buffer.range);
    }
  }
  const auto usage = memoryUsageOverTime(ranges, schedule.timelineLength());
  if (usage.empty() || schedule.operations.empty()) {
    return "the region";
  }
  const auto peak = std::max_element(usage.begin(), usage.end()) - usage.begin();
  return subgraph.describe(schedule.operations[schedule.operationAt(peak)].op) + " (needs " +
         std::to_string(usage[static_cast<std::size_t>(peak)]) + " bytes live)";
}

/// With generated code, the constant memory holds what the accelerator reads from it (the read-only
/// area and the command streams), beside any feature maps allocated there (Vela: the flash and
/// command-stream tensors allocated in permanent storage, stats_writer's memory_used).
void countGeneratedConstants(const GeneratedModel& model, const NetworkAddresses& addresses, const MemorySystem& memory,
                             NetworkReport& report) {
  std::int64_t featureMaps = 0;
  for (const AllocationEntry& entry : addresses.entries) {
    if (entry.area == memory.constantArea && !entry.constant) {
      featureMaps = std::max(featureMaps, entry.address + entry.size);
    }
  }
  report.memoryUsed[static_cast<std::size_t>(memory.constantArea)] =
      featureMaps + model.statistics.readOnlyBytes + model.statistics.commandStreamBytes;
}

} // namespace

std::vector<NpuRegion> findNpuRegions(const Graph& graph) {
  std::vector<NpuRegion> regions;
  for (std::size_t index = 0; index < graph.subgraphs.size(); ++index) {
    const Subgraph& subgraph = graph.subgraphs[index];
    const DataflowIndex dataflow(subgraph);
    const std::set<TensorId> subgraphOutputs(subgraph.outputs.begin(), subgraph.outputs.end());
    for (const auto& run : partitionByPlacement(subgraph)) {
      if (run.placement != Placement::Npu) {
        continue;
      }
      NpuRegion region;
      region.subgraph = static_cast<int>(index);
      region.operations = run.operations;
      const std::set<OperationId> members(run.operations.begin(), run.operations.end());
      std::set<TensorId> inputs;
      std::set<TensorId> outputs;
      for (OperationId op : run.operations) {
        for (TensorId input : subgraph.operation(op).inputs) {
          if (!subgraph.validTensorId(input) || subgraph.tensor(input).isConstant()) {
            continue;
          }
          const auto& producers = dataflow.producers(input);
          if (producers.empty() || !members.contains(producers.front())) {
            inputs.insert(input);
          }
        }
        for (TensorId output : subgraph.operation(op).outputs) {
          if (!subgraph.validTensorId(output)) {
            continue;
          }
          const auto& consumers = dataflow.consumers(output);
          const bool usedOutside = std::any_of(consumers.begin(), consumers.end(),
                                               [&](OperationId consumer) { return !members.contains(consumer); });
          if (usedOutside || subgraphOutputs.contains(output)) {
            outputs.insert(output);
          }
        }
      }
      region.inputs.assign(inputs.begin(), inputs.end());
      region.outputs.assign(outputs.begin(), outputs.end());
      regions.push_back(std::move(region));
    }
  }
  return regions;
}

Allocation allocateSchedule(const Schedule& schedule, const AllocatorPlugin& allocator, const OptionValues& options,
                            const Accelerator& accelerator) {
  Allocation allocation;
  allocation.addresses.assign(schedule.buffers.size(), 0);
  for (int areaIndex = 0; areaIndex < kMemoryAreaCount; ++areaIndex) {
    const auto area = static_cast<MemoryArea>(areaIndex);
    std::vector<std::size_t> members;
    std::vector<LiveRange> ranges;
    for (std::size_t i = 0; i < schedule.buffers.size(); ++i) {
      if (schedule.buffers[i].area == area) {
        members.push_back(i);
        ranges.push_back(schedule.buffers[i].range);
        ranges.back().alignment = std::max(ranges.back().alignment, accelerator.memory().allocationAlignment);
      }
    }
    if (ranges.empty()) {
      continue;
    }
    const auto addresses = allocator.allocate(ranges, options);
    if (addresses.size() != ranges.size()) {
      throwInternalError("allocator returned " + std::to_string(addresses.size()) + " addresses for " +
                         std::to_string(ranges.size()) + " live ranges");
    }
    const auto issues = verifyAllocation(ranges, addresses);
    if (!issues.empty()) {
      throwInternalError("invalid allocation in " + std::string(displayNameOf(area)) + ": " + issues.front().message);
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
      allocation.addresses[members[i]] = addresses[i];
    }
    allocation.peak[static_cast<std::size_t>(areaIndex)] = allocationPeak(ranges, addresses);
  }
  return allocation;
}

Compilation compileModel(const ResolvedPipeline& pipeline, const std::filesystem::path& model, Progress& progress) {
  const ResolvedStage* frontendStage = pipeline.stage(PluginKind::Frontend);
  if (frontendStage == nullptr) {
    throwConfigError("the pipeline has no frontend stage", SourceLocation{pipeline.file.string(), 0, 0, {}},
                     "add `- frontend: frontend_tflite` to stages");
  }
  Compilation result;
  progress.begin("reading " + model.filename().string(), 0);
  StageClock reading(result.stageTimes, "reading");
  result.input = static_cast<const FrontendPlugin*>(frontendStage->implementation)->read(model, frontendStage->options);
  reading.stop();
  progress.end();

  std::unique_ptr<Accelerator> accelerator;
  if (pipeline.accelerator) {
    accelerator = pipeline.accelerator->implementation->create(pipeline.accelerator->config);
  }
  result.lowered = result.input;
  if (const auto* lowering = stagePlugin<LoweringPlugin>(pipeline, PluginKind::Lowering)) {
    progress.begin("lowering", 0);
    StageClock loweringClock(result.stageTimes, "lowering");
    result.lowered = lowering->lower(result.input, *accelerator, pipeline.stage(PluginKind::Lowering)->options);
    requireValidGraph(result.lowered, "lowering");
    loweringClock.stop();
    progress.end();
  } else if (accelerator) {
    placeByAccelerator(result.lowered, *accelerator);
  }

  const auto* scheduler = stagePlugin<SchedulerPlugin>(pipeline, PluginKind::Scheduler);
  if (scheduler == nullptr) {
    return result;
  }
  const auto* allocator = stagePlugin<AllocatorPlugin>(pipeline, PluginKind::Allocator);
  require(allocator != nullptr, "a pipeline with a scheduler has an allocator (checked when parsing)");
  const MemoryArea fastStorage = accelerator->memory().fastStorageArea;
  const std::int64_t limit = accelerator->memory().arenaCacheSize;
  std::vector<std::string> overflows;
  const auto requireWithinLimit = [&](std::int64_t peak, const std::string& where) {
    if (limit > 0 && peak > limit && accelerator->memory().warnOnFastStorageOverflow) {
      // Vela 3.10 (compiler_driver._check_schedule): "SRAM target for arena memory area exceeded".
      overflows.push_back("SRAM target for arena memory area exceeded: target " + std::to_string(limit) +
                          " bytes, actual " + std::to_string(peak) + " bytes at " + where +
                          " (on_sram_overflow: warn)");
    } else if (limit > 0 && peak > limit) {
      throwCompileError("the schedule needs " + std::to_string(peak) + " bytes of " +
                            std::string(displayNameOf(fastStorage)) + " but the limit is " + std::to_string(limit) +
                            " bytes",
                        SourceLocation{model.string(), 0, 0, where},
                        "raise the arena cache size (accelerator.arena_cache_size) or use a scheduler that "
                        "cascades and buffers within the limit");
    }
  };
  StageClock scheduling(result.stageTimes, "scheduling");
  for (const NpuRegion& region : findNpuRegions(result.lowered)) {
    const Subgraph& subgraph = result.lowered.subgraphs[static_cast<std::size_t>(region.subgraph)];
    ScheduleRequest request{result.lowered, region, *accelerator, pipeline.stage(PluginKind::Scheduler)->options,
                            progress};
    Schedule schedule = scheduler->schedule(request);
    requireCompleteSchedule(schedule, region, subgraph);
    // What the region needs on its own already decides whether it can fit.
    std::vector<LiveRange> fastRanges;
    for (const auto& buffer : schedule.buffers) {
      if (buffer.area == fastStorage) {
        fastRanges.push_back(buffer.range);
      }
    }
    const auto usage = memoryUsageOverTime(fastRanges, schedule.timelineLength());
    if (!accelerator->memory().warnOnFastStorageOverflow) { // the network's peak below is what is reported
      requireWithinLimit(usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end()),
                         busiestOperation(schedule, subgraph, fastStorage));
    }
    result.schedules.push_back(std::move(schedule));
  }
  scheduling.stop();
  progress.begin("allocating", 0);
  StageClock allocating(result.stageTimes, "allocating");
  MemoryPeak fastStoragePeak;
  const auto peaks = allocateNetwork(result.lowered, result.schedules, result.allocations, result.addresses, *allocator,
                                     pipeline.stage(PluginKind::Allocator)->options, *accelerator, fastStoragePeak);
  requireWithinLimit(fastStoragePeak.bytes, fastStoragePeak.operation);
  allocating.stop();
  progress.end();
  progress.begin("evaluating", 0);
  StageClock evaluating(result.stageTimes, "evaluating");
  result.report = evaluateNetwork(result.lowered, result.schedules, result.allocations, *accelerator);
  for (std::size_t area = 0; area < peaks.size(); ++area) {
    result.report->memoryUsed[area] = std::max(result.report->memoryUsed[area], peaks[area]);
  }
  result.report->pipelineYaml = pipeline.toYaml();
  result.report->pipeline = pipeline.record();
  result.report->allocation = result.addresses.entries;
  result.report->warnings = overflows;
  evaluating.stop();
  progress.end();
  if (const auto* codegen = stagePlugin<CodegenPlugin>(pipeline, PluginKind::Codegen)) {
    progress.begin("generating code", 0);
    StageClock generating(result.stageTimes, "generating code");
    const CodegenRequest request{result.input,
                                 result.lowered,
                                 result.schedules,
                                 result.allocations,
                                 result.addresses,
                                 *accelerator,
                                 pipeline.stage(PluginKind::Codegen)->options,
                                 progress};
    result.output = codegen->generate(request);
    generating.stop();
    progress.end();
    countGeneratedConstants(*result.output, result.addresses, accelerator->memory(), *result.report);
  }
  return result;
}

} // namespace npu
