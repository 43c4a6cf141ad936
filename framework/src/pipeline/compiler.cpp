// SPDX-License-Identifier: Apache-2.0
#include "npu/pipeline/compiler.hpp"

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

/// Identity of a tensor's storage: equivalent tensors (aliases, a variable and its updates) share one.
std::int64_t storageKey(const Subgraph& subgraph, TensorId tensor) {
  const std::int64_t equivalence = subgraph.tensor(tensor).equivalenceId;
  return equivalence >= 0 ? (std::int64_t{1} << 40) + equivalence : tensor;
}

/// One buffer of the whole network: the buffers of every schedule holding the same tensor, and the
/// feature maps and constants of CPU operators, on one timeline per subgraph.
struct NetworkBuffer {
  LiveRange range;
  MemoryArea area = MemoryArea::Unknown;
  std::vector<std::pair<std::size_t, std::size_t>> members; ///< (schedule, buffer) it stands for
  std::vector<TensorId> tensors;                            ///< tensors stored in it
};

/// Vela allocates each memory once for the whole network (tensor_allocation over the root subgraph's
/// cascaded passes, live_range.extract_live_ranges_from_cascaded_passes): NPU regions keep their own
/// timelines, shifted to where they run; each CPU operator takes one step of two time units in which
/// its feature maps are live; a tensor that crosses from a region to a CPU operator (or to the next
/// region) is one buffer. This builds that timeline for one subgraph.
class NetworkTimeline {
public:
  NetworkTimeline(const Graph& graph, int subgraphIndex, const std::vector<Schedule>& schedules,
                  const Accelerator& accelerator)
      : subgraph_(graph.subgraphs.at(static_cast<std::size_t>(subgraphIndex))), accelerator_(accelerator) {
    std::map<OperationId, std::size_t> regionAt;
    for (std::size_t s = 0; s < schedules.size(); ++s) {
      if (schedules[s].region.subgraph == subgraphIndex && !schedules[s].region.operations.empty()) {
        regionAt[schedules[s].region.operations.front()] = s;
      }
    }
    // Vela's subgraphs start with their startup pass (placeholders and constants) at time 0: the inputs
    // are live from there, and the first operation runs at time 2 (live_range.
    // extract_live_ranges_from_cascaded_passes over a cascaded pass list that begins with it).
    const DataflowIndex dataflow(subgraph_);
    for (const TensorId input : subgraph_.inputs) {
      if (subgraph_.validTensorId(input) && !subgraph_.tensor(input).isConstant() && !dataflow.consumers(input).empty()) {
        extend(featureMap(input, 0, 1), input);
      }
    }
    std::int64_t time = 2;
    const auto count = static_cast<OperationId>(subgraph_.operations.size());
    for (OperationId op = 0; op < count;) {
      if (const auto it = regionAt.find(op); it != regionAt.end()) {
        const Schedule& schedule = schedules[it->second];
        addSchedule(it->second, schedule, time);
        for (std::size_t i = 0; i < schedule.operations.size(); ++i) {
          steps_.emplace_back(time + schedule.timeOf(i), schedule.operations[i].op);
        }
        // A step of two time units per operation when the schedule has its own timeline, else one.
        const std::size_t last = schedule.operations.size() - 1;
        time += schedule.operations.empty() ? 0 : schedule.timeOf(last) + (schedule.operationTimes.empty() ? 1 : 2);
        op = schedule.region.operations.back() + 1;
        continue;
      }
      steps_.emplace_back(time, op);
      addCpuOperation(subgraph_.operation(op), time);
      time += 2;
      ++op;
    }
    for (const TensorId output : subgraph_.outputs) {
      if (subgraph_.validTensorId(output) && !subgraph_.tensor(output).isConstant()) {
        extend(featureMap(output, time, time + 1), output);
      }
    }
    // Variables keep their value between inferences; constants are stored throughout.
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      if (variables_.contains(i) || constants_.contains(i)) {
        buffers_[i].range.start = 0;
        buffers_[i].range.end = std::max(buffers_[i].range.end, time + 1);
      }
    }
  }

  [[nodiscard]] std::vector<NetworkBuffer>& buffers() { return buffers_; }
  /// Whether buffer `index` holds a constant (stored for the whole inference).
  [[nodiscard]] bool isConstant(std::size_t index) const { return constants_.contains(index); }
  /// The operation running at `time` of this timeline.
  [[nodiscard]] std::string operationAt(std::int64_t time) const {
    OperationId op = steps_.empty() ? 0 : steps_.front().second;
    for (const auto& [start, id] : steps_) {
      if (start <= time) {
        op = id;
      }
    }
    return steps_.empty() ? "the network" : subgraph_.describe(op);
  }

