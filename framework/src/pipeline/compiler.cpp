// SPDX-License-Identifier: Apache-2.0
#include "npu/pipeline/compiler.hpp"

#include "fit_search.hpp"
#include "network_allocation.hpp"

#include "npu/core/shape.hpp"
#include "npu/ir/graph_algorithms.hpp"
#include "npu/plugin/codegen.hpp"
#include "npu/plugin/frontend.hpp"
#include "npu/plugin/lowering.hpp"
#include "npu/plugin/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
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

/// What scheduling and allocation need besides the graph, the accelerator and the scheduler's options.
struct PlacementStages {
  const ResolvedPipeline& pipeline;
  const std::filesystem::path& model;
};

/// The schedules and allocations of every NPU region, or why the network does not fit.
struct PlacedNetwork {
  std::vector<Schedule> schedules;
  std::vector<Allocation> allocations;
  NetworkAddresses addresses;
  std::array<std::int64_t, kMemoryAreaCount> peaks{};
  std::vector<std::string> overflows; ///< warnings, with on_sram_overflow: warn
  std::int64_t fastStoragePeak = 0;   ///< bytes of fast storage the allocation uses
};

/// "171,360 bytes (167.3 KiB, 65.4%) over the target", for the on_sram_overflow: warn warning.
std::string overshoot(std::int64_t peak, std::int64_t limit) {
  char percent[32];
  std::snprintf(percent, sizeof percent, ", %.1f%%",
                100.0 * static_cast<double>(peak - limit) / static_cast<double>(limit));
  std::string over = describeBytes(peak - limit);
  over.insert(over.size() - 1, percent);
  return over + " over the target";
}

/// Schedules every NPU region and allocates the network, checking the fast-storage limit.
PlacedNetwork scheduleAndAllocate(const PlacementStages& stages, const Graph& lowered, const Accelerator& accelerator,
                                  const OptionValues& schedulerOptions, Progress& progress,
                                  std::vector<StageTime>& stageTimes) {
  const ResolvedPipeline& pipeline = stages.pipeline;
  const auto* scheduler = stagePlugin<SchedulerPlugin>(pipeline, PluginKind::Scheduler);
  const auto* allocator = stagePlugin<AllocatorPlugin>(pipeline, PluginKind::Allocator);
  require(allocator != nullptr, "a pipeline with a scheduler has an allocator (checked when parsing)");
  const MemoryArea fastStorage = accelerator.memory().fastStorageArea;
  const std::int64_t limit = accelerator.memory().arenaCacheSize;
  PlacedNetwork placed;
  const auto requireWithinLimit = [&](std::int64_t peak, const std::string& where) {
    if (limit > 0 && peak > limit && accelerator.memory().warnOnFastStorageOverflow) {
      // Vela 3.10 (compiler_driver._check_schedule): "SRAM target for arena memory area exceeded".
      placed.overflows.push_back("SRAM target for arena memory area exceeded: target " + std::to_string(limit) +
                                 " bytes, actual " + std::to_string(peak) + " bytes: " + overshoot(peak, limit) +
                                 ", at " + where + " (on_sram_overflow: warn)");
    } else if (limit > 0 && peak > limit) {
      throwCompileError("the schedule needs " + std::to_string(peak) + " bytes of " +
                            std::string(displayNameOf(fastStorage)) + " but the limit is " + std::to_string(limit) +
                            " bytes",
                        SourceLocation{stages.model.string(), 0, 0, where},
                        "raise the arena cache size (accelerator.arena_cache_size) or use a scheduler that "
                        "cascades and buffers within the limit");
    }
  };
  StageClock scheduling(stageTimes, "scheduling");
  for (const NpuRegion& region : findNpuRegions(lowered)) {
    const Subgraph& subgraph = lowered.subgraphs[static_cast<std::size_t>(region.subgraph)];
    ScheduleRequest request{lowered, region, accelerator, schedulerOptions, progress};
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
    if (!accelerator.memory().warnOnFastStorageOverflow) { // the network's peak below is what is reported
      requireWithinLimit(usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end()),
                         busiestOperation(schedule, subgraph, fastStorage));
    }
    placed.schedules.push_back(std::move(schedule));
  }
  scheduling.stop();
  progress.begin("allocating", 0);
  StageClock allocating(stageTimes, "allocating");
  MemoryPeak fastStoragePeak;
  placed.peaks = allocateNetwork(lowered, placed.schedules, placed.allocations, placed.addresses, *allocator,
                                 pipeline.stage(PluginKind::Allocator)->options, accelerator, fastStoragePeak);
  requireWithinLimit(fastStoragePeak.bytes, fastStoragePeak.operation);
  placed.fastStoragePeak = fastStoragePeak.bytes;
  allocating.stop();
  progress.end();
  return placed;
}

