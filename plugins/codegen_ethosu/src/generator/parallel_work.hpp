// SPDX-License-Identifier: Apache-2.0
#pragma once
// A deterministic parallel loop of code generation: every index runs once, in parallel when threads are
// free, and when some throw, the exception of the lowest index is rethrown, so a failing compile reports
// the same error whatever the thread count. What the loop writes must not depend on the order they ran in.

#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <cstddef>
#include <exception>
#include <vector>

namespace ethosu::codegen {

namespace detail {

inline void rethrowFirst(const std::vector<std::exception_ptr>& errors) {
  for (const std::exception_ptr& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
}

} // namespace detail

/// Runs `work(i)` for every i in [0, count).
template <typename Work>
void forEachInParallel(std::size_t count, const Work& work) {
  std::vector<std::exception_ptr> errors(count);
  tbb::task_group_context isolated(tbb::task_group_context::isolated);
  tbb::parallel_for(
      std::size_t{0}, count,
      [&](std::size_t index) {
        try {
          work(index);
        } catch (...) {
          errors[index] = std::current_exception();
        }
      },
      isolated);
  detail::rethrowFirst(errors);
}

} // namespace ethosu::codegen
