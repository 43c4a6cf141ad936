// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/live_ranges.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <map>

namespace npu::scheduling {

namespace {

constexpr std::int64_t kAllocationQuantum = 16; // Vela: Tensor.AllocationQuantum

/// Tensors holding the same values share one range (Vela compares equivalence ids).
std::int64_t tensorKey(const Subgraph& subgraph, TensorId tensor) {
  const std::int64_t equivalence = subgraph.tensor(tensor).equivalenceId;
  return equivalence >= 0 ? (std::int64_t{1} << 40) + equivalence : tensor;
}

/// The tensors one operation touches, in Vela's pass order: inputs (reversed with the operands),
/// outputs, intermediates.
std::vector<TensorId> touchedTensors(const Operation& op, bool reversedOperands) {
  std::vector<TensorId> tensors = op.inputs;
  if (reversedOperands) {
    std::reverse(tensors.begin(), tensors.end());
  }
  tensors.insert(tensors.end(), op.outputs.begin(), op.outputs.end());
  tensors.insert(tensors.end(), op.intermediates.begin(), op.intermediates.end());
  return tensors;
}

} // namespace

std::int64_t allocatedBufferBytes(std::int64_t bytes) {
  return roundUp(std::max<std::int64_t>(bytes, 1), kAllocationQuantum);
}

void TimedLiveRange::markUsage(std::int64_t time, std::int64_t length) {
  const std::int64_t first = std::max<std::int64_t>(time, 0);
  const std::int64_t last = time + length;
  if (last < first) {
    return;
  }
  start = std::min(start, first);
  end = std::max(end, last);
}

bool TimedLiveRange::overlaps(const TimedLiveRange& other) const {
  return std::max(start, other.start) < std::min(end, other.end);
}

std::vector<std::int64_t> LiveRangeGraph::usage(MemoryArea area) const {
  std::vector<std::int64_t> result(static_cast<std::size_t>(endTime_ + 2), 0);
  for (const TimedLiveRange& range : ranges_) {
    if (range.area != area || range.end < range.start) {
      continue;
    }
    const auto last = std::min<std::int64_t>(range.end, static_cast<std::int64_t>(result.size()) - 1);
    for (std::int64_t t = range.start; t <= last; ++t) {
      result[static_cast<std::size_t>(t)] += range.size;
    }
  }
  return result;
}

std::optional<std::size_t> LiveRangeGraph::findRange(const SchedulingGraph& graph, TensorId tensor) const {
  const auto it = byTensorKey_.find(tensorKey(graph.subgraph(), tensor));
  return it == byTensorKey_.end() ? std::nullopt : std::optional(it->second);
}

std::size_t LiveRangeGraph::rangeOf(const SchedulingGraph& graph, const TensorPlacement& placement, TensorId tensor) {
  if (const auto existing = findRange(graph, tensor)) {
    ranges_[*existing].variable = ranges_[*existing].variable || graph.subgraph().tensor(tensor).isVariable;
    return *existing;
  }
  TimedLiveRange range;
  range.name = graph.subgraph().tensor(tensor).name;
  range.tensors = {tensor};
  range.size = graph.storageBytes(tensor);
  range.area = placement.area(tensor);
  range.variable = graph.subgraph().tensor(tensor).isVariable;
  const std::size_t index = addRange(std::move(range));
  byTensorKey_.emplace(tensorKey(graph.subgraph(), tensor), index);
  return index;
}

void LiveRangeGraph::fuse(const SchedulingGraph& graph, const TensorPlacement& placement, TensorId input,
                          TensorId output) {
  if (findRange(graph, output)) {
    return; // already placed (an equivalent tensor was seen); never merge two existing ranges
  }
  const std::size_t index = rangeOf(graph, placement, input);
  TimedLiveRange& range = ranges_[index];
  range.tensors.push_back(output);
  range.size = std::max(range.size, graph.storageBytes(output));
  byTensorKey_.emplace(tensorKey(graph.subgraph(), output), index);
}

std::size_t LiveRangeGraph::addRange(TimedLiveRange range) {
  ranges_.push_back(std::move(range));
  return ranges_.size() - 1;
}

void LiveRangeGraph::setOperationTime(int operation, std::int64_t time) {
  const auto index = static_cast<std::size_t>(operation);
  if (operationTimes_.size() <= index) {
    operationTimes_.resize(index + 1, 0);
  }
  operationTimes_[index] = time;
}

LiveRangeGraph extractLiveRanges(const SchedulingGraph& graph, std::span<const StepLayout> steps,
                                 const TensorPlacement& placement, const MemoryScope& scope,
                                 const OverwriteRule& overwrite) {
  require(steps.size() == static_cast<std::size_t>(graph.size()), "one step layout per operation");
  const Subgraph& subgraph = graph.subgraph();
  const auto inScope = [&](TensorId tensor) { return placement.isIn(tensor, scope.area, scope.residencies); };
  const bool buffersInScope = scope.area == scope.bufferArea;
  LiveRangeGraph result;
  std::int64_t currentTime = 0;
  std::map<int, std::int64_t> cascadeTimes;
  for (const SchedulingOperation& op : graph.operations()) {
    const StepLayout& step = steps[static_cast<std::size_t>(op.index)];
    const Operation& irOp = graph.irOperation(op.index);
    if (step.cascade == 0) {
      // Outside cascades an OFM may be written over its IFM.
      if (const auto input =
              overwrite ? overwrite(graph, op.index, inScope) : inputOverwrittenByOfm(graph, op.index, inScope)) {
        result.fuse(graph, placement, *input, irOp.ofm());
      }
    }
    const auto cascadeTime = cascadeTimes.find(step.cascade);
    const std::int64_t time =
        step.cascade != 0 && cascadeTime != cascadeTimes.end() ? cascadeTime->second : currentTime;
    result.setOperationTime(op.index, time);

    for (const TensorId tensor : touchedTensors(irOp, op.reversedOperands)) {
      if (!subgraph.validTensorId(tensor)) {
        continue;
      }
      std::size_t index = 0;
      if (buffersInScope && step.cascade != 0 && step.rollingBuffer && tensor == op.ifm.tensor) {
        // Between cascaded operations the IFM only needs its rolling buffer.
        index = result.rangeOf(graph, placement, tensor);
        TimedLiveRange& range = result.ranges()[index];
        range.size = step.rollingBuffer->elements() * bytesOf(op.ifm.type);
        range.area = scope.bufferArea;
        range.rollingBuffer = true;
      } else {
        const TensorPurpose purpose = subgraph.tensor(tensor).purpose;
        if (purpose == TensorPurpose::Weights || purpose == TensorPurpose::ScalesBiases || !inScope(tensor)) {
          continue;
        }
        index = result.rangeOf(graph, placement, tensor);
      }
      result.ranges()[index].markUsage(time);
    }

    if (buffersInScope && scope.residencies.contains(Residency::ScratchFast)) {
      const auto bufferCount = static_cast<int>(step.weightBuffers.size());
      for (int b = 0; b < bufferCount; ++b) {
        const WeightBufferUse& buffer = step.weightBuffers[static_cast<std::size_t>(b)];
        TimedLiveRange range;
        const std::string weightsName = op.hasWeights() ? subgraph.tensor(op.weights).name : op.name;
        range.name = weightsName + (b == 0 ? "_buffer" : "_buffer" + std::to_string(b + 1));
        range.weightBufferOperation = op.index;
        range.weightBufferIndex = b;
        range.size = allocatedBufferBytes(buffer.bytes);
        range.area = scope.bufferArea;
        std::int64_t length = 1;
        std::int64_t start = time;
        if (buffer.preBuffer) {
          start -= 1;
          length += 1;
        }
        // Of two buffers, the one not used by the last depth slice is free one time unit earlier.
        if (bufferCount > 1 && step.depthSliceBoundaries % bufferCount != b) {
          length -= 1;
        }
        range.markUsage(start, length);
        result.addRange(std::move(range));
      }
    }

    if (time == currentTime) {
      currentTime += 2;
    }
    if (step.cascade != 0) {
      cascadeTimes[step.cascade] = time;
    }
  }
  for (const TensorId output : graph.region().outputs) {
    if (inScope(output)) {
      result.ranges()[result.rangeOf(graph, placement, output)].markUsage(currentTime);
    }
  }
  result.setEndTime(currentTime);
  return result;
}

std::vector<BufferRequest> toBufferRequests(const SchedulingGraph& graph, const LiveRangeGraph& ranges, MemoryArea area,
                                            std::int64_t alignment, Timeline timeline) {
  const auto times = ranges.operationTimes();
  const auto last = static_cast<std::int64_t>(times.size()) - 1;
  // Positions of the first and last operation of each step, by step time.
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> stepPositions;
  for (std::size_t position = 0; position < times.size(); ++position) {
    const auto p = static_cast<std::int64_t>(position);
    auto [it, inserted] = stepPositions.emplace(times[position], std::pair{p, p});
    if (!inserted) {
      it->second.first = std::min(it->second.first, p);
      it->second.second = std::max(it->second.second, p);
    }
  }
  const auto stepOf = [&](std::int64_t time) {
    // A time belongs to the latest step starting at or before it.
    auto it = stepPositions.upper_bound(time);
    if (it == stepPositions.begin()) {
      return stepPositions.begin()->second;
    }
    return std::prev(it)->second;
  };
  std::vector<BufferRequest> requests;
  if (times.empty()) {
    return requests;
  }
  for (const TimedLiveRange& range : ranges.ranges()) {
    if (range.area != area || range.end < range.start) {
      continue;
    }
    BufferRequest request;
    request.area = area;
    request.tensors = range.tensors;
    if (range.weightBufferOperation >= 0) {
      request.content = BufferContent::WeightBuffer;
      request.operation = range.weightBufferOperation;
      request.bufferIndex = range.weightBufferIndex;
    }
    request.range.name = range.name;
    request.range.size = range.size;
    request.range.alignment = alignment;
    if (timeline == Timeline::Steps) {
      request.range.start = range.start;
      request.range.end = std::min(range.end, ranges.endTime() + 1);
    } else {
      request.range.start = stepOf(range.start).first;
      request.range.end = range.end >= ranges.endTime() ? last : stepOf(range.end).second;
    }
    const bool regionInput = std::any_of(range.tensors.begin(), range.tensors.end(),
                                         [&](TensorId tensor) { return graph.isRegionInput(tensor); });
    if (regionInput || range.variable) {
      request.range.start = 0;
    }
    if (range.variable) {
      // A variable keeps its value from one inference to the next (Vela:
      // extract_live_ranges_from_cascaded_passes).
      request.range.end = timeline == Timeline::Steps ? ranges.endTime() + 1 : last;
    }
    request.range.end = std::max(request.range.end, request.range.start);
    requests.push_back(std::move(request));
  }
  return requests;
}

} // namespace npu::scheduling
