// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deterministic parallel map on TBB: results come back in index order, and when tasks throw, the
// exception of the lowest index is rethrown, so the outcome never depends on the number of threads.
// Every index is its own task: the work per index is uneven (one operation's weights can be a third
// of a network's), and chunks of neighbouring indices would keep the heavy ones on one thread.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_group.h>

#include <cstddef>
#include <exception>
#include <optional>
#include <vector>

namespace npu::cascade {

template <typename Function>
auto parallelMap(std::size_t count, const Function& function) {
  using Result = decltype(function(std::size_t{0}));
  std::vector<std::optional<Result>> results(count);
  std::vector<std::exception_ptr> errors(count);
  // Isolated from the caller's task group: when an enclosing TBB algorithm is cancelled (a sibling task
  // threw), a bound loop would return with indices never run and `results` partly empty. Every index
  // runs here, and the body throws nothing, so this context is never cancelled either.
  tbb::task_group_context isolated(tbb::task_group_context::isolated);
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, count, 1),
      [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t index = range.begin(); index != range.end(); ++index) {
          try {
            results[index].emplace(function(index));
          } catch (...) {
            errors[index] = std::current_exception();
          }
        }
      },
      tbb::simple_partitioner(), isolated);
  std::vector<Result> values;
  values.reserve(count);
  for (std::size_t index = 0; index < count; ++index) {
    if (errors[index]) {
      std::rethrow_exception(errors[index]);
    }
    values.push_back(std::move(*results[index]));
  }
  return values;
}

} // namespace npu::cascade
