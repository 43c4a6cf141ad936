// SPDX-License-Identifier: Apache-2.0
#include "checker/access_trace.hpp"

#include <algorithm>
#include <deque>
#include <sstream>

namespace ethosu::codegen {

namespace {

/// A set of byte ranges of one region, kept merged.
class ByteSet {
public:
  void add(std::int64_t start, std::int64_t end) {
    if (start >= end) {
      return;
    }
    auto it = ranges_.upper_bound(start);
    if (it != ranges_.begin() && std::prev(it)->second >= start) {
      --it;
    }
    while (it != ranges_.end() && it->first <= end) {
      start = std::min(start, it->first);
      end = std::max(end, it->second);
      it = ranges_.erase(it);
    }
    ranges_.emplace(start, end);
  }
  /// The first byte of [start, end) not in the set, or end when all are.
  [[nodiscard]] std::int64_t firstMissing(std::int64_t start, std::int64_t end) const {
    std::int64_t at = start;
    auto it = ranges_.upper_bound(at);
    if (it != ranges_.begin()) {
      --it;
    }
    for (; it != ranges_.end() && at < end; ++it) {
      if (it->first > at) {
        return at;
      }
      at = std::max(at, it->second);
    }
    return std::min(at, end);
  }

private:
  std::map<std::int64_t, std::int64_t> ranges_;
};

bool conflict(const TraceEvent& a, const TraceEvent& b) {
  for (const MemoryAccess& x : a.accesses) {
    for (const MemoryAccess& y : b.accesses) {
      if (x.region == y.region && (x.write || y.write) && x.start < y.end && y.start < x.end) {
        return true;
      }
    }
  }
  return false;
}

std::string hex(std::int64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

class TraceChecker {
public:
  TraceChecker(const TraceLimits& limits) : limits_(limits) {
    for (const MemoryAccess& access : limits.initialised) {
      valid_[access.region].add(access.start, access.end);
    }
  }

  void wait(const TraceEvent& wait) {
    auto& queue = outstanding(wait.engine);
    while (static_cast<int>(queue.size()) > std::max(wait.outstanding, 0)) {
      retire(queue);
    }
  }

  void start(std::size_t index, const TraceEvent& op) {
    checkBounds(index, op);
    const Engine other = op.engine == Engine::Kernel ? Engine::Dma : Engine::Kernel;
    for (const std::size_t running : outstanding(other)) {
      if (conflict(op, operations_.at(running))) {
        report(index, op.description + " touches memory that " + operations_.at(running).description +
                          " may still be using: a wait for it is missing");
      }
    }
    for (const MemoryAccess& access : op.accesses) {
      if (!access.write) {
        const auto found = valid_.find(access.region);
        const std::int64_t missing =
            found == valid_.end() ? access.start : found->second.firstMissing(access.start, access.end);
        if (missing < access.end) {
          report(index, op.description + " reads region " + std::to_string(access.region) + " at " + hex(missing) +
                            " before anything wrote it");
        }
      }
    }
    for (const MemoryAccess& access : op.accesses) {
      if (access.write) {
        valid_[access.region].add(access.start, access.end);
      }
    }
    operations_[index] = op;
    auto& queue = outstanding(op.engine);
    queue.push_back(index);
    const int limit = op.engine == Engine::Kernel ? limits_.maxOutstandingKernels : limits_.maxOutstandingDma;
    while (static_cast<int>(queue.size()) > std::max(limit, 1)) {
      retire(queue);
    }
  }

  void finish(std::size_t events) {
    for (const MemoryAccess& output : limits_.mustBeWritten) {
      const auto found = valid_.find(output.region);
      const std::int64_t missing =
          found == valid_.end() ? output.start : found->second.firstMissing(output.start, output.end);
      if (missing < output.end) {
        report(events, "output bytes at " + hex(missing) + " of region " + std::to_string(output.region) +
                           " are never written");
      }
    }
  }

  std::vector<TraceViolation> violations;

private:
  std::deque<std::size_t>& outstanding(Engine engine) { return engine == Engine::Kernel ? kernels_ : dmas_; }

  /// The oldest running operation of a queue has finished.
  void retire(std::deque<std::size_t>& queue) {
    operations_.erase(queue.front());
    queue.pop_front();
  }

  void checkBounds(std::size_t index, const TraceEvent& op) {
    for (const MemoryAccess& access : op.accesses) {
      const auto size = limits_.regionBytes.find(access.region);
      if (size == limits_.regionBytes.end()) {
        report(index, op.description + " uses region " + std::to_string(access.region) + ", which does not exist");
      } else if (access.start < 0 || access.end > size->second || access.start > access.end) {
        report(index, op.description + (access.write ? " writes" : " reads") + " region " +
                          std::to_string(access.region) + " at [" + hex(access.start) + ", " + hex(access.end) +
                          ") outside its " + std::to_string(size->second) + " bytes");
      }
    }
  }

  void report(std::size_t index, std::string message) { violations.push_back({index, std::move(message)}); }

  const TraceLimits& limits_;
  std::map<int, ByteSet> valid_;
  std::map<std::size_t, TraceEvent> operations_; ///< the running ones
  std::deque<std::size_t> kernels_;
  std::deque<std::size_t> dmas_;
};

} // namespace

std::vector<TraceViolation> checkTrace(const std::vector<TraceEvent>& events, const TraceLimits& limits) {
  TraceChecker checker(limits);
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].wait) {
      checker.wait(events[i]);
    } else {
      checker.start(i, events[i]);
    }
  }
  checker.finish(events.size());
  return std::move(checker.violations);
}

} // namespace ethosu::codegen