private:
  /// A CPU operator's non-constant tensors live in the feature map memory during its step.
  NetworkBuffer featureMap(TensorId tensor, std::int64_t start, std::int64_t end) const {
    const Tensor& t = subgraph_.tensor(tensor);
    NetworkBuffer buffer;
    buffer.area = accelerator_.memory().featureMapArea;
    buffer.range = LiveRange{t.name, start, end,
                             accelerator_.layout().storageBytes(Shape4::fromShape(t.shape), t.type, TensorFormat::NHWC),
                             accelerator_.memory().allocationAlignment};
    return buffer;
  }

  void addCpuOperation(const Operation& op, std::int64_t time) {
    std::vector<TensorId> tensors = op.inputs;
    if (op.sourceType == "CUSTOM:ethos-u") {
      dropExistingNpuAreas(tensors);
    }
    tensors.insert(tensors.end(), op.outputs.begin(), op.outputs.end());
    tensors.insert(tensors.end(), op.intermediates.begin(), op.intermediates.end());
    for (const TensorId tensor : tensors) {
      if (!subgraph_.validTensorId(tensor)) {
        continue;
      }
      const Tensor& t = subgraph_.tensor(tensor);
      if (t.isConstant()) {
        NetworkBuffer constant;
        constant.area = accelerator_.memory().constantArea;
        constant.range = LiveRange{t.name, time, time + 1, std::max<std::int64_t>(t.byteSize(), 1),
                                   accelerator_.memory().allocationAlignment};
        constants_.insert(extend(constant, tensor));
      } else {
        extend(featureMap(tensor, time, time + 1), tensor);
      }
    }
  }

  /// A model already compiled by Vela: its ethos-u operators run on the CPU, and Vela allocates only
  /// their real inputs and outputs, not their command stream, flash or scratch areas (mark_tensors.py
  /// marks "<name>_scratch" and "<name>_scratch_fast" Scratch and ScratchFast). Removes those from
  /// `tensors`.
  void dropExistingNpuAreas(std::vector<TensorId>& tensors) const {
    std::erase_if(tensors, [&](TensorId tensor) {
      if (!subgraph_.validTensorId(tensor)) {
        return true;
      }
      const Tensor& t = subgraph_.tensor(tensor);
      return t.isConstant() || t.name.ends_with("_scratch") || t.name.ends_with("_scratch_fast");
    });
  }

  void addSchedule(std::size_t index, const Schedule& schedule, std::int64_t offset) {
    for (std::size_t b = 0; b < schedule.buffers.size(); ++b) {
      const BufferRequest& request = schedule.buffers[b];
      NetworkBuffer buffer;
      buffer.area = request.area;
      buffer.range = request.range;
      buffer.range.start += offset;
      buffer.range.end += offset;
      buffer.members.emplace_back(index, b);
      buffer.tensors = request.tensors;
      const TensorId tensor = request.tensors.empty() ? kNoTensor : request.tensors.front();
      const std::size_t merged = extend(buffer, tensor);
      // Only the constant memory's buffers form the separate read-only area: a constant copied into
      // another memory (weights buffered in SRAM) shares that memory's addresses with everything else.
      if (tensor != kNoTensor && subgraph_.tensor(tensor).isConstant() &&
          request.area == accelerator_.memory().constantArea) {
        constants_.insert(merged);
      }
    }
  }

  /// Adds a buffer, merged with the buffer already holding the same tensor in the same memory.
  std::size_t extend(NetworkBuffer buffer, TensorId tensor = kNoTensor) {
    if (tensor != kNoTensor && std::find(buffer.tensors.begin(), buffer.tensors.end(), tensor) == buffer.tensors.end()) {
      buffer.tensors.push_back(tensor);
    }
    if (tensor == kNoTensor) {
      buffers_.push_back(std::move(buffer));
      return buffers_.size() - 1;
    }
    const auto key = std::pair{static_cast<int>(buffer.area), storageKey(subgraph_, tensor)};
    const bool variable = subgraph_.tensor(tensor).isVariable;
    if (const auto it = byTensor_.find(key); it != byTensor_.end()) {
      NetworkBuffer& existing = buffers_[it->second];
      existing.range.start = std::min(existing.range.start, buffer.range.start);
      existing.range.end = std::max(existing.range.end, buffer.range.end);
      existing.range.size = std::max(existing.range.size, buffer.range.size);
      existing.range.alignment = std::max(existing.range.alignment, buffer.range.alignment);
      existing.members.insert(existing.members.end(), buffer.members.begin(), buffer.members.end());
      for (const TensorId member : buffer.tensors) {
        if (std::find(existing.tensors.begin(), existing.tensors.end(), member) == existing.tensors.end()) {
          existing.tensors.push_back(member);
        }
      }
      if (variable) {
        variables_.insert(it->second);
      }
      indexTensors(it->second);
      return it->second;
    }
    buffers_.push_back(std::move(buffer));
    byTensor_.emplace(key, buffers_.size() - 1);
    if (variable) {
      variables_.insert(buffers_.size() - 1);
    }
    indexTensors(buffers_.size() - 1);
    return buffers_.size() - 1;
  }

  /// Every tensor a buffer holds finds it (an OFM written over its IFM, a copy fused with its source):
  /// a later use of any of them extends the same buffer, as Vela's live range graph does.
  void indexTensors(std::size_t index) {
    const NetworkBuffer& buffer = buffers_[index];
    for (const TensorId member : buffer.tensors) {
      byTensor_.emplace(std::pair{static_cast<int>(buffer.area), storageKey(subgraph_, member)}, index);
    }
  }

  const Subgraph& subgraph_;
  const Accelerator& accelerator_;
  std::vector<NetworkBuffer> buffers_;
  std::map<std::pair<int, std::int64_t>, std::size_t> byTensor_;
  std::set<std::size_t> variables_;
  std::set<std::size_t> constants_;
  std::vector<std::pair<std::int64_t, OperationId>> steps_; ///< start time of every operation
};

