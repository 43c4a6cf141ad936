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

/// The greedy choice relieves one peak at a time, so a buffer spilled early may fit again once later
/// ones made room: spilled buffers return to the fast storage where they fit at every time they are
/// live, the most cycles saved per byte first (each judged once against the fully spilled schedule).
std::vector<std::int64_t> bringBack(const Graph& graph, Schedule& schedule, const Accelerator& accelerator,
                                    std::int64_t limit, MemoryArea fast, const std::vector<std::size_t>& spilled,
                                    std::vector<std::int64_t> usage) {
  const double base = cyclesOf(graph, schedule, accelerator);
  std::vector<double> saved(spilled.size());
  tbb::parallel_for(std::size_t{0}, spilled.size(), [&](std::size_t index) {
    Schedule trial = schedule;
    move(trial, spilled[index], fast);
    saved[index] = base - cyclesOf(graph, trial, accelerator);
  });
  std::vector<std::size_t> order(spilled.size());
  for (std::size_t index = 0; index < order.size(); ++index) {
    order[index] = index;
  }
  const auto rate = [&](std::size_t index) {
    return saved[index] / static_cast<double>(std::max<std::int64_t>(1, schedule.buffers[spilled[index]].range.size));
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rate(a) > rate(b); });
  for (const std::size_t index : order) {
    const LiveRange& range = schedule.buffers[spilled[index]].range;
    if (saved[index] <= 0.0) {
      continue;
    }
    // The times usageOverTime counts the buffer at.
    const std::int64_t first = std::max<std::int64_t>(range.start, 0);
    const std::int64_t last = std::min<std::int64_t>(range.end, static_cast<std::int64_t>(usage.size()) - 1);
    bool fits = true;
    for (std::int64_t time = first; time <= last && fits; ++time) {
      fits = usage[static_cast<std::size_t>(time)] + range.size <= limit;
    }
    if (fits) {
      move(schedule, spilled[index], fast);
      for (std::int64_t time = first; time <= last; ++time) {
        usage[static_cast<std::size_t>(time)] += range.size;
      }
    }
  }
  return scheduling::usageOverTime(schedule, fast);
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
  std::vector<std::size_t> spilledBuffers;
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
    spilledBuffers.push_back(live[best]);
    movable.erase(std::find(movable.begin(), movable.end(), live[best]));
    usage = scheduling::usageOverTime(schedule, fast);
  }
  if (!result.spilled.empty()) {
    usage = bringBack(graph, schedule, accelerator, limit, fast, spilledBuffers, usage);
    result.spilled.clear();
    for (const std::size_t position : spilledBuffers) {
      if (schedule.buffers[position].area != fast) {
        result.spilled.insert(result.spilled.end(), schedule.buffers[position].tensors.begin(),
                              schedule.buffers[position].tensors.end());
      }
    }
    updateMemoryUsage(schedule, usage);
  }
  result.schedule = std::move(schedule);
  return result;
}

} // namespace npu::search
