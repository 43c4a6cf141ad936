// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/schedule_checks.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/ir/graph_algorithms.hpp"
#include "npu/report/report.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace npu::scheduling {

namespace {

void checkOperations(const Schedule& schedule, const Subgraph& subgraph, std::vector<std::string>& problems) {
  std::map<OperationId, int> seen;
  for (const ScheduledOperation& op : schedule.operations) {
    ++seen[op.op];
  }
  for (const OperationId op : schedule.region.operations) {
    if (seen[op] != 1) {
      problems.push_back(subgraph.describe(op) + " is scheduled " + std::to_string(seen[op]) + " times");
    }
  }
  const std::set<OperationId> members(schedule.region.operations.begin(), schedule.region.operations.end());
  for (const auto& [op, count] : seen) {
    if (!members.contains(op)) {
      problems.push_back(subgraph.describe(op) + " is scheduled but not part of the region");
    }
  }
  // Every operation runs after the region operations producing its inputs.
  const DataflowIndex dataflow(subgraph);
  std::map<OperationId, std::size_t> position;
  for (std::size_t t = 0; t < schedule.operations.size(); ++t) {
    position.emplace(schedule.operations[t].op, t);
  }
  for (std::size_t t = 0; t < schedule.operations.size(); ++t) {
    const Operation& op = subgraph.operation(schedule.operations[t].op);
    for (const TensorId input : op.inputs) {
      if (!subgraph.validTensorId(input)) {
        continue;
      }
      for (const OperationId producer : dataflow.producers(input)) {
        const auto it = position.find(producer);
        if (it != position.end() && it->second >= t) {
          problems.push_back(subgraph.describe(schedule.operations[t].op) + " runs before " +
                             subgraph.describe(producer) + " which produces its input");
        }
      }
    }
  }
}

void checkCascades(const Schedule& schedule, const Subgraph& subgraph, std::vector<std::string>& problems) {
  std::map<int, std::pair<std::size_t, std::size_t>> spans;
  for (std::size_t t = 0; t < schedule.operations.size(); ++t) {
    const int cascade = schedule.operations[t].cascade;
    if (cascade == 0) {
      continue;
    }
    auto [it, inserted] = spans.emplace(cascade, std::pair{t, t});
    if (!inserted) {
      if (it->second.second + 1 != t) {
        problems.push_back("cascade " + std::to_string(cascade) + " is not contiguous at " +
                           subgraph.describe(schedule.operations[t].op));
      }
      it->second.second = t;
    }
  }
  for (const CascadeInfo& cascade : schedule.cascades) {
    const auto it = spans.find(cascade.id);
    if (it == spans.end()) {
      problems.push_back("cascade " + std::to_string(cascade.id) + " has no operations");
      continue;
    }
    if (schedule.operations[it->second.first].op != cascade.first ||
        schedule.operations[it->second.second].op != cascade.last) {
      problems.push_back("cascade " + std::to_string(cascade.id) + " does not span its first and last operation");
    }
  }
  if (spans.size() != schedule.cascades.size()) {
    problems.push_back("operations refer to cascades the schedule does not list");
  }
}

} // namespace

std::vector<std::int64_t> usageOverTime(const Schedule& schedule, MemoryArea area) {
  std::vector<LiveRange> ranges;
  for (const BufferRequest& buffer : schedule.buffers) {
    if (buffer.area == area) {
      ranges.push_back(buffer.range);
    }
  }
  return memoryUsageOverTime(ranges, schedule.timelineLength());
}

std::vector<std::string> checkSchedule(const Schedule& schedule, const Subgraph& subgraph, MemoryArea fastStorage,
                                       std::int64_t fastStorageLimit) {
  std::vector<std::string> problems;
  checkOperations(schedule, subgraph, problems);
  checkCascades(schedule, subgraph, problems);
  const auto count = static_cast<std::int64_t>(schedule.operations.size());
  if (!schedule.operationTimes.empty()) {
    const auto& times = schedule.operationTimes;
    if (times.size() != schedule.operations.size() || !std::is_sorted(times.begin(), times.end()) || times.front() < 0) {
      problems.push_back("the operation times are not one ascending time per operation");
    }
  }
  // With explicit times a range may reach into the step after the last operation (region outputs
  // handed on): two more time units than the last operation's two.
  const std::int64_t timeLimit =
      count == 0 ? 0 : (schedule.operationTimes.empty() ? count : schedule.timeOf(schedule.operations.size() - 1) + 4);
  for (const BufferRequest& buffer : schedule.buffers) {
    const LiveRange& range = buffer.range;
    if (range.start < 0 || range.end < range.start || range.end >= timeLimit) {
      problems.push_back("buffer '" + range.name + "' lives from " + std::to_string(range.start) + " to " +
                         std::to_string(range.end) + ", outside the schedule's timeline of " +
                         std::to_string(timeLimit));
    }
    if (range.size <= 0 || buffer.area == MemoryArea::Unknown) {
      problems.push_back("buffer '" + range.name + "' has no size or no memory");
    }
  }
  if (fastStorageLimit > 0) {
    const auto usage = usageOverTime(schedule, fastStorage);
    for (std::size_t t = 0; t < usage.size() && !schedule.operations.empty(); ++t) {
      if (usage[t] > fastStorageLimit) {
        const OperationId op = schedule.operations[schedule.operationAt(static_cast<std::int64_t>(t))].op;
        problems.push_back(subgraph.describe(op) + " has " + std::to_string(usage[t]) +
                           " bytes live in " + std::string(displayNameOf(fastStorage)) + ", above the limit of " +
                           std::to_string(fastStorageLimit));
        break;
      }
    }
  }
  return problems;
}

void requireValidSchedule(const Schedule& schedule, const Subgraph& subgraph, MemoryArea fastStorage,
                          std::int64_t fastStorageLimit) {
  const auto problems = checkSchedule(schedule, subgraph, fastStorage, fastStorageLimit);
  if (!problems.empty()) {
    std::string message = "schedule '" + schedule.label + "' is invalid:";
    for (const std::string& problem : problems) {
      message += "\n  " + problem;
    }
    throwInternalError(message);
  }
}

OperationPerformance evaluateSchedule(const Graph& graph, const Schedule& schedule, const Accelerator& accelerator) {
  const NetworkReport report = evaluateNetwork(graph, {schedule}, {Allocation{}}, accelerator);
  return report.total;
}

} // namespace npu::scheduling
