// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deterministic parallel map on TBB: results come back in index order, and when tasks throw, the
// exception of the lowest index is rethrown, so the outcome never depends on the number of threads.
// Every index is its own task: the work per index is uneven (one operation's weights can be a third
// of a network's), and chunks of neighbouring indices would keep the heavy ones on one thread.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <span>
#include <vector>

namespace npu::cascade {

namespace detail {

/// Results in index order; the exception of the lowest index is rethrown.
template <typename Result>
std::vector<Result> collect(std::vector<std::optional<Result>>& results, std::vector<std::exception_ptr>& errors) {
  std::vector<Result> values;
  values.reserve(results.size());
  for (std::size_t index = 0; index < results.size(); ++index) {
    if (errors[index]) {
      std::rethrow_exception(errors[index]);
    }
    values.push_back(std::move(*results[index]));
  }
  return values;
}

/// Runs one index, keeping its result or its exception.
template <typename Result, typename Function>
void runOne(std::vector<std::optional<Result>>& results, std::vector<std::exception_ptr>& errors, std::size_t index,
            const Function& function) {
  try {
    results[index].emplace(function(index));
  } catch (...) {
    errors[index] = std::current_exception();
  }
}

} // namespace detail

template <typename Function>
auto parallelMap(std::size_t count, const Function& function) {
  using Result = decltype(function(std::size_t{0}));
  std::vector<std::optional<Result>> results(count);
  std::vector<std::exception_ptr> errors(count);
  // Isolated: a cancelled enclosing task group (a sibling task threw) must not skip indices.
  tbb::task_group_context isolated(tbb::task_group_context::isolated);
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, count, 1),
      [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t index = range.begin(); index != range.end(); ++index) {
          detail::runOne(results, errors, index, function);
        }
      },
      tbb::simple_partitioner(), isolated);
  return detail::collect(results, errors);
}

/// parallelMap whose tasks start in the order given (`order` is a permutation of 0..count-1): each
/// thread takes the next index when it finishes one. With the most expensive first, no thread is left
/// alone with a large task at the end (longest processing time first). Results are in index order.
template <typename Function>
auto parallelMapInOrder(std::span<const std::size_t> order, const Function& function) {
  using Result = decltype(function(std::size_t{0}));
  const std::size_t count = order.size();
  std::vector<std::optional<Result>> results(count);
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  const auto workers = static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  // Isolated: a cancelled enclosing task group (a sibling task threw) must not skip indices.
  tbb::task_group_context isolated(tbb::task_group_context::isolated);
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, std::min(workers, count), 1),
      [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t worker = range.begin(); worker != range.end(); ++worker) {
          for (std::size_t taken = next++; taken < count; taken = next++) {
            const std::size_t index = order[taken];
            detail::runOne(results, errors, index, function);
          }
        }
      },
      tbb::simple_partitioner(), isolated);
  return detail::collect(results, errors);
}

/// Runs both functions, in parallel when a thread is free; when either throws, the first one's
/// exception wins, whichever thread finished first.
template <typename First, typename Second>
void invokeBoth(const First& first, const Second& second) {
  std::exception_ptr errors[2];
  tbb::parallel_invoke(
      [&] {
        try {
          first();
        } catch (...) {
          errors[0] = std::current_exception();
        }
      },
      [&] {
        try {
          second();
        } catch (...) {
          errors[1] = std::current_exception();
        }
      });
  for (const std::exception_ptr& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
}

} // namespace npu::cascade
