// SPDX-License-Identifier: Apache-2.0
#include "network_allocation.hpp"

#include "npu/ir/graph_algorithms.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace npu {

namespace {

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
    // A region covers a run of the subgraph's operations, which its schedule may run in another order
    // (Vela 2.1's DP scheduler visits predecessors first): it starts at its lowest operation, and the
    // timeline goes on after its highest.
    std::map<OperationId, std::size_t> regionAt;
    std::map<std::size_t, OperationId> regionEnd;
    for (std::size_t s = 0; s < schedules.size(); ++s) {
      const auto& operations = schedules[s].region.operations;
      if (schedules[s].region.subgraph == subgraphIndex && !operations.empty()) {
        const auto [lowest, highest] = std::minmax_element(operations.begin(), operations.end());
        regionAt[*lowest] = s;
        regionEnd[s] = *highest;
      }
    }
    // Vela's subgraphs start with their startup pass (placeholders and constants) at time 0: the inputs
    // are live from there, and the first operation runs at time 2 (live_range.
    // extract_live_ranges_from_cascaded_passes over a cascaded pass list that begins with it).
    const DataflowIndex dataflow(subgraph_);
    for (const TensorId input : subgraph_.inputs) {
      if (subgraph_.validTensorId(input) && !subgraph_.tensor(input).isConstant() &&
          !dataflow.consumers(input).empty()) {
        extend(featureMap(input, 0, 1), input);
      }
    }
    for (const Operation& op : subgraph_.operations) {
      if (op.attributes.getOr<bool>("no_pass", false) && !op.attributes.getOr<bool>("output_aliases_input", false)) {
        unpassed_.insert(op.outputs.begin(), op.outputs.end());
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
        op = regionEnd.at(it->second) + 1;
        continue;
      }
      if (const Operation& skipped = subgraph_.operation(op); skipped.attributes.getOr<bool>("no_pass", false)) {
        // Vela makes no pass of it: no step, and the tensors it writes no live ranges, but an output that
        // stands for its first input (a RESHAPE Vela removed) is stored in that input's buffer.
        if (skipped.attributes.getOr<bool>("output_aliases_input", false) && !skipped.inputs.empty() &&
            skipped.outputs.size() == 1) {
          alias(skipped.inputs.front(), skipped.outputs.front());
        }
        ++op;
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
      if (!subgraph_.validTensorId(tensor) || unpassed_.contains(tensor)) {
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
    if (tensor != kNoTensor &&
        std::find(buffer.tensors.begin(), buffer.tensors.end(), tensor) == buffer.tensors.end()) {
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

  /// `output` is stored in the buffer of `input` (in the feature map memory), when it has one.
  void alias(TensorId input, TensorId output) {
    if (!subgraph_.validTensorId(input) || !subgraph_.validTensorId(output)) {
      return;
    }
    const int area = static_cast<int>(accelerator_.memory().featureMapArea);
    const auto it = byTensor_.find(std::pair{area, storageKey(subgraph_, input)});
    if (it == byTensor_.end()) {
      return;
    }
    NetworkBuffer& buffer = buffers_[it->second];
    if (std::find(buffer.tensors.begin(), buffer.tensors.end(), output) == buffer.tensors.end()) {
      buffer.tensors.push_back(output);
    }
    indexTensors(it->second);
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
  std::set<TensorId> unpassed_;                             ///< written by operations Vela makes no pass of ("no_pass")
  std::vector<std::pair<std::int64_t, OperationId>> steps_; ///< start time of every operation
};

} // namespace

std::array<std::int64_t, kMemoryAreaCount>
allocateNetwork(const Graph& graph, const std::vector<Schedule>& schedules, std::vector<Allocation>& allocations,
                NetworkAddresses& networkAddresses, const AllocatorPlugin& allocator, const OptionValues& options,
                const Accelerator& accelerator, MemoryPeak& fastStoragePeak) {
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

} // namespace npu