/// The peak of one memory on a timeline, and the operation running then.
struct MemoryPeak {
  std::int64_t bytes = 0;
  std::string operation;
};

/// Allocates every memory of the network once (Vela: scheduler._update_tensor_allocation and the
/// permanent storage allocations of compiler_driver), verifies the result and hands each schedule the
/// addresses of its buffers. Returns the peak per memory; `fastStoragePeak` receives the fast storage's
/// peak with the operation live then.
std::array<std::int64_t, kMemoryAreaCount> allocateNetwork(const Graph& graph, const std::vector<Schedule>& schedules,
                                                           std::vector<Allocation>& allocations,
                                                           NetworkAddresses& networkAddresses,
                                                           const AllocatorPlugin& allocator,
                                                           const OptionValues& options, const Accelerator& accelerator,
                                                           MemoryPeak& fastStoragePeak) {
  std::array<std::int64_t, kMemoryAreaCount> peaks{};
  const MemoryArea fastStorage = accelerator.memory().fastStorageArea;
  allocations.assign(schedules.size(), Allocation{});
  for (std::size_t s = 0; s < schedules.size(); ++s) {
    allocations[s].addresses.assign(schedules[s].buffers.size(), 0);
  }
  networkAddresses.subgraphs.assign(graph.subgraphs.size(), {});
  for (std::size_t sg = 0; sg < graph.subgraphs.size(); ++sg) {
    NetworkTimeline timeline(graph, static_cast<int>(sg), schedules, accelerator);
    auto& buffers = timeline.buffers();
    for (int areaIndex = 0; areaIndex < kMemoryAreaCount; ++areaIndex) {
      const auto area = static_cast<MemoryArea>(areaIndex);
      // Constants live for the whole inference, so no allocator can reuse their bytes: like Vela's
      // permanent storage they are laid out one after another at the start of the memory, and only the
      // rest goes to the allocator (whose search over ranges that all overlap would cost quadratic time
      // and memory for nothing).
      std::vector<std::size_t> members;
      std::vector<LiveRange> ranges;
      std::vector<std::size_t> constantMembers;
      std::vector<LiveRange> constantRanges;
      for (std::size_t i = 0; i < buffers.size(); ++i) {
        if (buffers[i].area == area) {
          const bool constant = timeline.isConstant(i);
          (constant ? constantMembers : members).push_back(i);
          std::vector<LiveRange>& list = constant ? constantRanges : ranges;
          list.push_back(buffers[i].range);
          list.back().alignment = std::max(list.back().alignment, accelerator.memory().allocationAlignment);
        }
      }
      if (ranges.empty() && constantRanges.empty()) {
        continue;
      }
      std::vector<std::int64_t> addresses;
      std::int64_t constantEnd = 0;
      for (const LiveRange& range : constantRanges) {
        constantEnd = roundUp(constantEnd, std::max<std::int64_t>(range.alignment, 1));
        addresses.push_back(constantEnd);
        constantEnd += range.size;
      }
      // Constants and the rest are separate areas of the memory (Vela's flash and scratch tensors): each
      // is addressed from its own start, and the memory holds both one after the other.
      std::vector<std::int64_t> variableAddresses;
      if (!ranges.empty()) {
        variableAddresses = allocator.allocate(ranges, options);
        if (variableAddresses.size() != ranges.size()) {
          throwInternalError("allocator returned " + std::to_string(variableAddresses.size()) + " addresses for " +
                             std::to_string(ranges.size()) + " live ranges");
        }
        const auto issues = verifyAllocation(ranges, variableAddresses);
        if (!issues.empty()) {
          throwInternalError("invalid allocation in " + std::string(displayNameOf(area)) + ": " +
                             issues.front().message);
        }
      }
      // Each constant takes whole allocation quanta (Vela's linear allocator rounds every size up).
      const std::int64_t constantBytes = roundUp(constantEnd, accelerator.memory().allocationAlignment);
      const std::int64_t peak = constantBytes + allocationPeak(ranges, variableAddresses);
      addresses.insert(addresses.end(), variableAddresses.begin(), variableAddresses.end());
      members.insert(members.begin(), constantMembers.begin(), constantMembers.end());
      ranges.insert(ranges.begin(), constantRanges.begin(), constantRanges.end());
      for (std::size_t i = 0; i < members.size(); ++i) {
        for (const auto& [schedule, buffer] : buffers[members[i]].members) {
          allocations[schedule].addresses[buffer] = addresses[i];
        }
        for (const TensorId tensor : buffers[members[i]].tensors) {
          networkAddresses.subgraphs[sg].try_emplace(tensor, TensorAddress{area, addresses[i]});
        }
        const LiveRange& range = ranges[i];
        networkAddresses.entries.push_back(AllocationEntry{area, i < constantMembers.size(), range.name, range.start,
                                                           range.end, range.size, addresses[i]});
      }
      peaks[static_cast<std::size_t>(areaIndex)] = std::max(peaks[static_cast<std::size_t>(areaIndex)], peak);
      if (area == fastStorage && peak > fastStoragePeak.bytes) {
        std::int64_t length = 0;
        for (const LiveRange& range : ranges) {
          length = std::max(length, range.end + 1);
        }
        const auto usage = memoryUsageOverTime(ranges, length);
        const auto busiest = std::max_element(usage.begin(), usage.end()) - usage.begin();
        fastStoragePeak =
            MemoryPeak{peak, timeline.operationAt(busiest) + " (" +
                                 std::to_string(usage[static_cast<std::size_t>(busiest)]) + " bytes live)"};
      }
    }
  }
  for (Allocation& allocation : allocations) {
    allocation.peak = peaks;
  }
  networkAddresses.peak = peaks;
  return peaks;
}

/// With generated code, the constant memory holds what the accelerator reads from it (the read-only
/// area and the command streams), beside any feature maps allocated there (Vela: the flash and
/// command-stream tensors allocated in permanent storage, stats_writer's memory_used).
void countGeneratedConstants(const GeneratedModel& model, const NetworkAddresses& addresses,
                             const MemorySystem& memory, NetworkReport& report) {
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
    const CodegenRequest request{result.input,       result.lowered, result.schedules,
                                 result.allocations, result.addresses, *accelerator,
                                 pipeline.stage(PluginKind::Codegen)->options, progress};
    result.output = codegen->generate(request);
    generating.stop();
    progress.end();
    countGeneratedConstants(*result.output, result.addresses, accelerator->memory(), *result.report);
  }
  return result;
}

} // namespace npu
