// SPDX-License-Identifier: Apache-2.0
#include "feature_map_spilling.hpp"

#include "scheduler_common/schedule_checks.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <set>

namespace npu::search {

namespace {

/// Feature maps read through a rolling buffer inside a cascade: only a few rows exist, in the fast
/// storage, so they cannot move.
std::set<TensorId> rollingBufferInputs(const Schedule& schedule, const Subgraph& subgraph) {
  std::set<TensorId> tensors;
  for (const ScheduledOperation& scheduled : schedule.operations) {
    if (scheduled.ifmRollingBuffer) {
      const Operation& op = subgraph.operation(scheduled.op);
      tensors.insert(op.ifm());
      tensors.insert(op.ifm2()); // either operand may be the one cascaded (reversed operands)
    }
  }
  return tensors;
}

/// Positions in schedule.buffers of the buffers that may move: whole feature maps (no constant, none
/// read through a rolling buffer) homed in the fast storage.
std::vector<std::size_t> spillableBuffers(const Schedule& schedule, const Subgraph& subgraph, MemoryArea fast) {
  const std::set<TensorId> rolling = rollingBufferInputs(schedule, subgraph);
  std::vector<std::size_t> positions;
  for (std::size_t position = 0; position < schedule.buffers.size(); ++position) {
    const BufferRequest& buffer = schedule.buffers[position];
    if (buffer.content != BufferContent::Tensors || buffer.area != fast || buffer.tensors.empty()) {
      continue;
    }
    const bool movable = std::all_of(buffer.tensors.begin(), buffer.tensors.end(), [&](TensorId tensor) {
      const auto home = schedule.tensorHomes.find(tensor);
      return subgraph.validTensorId(tensor) && !subgraph.tensor(tensor).isConstant() && !rolling.contains(tensor) &&
             home != schedule.tensorHomes.end() && home->second.area == fast;
    });
    if (movable) {
      positions.push_back(position);
    }
  }
  return positions;
}

void move(Schedule& schedule, std::size_t position, MemoryArea area) {
  BufferRequest& buffer = schedule.buffers[position];
  buffer.area = area;
  for (const TensorId tensor : buffer.tensors) {
    schedule.tensorHomes[tensor].area = area;
  }
}

double cyclesOf(const Graph& graph, const Schedule& schedule, const Accelerator& accelerator) {
  return scheduling::evaluateSchedule(graph, schedule, accelerator).cycle(CycleComponent::Total);
}

/// The operations' and the schedule's own fast-storage figures, recomputed from the buffers.
void updateMemoryUsage(Schedule& schedule, const std::vector<std::int64_t>& usage) {
  for (std::size_t position = 0; position < schedule.operations.size(); ++position) {
    const auto time = static_cast<std::size_t>(schedule.timeOf(position));
    schedule.operations[position].memoryUsage = time < usage.size() ? usage[time] : 0;
  }
  schedule.fastStoragePeak = usage.empty() ? 0 : *std::max_element(usage.begin(), usage.end());
}

} // namespace

std::optional<MemoryArea> spillAreaOf(const MemorySystem& memory) {
  if (!memory.fastStorageIsSeparate() || !memory.area(memory.featureMapArea).present) {
    return std::nullopt;
  }
  return memory.featureMapArea;
}

std::optional<SpilledSchedule> spillToFit(const Graph& graph, Schedule schedule, const Accelerator& accelerator,
                                          std::int64_t limit, MemoryArea spillArea) {
  const MemoryArea fast = accelerator.memory().fastStorageArea;
  const Subgraph& subgraph = graph.subgraphs.at(static_cast<std::size_t>(schedule.region.subgraph));
  std::vector<std::size_t> movable = spillableBuffers(schedule, subgraph, fast);
  SpilledSchedule result;
  std::vector<std::int64_t> usage = scheduling::usageOverTime(schedule, fast);
  while (true) {
    const auto peak = std::max_element(usage.begin(), usage.end()); // the first time of the peak
    if (peak == usage.end() || *peak <= limit) {
      break;
    }
    const auto time = static_cast<std::int64_t>(peak - usage.begin());
    std::vector<std::size_t> live;
    for (const std::size_t position : movable) {
      const LiveRange& range = schedule.buffers[position].range;
      if (range.start <= time && time <= range.end && range.size > 0) {
        live.push_back(position);
      }
    }
    if (live.empty()) {
      return std::nullopt; // what is left at the peak cannot move
    }
    // Cycles added by spilling each one, judged on the schedule as spilled so far (feature maps of one
    // operation interact: its cycles are the slowest of its accesses). One task per buffer, results by index.
    const double base = cyclesOf(graph, schedule, accelerator);
    std::vector<double> added(live.size());
    tbb::parallel_for(std::size_t{0}, live.size(), [&](std::size_t index) {
      Schedule trial = schedule;
      move(trial, live[index], spillArea);
      added[index] = std::max(0.0, cyclesOf(graph, trial, accelerator) - base);
    });
    std::size_t best = 0;
    double bestRate = std::numeric_limits<double>::infinity();
    for (std::size_t index = 0; index < live.size(); ++index) {
      const double rate = added[index] / static_cast<double>(schedule.buffers[live[index]].range.size);
      if (rate < bestRate) {
        bestRate = rate;
        best = index;
      }
    }
    move(schedule, live[best], spillArea);
    const BufferRequest& spilled = schedule.buffers[live[best]];
    result.spilled.insert(result.spilled.end(), spilled.tensors.begin(), spilled.tensors.end());
    movable.erase(std::find(movable.begin(), movable.end(), live[best]));
    usage = scheduling::usageOverTime(schedule, fast);
  }
  if (!result.spilled.empty()) {
    updateMemoryUsage(schedule, usage);
  }
  result.schedule = std::move(schedule);
  return result;
}

} // namespace npu::search
