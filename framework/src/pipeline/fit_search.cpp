// SPDX-License-Identifier: Apache-2.0
#include "fit_search.hpp"

#include "npu/core/shape.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace npu {

namespace {

/// Counts the calls of the predicate against the cap.
class Trials {
public:
  Trials(const std::function<bool(std::int64_t)>& fits, int maxRuns) : fits_(fits), maxRuns_(maxRuns) {}
  [[nodiscard]] bool exhausted() const { return runs_ >= maxRuns_; }
  [[nodiscard]] int runs() const { return runs_; }
  bool operator()(std::int64_t limit) {
    ++runs_;
    return fits_(limit);
  }

private:
  const std::function<bool(std::int64_t)>& fits_;
  int maxRuns_;
  int runs_ = 0;
};

} // namespace

FitSearchOutcome searchSmallestFittingLimit(std::int64_t failingLimit, const std::function<bool(std::int64_t)>& fits,
                                            std::int64_t granularity, std::int64_t ceiling, int maxRuns) {
  FitSearchOutcome outcome;
  outcome.limit = failingLimit;
  outcome.granularity = granularity;
  outcome.ceiling = ceiling;
  outcome.largestFailingLimit = failingLimit;
  Trials trials(fits, maxRuns);
  if (maxRuns <= 0 || ceiling <= failingLimit || !trials(ceiling)) {
    outcome.schedulerRuns = trials.runs();
    return outcome;
  }
  std::int64_t failing = failingLimit;
  std::int64_t fitting = ceiling;
  // Doubling finds a fitting limit within a factor of two in a few runs, where bisecting from the
  // ceiling would take about log2(ceiling / granularity) runs.
  for (std::int64_t candidate = std::max(failing * 2, granularity); candidate < fitting && !trials.exhausted();
       candidate *= 2) {
    if (trials(candidate)) {
      fitting = candidate;
      break;
    }
    failing = candidate;
  }
  while (!trials.exhausted()) {
    std::int64_t middle = roundDown(failing + (fitting - failing) / 2, granularity);
    if (middle <= failing) {
      middle = roundUp(failing + 1, granularity);
    }
    if (middle >= fitting) {
      break; // no multiple of the granularity lies strictly between
    }
    if (trials(middle)) {
      fitting = middle;
    } else {
      failing = middle;
    }
  }
  outcome.smallestFittingLimit = fitting;
  outcome.largestFailingLimit = failing;
  outcome.converged = roundUp(failing + 1, granularity) >= fitting;
  outcome.schedulerRuns = trials.runs();
  return outcome;
}

std::string describeBytes(std::int64_t bytes) {
  std::string digits = std::to_string(bytes);
  for (auto position = static_cast<std::ptrdiff_t>(digits.size()) - 3; position > (bytes < 0 ? 1 : 0); position -= 3) {
    digits.insert(static_cast<std::size_t>(position), ",");
  }
  char kibibytes[48];
  if (bytes % 1024 == 0) {
    std::snprintf(kibibytes, sizeof kibibytes, "%lld KiB", static_cast<long long>(bytes / 1024));
  } else {
    std::snprintf(kibibytes, sizeof kibibytes, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  }
  return digits + " bytes (" + kibibytes + ")";
}

} // namespace npu

namespace npu {

namespace {

/// "773KiB" when whole kibibytes, else the bytes: how the limit is written in a pipeline.
std::string pipelineBytes(std::int64_t bytes) {
  return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + "KiB" : std::to_string(bytes);
}

/// "1 KiB", "1 GiB" or "16 bytes".
std::string shortBytes(std::int64_t bytes) {
  for (const auto& [unit, size] :
       {std::pair{" GiB", std::int64_t{1} << 30}, {" MiB", std::int64_t{1} << 20}, {" KiB", std::int64_t{1} << 10}}) {
    if (bytes >= size && bytes % size == 0) {
      return std::to_string(bytes / size) + unit;
    }
  }
  return std::to_string(bytes) + " bytes";
}

std::string runs(int count) {
  return std::to_string(count) + (count == 1 ? " scheduler run" : " scheduler runs");
}

std::string doesNotFitMessage(const std::string& cause, const FitSearchOutcome& search) {
  std::string message = cause + "; the network does not fit in " + describeBytes(search.limit) + " of " + search.memory;
  if (!search.smallestFittingLimit) {
    return message + ", nor in " + shortBytes(search.ceiling) + ", so the limit is not what stops it (" +
           runs(search.schedulerRuns) + ")";
  }
  const std::int64_t fitting = *search.smallestFittingLimit;
  if (search.converged) {
    message += "; the smallest " + search.memory + " limit that fits this network with this pipeline is " +
               describeBytes(fitting) + " (searched to " + shortBytes(search.granularity) + ": " +
               describeBytes(search.largestFailingLimit) + " does not fit; " + runs(search.schedulerRuns) + ")";
  } else {
    message += "; it fits in " + describeBytes(fitting) + " and not in " + describeBytes(search.largestFailingLimit) +
               " (the search stopped after " + runs(search.schedulerRuns) + ")";
  }
  if (search.smallestPeak && *search.smallestPeak + search.granularity <= fitting) {
    message += "; scheduled for a limit of " + describeBytes(search.smallestPeakLimit) + " it needs only " +
               describeBytes(*search.smallestPeak) +
               (*search.smallestPeak <= search.limit ? ", within the limit given" : "");
  }
  return message;
}

std::string doesNotFitHint(const Error& cause, const FitSearchOutcome& search) {
  if (!search.smallestFittingLimit) {
    return cause.hint();
  }
  const std::string value = pipelineBytes(*search.smallestFittingLimit);
  std::string hint = search.acceleratorSetting.empty()
                         ? "give the accelerator " + value + " of " + search.memory
                         : "set `" + search.acceleratorSetting + ": " + value +
                               "` in the pipeline's accelerator section (--set accelerator." +
                               search.acceleratorSetting + "=" + value + ")";
  if (search.schedulerLimitOverridden) {
    hint += " and the scheduler's sram_limit to the same (--set scheduler.sram_limit=" + value + ")";
  }
  return hint + ", or use a scheduler that fits in less; `fit_search: false` in the pipeline skips this search";
}

} // namespace

DoesNotFitError::DoesNotFitError(const Error& cause, FitSearchOutcome search)
    : Error(ErrorKind::Compile, doesNotFitMessage(cause.message(), search), cause.location(),
            doesNotFitHint(cause, search)),
      search_(std::move(search)) {}

} // namespace npu