/// The accelerator a pipeline made, with a different fast-storage limit: how the fit search re-runs the
/// scheduler for any accelerator plugin (schedulers read the limit from memory().arenaCacheSize).
class AcceleratorWithLimit final : public Accelerator {
public:
  AcceleratorWithLimit(const Accelerator& accelerator, std::int64_t limit)
      : accelerator_(accelerator), memory_(accelerator.memory()) {
    memory_.arenaCacheSize = limit;
  }
  const AcceleratorInfo& info() const override { return accelerator_.info(); }
  const MemorySystem& memory() const override { return memory_; }
  const OperatorSupport& support() const override { return accelerator_.support(); }
  const TensorLayout& layout() const override { return accelerator_.layout(); }
  const BlockConfigSelector& blockConfigs() const override { return accelerator_.blockConfigs(); }
  const WeightEncoder& weights() const override { return accelerator_.weights(); }
  const CostModel& costModel() const override { return accelerator_.costModel(); }

private:
  const Accelerator& accelerator_;
  MemorySystem memory_;
};

/// The scheduler option that, set above zero, replaces the accelerator's limit (a convention of the
/// bundled schedulers; a scheduler without it reads the accelerator's limit alone).
constexpr std::string_view kSchedulerSramLimit = "sram_limit";
/// The accelerator option the bundled accelerator plugins read the limit from, named in the hint.
constexpr std::string_view kArenaCacheSizeOption = "arena_cache_size";

/// The limit the network was scheduled for: the scheduler's own sram_limit when set, else the arena's.
std::int64_t effectiveLimit(const Accelerator& accelerator, const OptionValues& schedulerOptions) {
  if (schedulerOptions.has(kSchedulerSramLimit) && schedulerOptions.getInt(kSchedulerSramLimit) > 0) {
    return schedulerOptions.getInt(kSchedulerSramLimit);
  }
  return accelerator.memory().arenaCacheSize;
}

