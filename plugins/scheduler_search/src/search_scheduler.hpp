// SPDX-License-Identifier: Apache-2.0
#pragma once
// The search scheduler: several complete schedules of a region are built in parallel (Vela 3.x's
// cascade schedule exactly, the cascade pipeline with costed block configs of several objectives and
// ranks, then with the block configs mixed per operation; optionally the exhaustive stripe search and
// Vela 2.1's dynamic-programming schedule), each is judged by the framework's own evaluation (what the
// report prints) and its fast-storage peak, and the fastest that fits the SRAM limit wins; ties go to
// the earlier candidate, so the result does not depend on the thread count (docs/search-scheduler.md). When none fits,
// schedules made for less SRAM (smaller stripes, deeper cascades, optimised for size) are tried before giving up with
// an error naming the operation that does not fit.

#include "npu/plugin/scheduler.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npu::search {

struct SearchOptions {
  std::int64_t sramLimit = 0;      ///< bytes of fast storage the schedule may use; 0: the arena cache size
  int blockRanks = 2;              ///< schedules per block-config objective: cheapest, second cheapest, ... (1 to 4)
  bool dynamicProgramming = false; ///< Vela 2.1's DP schedule is a candidate
  bool exhaustiveStripes =
      false; ///< candidates with every stripe height evaluated (the cascade scheduler's search: exhaustive)
  /// With a separate fast storage: candidates planned for more than the limit, feature maps spilled to fit
  bool spill = true;
};

/// One schedule the search built and how the framework judged it.
struct CandidateResult {
  std::string name;
  std::optional<Schedule> schedule;                            ///< unset when the candidate failed
  std::string failure;                                         ///< why, when it failed
  double cycles = 0.0;                                         ///< total estimated cycles
  std::int64_t fastStoragePeak = 0;                            ///< bytes live at once in the fast storage
  bool fits = false;                                           ///< fastStoragePeak within the limit
  std::vector<std::pair<OperationId, double>> operationCycles; ///< total estimated cycles per operation
};

/// Every candidate of the first round (and of the fitting round when the first has none that fits), in
/// candidate order; the chosen one is the index `chooseCandidate` returns.
[[nodiscard]] std::vector<CandidateResult> searchCandidates(const ScheduleRequest& request,
                                                            const SearchOptions& options);

/// The fastest candidate that fits (lowest index on ties); when none fits, Vela's own schedule (index
/// 0) if it was made; nullopt when there is nothing to choose.
[[nodiscard]] std::optional<std::size_t> chooseCandidate(const std::vector<CandidateResult>& candidates);

/// Schedules `request.region`; throws a Compile error when no candidate fits.
[[nodiscard]] Schedule scheduleRegion(const ScheduleRequest& request, const SearchOptions& options);

[[nodiscard]] SearchOptions readOptions(const OptionValues& values);
[[nodiscard]] std::vector<OptionSpec> optionSpecs();

} // namespace npu::search