/// Rethrows a failure to schedule or allocate; a Compile error within a fast-storage limit (the
/// pipeline's `fit_search` on) first has the smallest limit that fits searched for, re-running the
/// scheduler and allocator with other limits.
[[noreturn]] void throwWithSmallestFit(const Error& error, const PlacementStages& stages, const Graph& lowered,
                                       const Accelerator& accelerator, Progress& progress) {
  const OptionValues& schedulerOptions = stages.pipeline.stage(PluginKind::Scheduler)->options;
  const std::int64_t limit = effectiveLimit(accelerator, schedulerOptions);
  if (error.kind() != ErrorKind::Compile || !stages.pipeline.fitSearch || limit <= 0 ||
      accelerator.memory().warnOnFastStorageOverflow) {
    throw error;
  }
  const bool overrideScheduler =
      schedulerOptions.has(kSchedulerSramLimit) && schedulerOptions.getInt(kSchedulerSramLimit) > 0;
  progress.begin("finding the smallest " + std::string(displayNameOf(accelerator.memory().fastStorageArea)) +
                     " limit that fits",
                 kFitSearchMaxRuns);
  // The smallest peak of a fitting trial (the smaller limit on a tie, whatever the order of trials).
  std::optional<std::pair<std::int64_t, std::int64_t>> smallestPeak; // peak, limit
  const auto fits = [&](std::int64_t candidate) {
    const AcceleratorWithLimit limited(accelerator, candidate);
    OptionValues options = schedulerOptions;
    if (overrideScheduler) {
      options.set(std::string(kSchedulerSramLimit), candidate);
    }
    SilentProgress quiet;
    std::vector<StageTime> times;
    progress.advance(1);
    try {
      const std::pair peak{scheduleAndAllocate(stages, lowered, limited, options, quiet, times).fastStoragePeak,
                           candidate};
      smallestPeak = smallestPeak ? std::min(*smallestPeak, peak) : peak;
      return true;
    } catch (const Error& trial) {
      if (trial.kind() != ErrorKind::Compile) {
        throw;
      }
      return false;
    }
  };
  FitSearchOutcome search =
      searchSmallestFittingLimit(limit, fits, kFitSearchGranularity, kFitSearchCeiling, kFitSearchMaxRuns);
  search.schedulerLimitOverridden = overrideScheduler;
  if (smallestPeak) {
    search.smallestPeak = smallestPeak->first;
    search.smallestPeakLimit = smallestPeak->second;
  }
  search.memory = displayNameOf(accelerator.memory().fastStorageArea);
  if (stages.pipeline.accelerator && stages.pipeline.accelerator->config.options.has(kArenaCacheSizeOption)) {
    search.acceleratorSetting = kArenaCacheSizeOption;
  }
  progress.end();
  throw DoesNotFitError(error, search);
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
  Graph input = static_cast<const FrontendPlugin*>(frontendStage->implementation)->read(model, frontendStage->options);
  reading.stop();
  progress.end();

  std::unique_ptr<Accelerator> accelerator;
  if (pipeline.accelerator) {
    accelerator = pipeline.accelerator->implementation->create(pipeline.accelerator->config);
  }
  if (const auto* lowering = stagePlugin<LoweringPlugin>(pipeline, PluginKind::Lowering)) {
    progress.begin("lowering", 0);
    StageClock loweringClock(result.stageTimes, "lowering");
    result.lowered = lowering->lower(std::move(input), *accelerator, pipeline.stage(PluginKind::Lowering)->options);
    requireValidGraph(result.lowered, "lowering");
    loweringClock.stop();
    progress.end();
  } else {
    result.lowered = std::move(input);
    if (accelerator) {
      placeByAccelerator(result.lowered, *accelerator);
    }
  }
  // The input graph's own structures (its tensors and quantisation, tens of MB for a large network) are
  // of no more use: released before scheduling and code generation need their memory.
  input = Graph{};

  const auto* scheduler = stagePlugin<SchedulerPlugin>(pipeline, PluginKind::Scheduler);
  if (scheduler == nullptr) {
    return result;
  }
  const PlacementStages stages{pipeline, model};
  PlacedNetwork placed;
  try {
    placed = scheduleAndAllocate(stages, result.lowered, *accelerator, pipeline.stage(PluginKind::Scheduler)->options,
                                 progress, result.stageTimes);
  } catch (const Error& error) {
    throwWithSmallestFit(error, stages, result.lowered, *accelerator, progress);
  }
  result.schedules = std::move(placed.schedules);
  result.allocations = std::move(placed.allocations);
  result.addresses = std::move(placed.addresses);
  // Code generation runs before the evaluation: the report (tens of MB for a large network) then does not
  // exist while the generator holds the encoded weights it lays out.
  if (const auto* codegen = stagePlugin<CodegenPlugin>(pipeline, PluginKind::Codegen)) {
    progress.begin("generating code", 0);
    StageClock generating(result.stageTimes, "generating code");
    const CodegenRequest request{result.lowered,   result.schedules, result.allocations,
                                 result.addresses, *accelerator,     pipeline.stage(PluginKind::Codegen)->options,
                                 progress};
    result.output = codegen->generate(request);
    generating.stop();
    progress.end();
  }
  progress.begin("evaluating", 0);
  StageClock evaluating(result.stageTimes, "evaluating");
  result.report = evaluateNetwork(result.lowered, result.schedules, result.allocations, *accelerator);
  for (std::size_t area = 0; area < placed.peaks.size(); ++area) {
    result.report->memoryUsed[area] = std::max(result.report->memoryUsed[area], placed.peaks[area]);
  }
  result.report->pipelineYaml = pipeline.toYaml();
  result.report->pipeline = pipeline.record();
  result.report->allocation = result.addresses.entries;
  result.report->warnings = placed.overflows;
  evaluating.stop();
  progress.end();
  if (result.output) {
    countGeneratedConstants(*result.output, result.addresses, accelerator->memory(), *result.report);
  }
  return result;
}

} // namespace npu
