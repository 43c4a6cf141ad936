// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/core/progress.hpp"
#include "npu/ir/graph.hpp"
#include "npu/pipeline/pipeline.hpp"
#include "npu/plugin/allocator.hpp"
#include "npu/plugin/codegen.hpp"
#include "npu/report/report.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npu {

/// Everything one compilation produced, stage by stage. The graph the frontend read is not kept: once
/// lowered, nothing needs it (its name and source path are the lowered graph's).
struct Compilation {
  Graph lowered;                        ///< after lowering (and placement)
  std::vector<Schedule> schedules;      ///< one per NPU region
  std::vector<Allocation> allocations;  ///< one per schedule
  NetworkAddresses addresses;           ///< every allocated tensor of the network
  std::optional<NetworkReport> report;  ///< when the pipeline schedules
  std::optional<GeneratedModel> output; ///< when the pipeline has a codegen stage
  std::vector<StageTime> stageTimes;    ///< wall-clock time of each stage that ran, in order
};

/// What the search for the smallest fast-storage limit found when a network did not fit its limit.
struct FitSearchOutcome {
  std::string memory;     ///< the fast storage's name, e.g. "SRAM"
  std::int64_t limit = 0; ///< the limit the network did not fit
  /// The smallest limit the search saw the pipeline's scheduler and allocator succeed at (the search
  /// assumes fitting is monotone in the limit); nullopt when none up to `ceiling` did (then the limit
  /// is not what stops the network).
  std::optional<std::int64_t> smallestFittingLimit;
  std::int64_t largestFailingLimit = 0; ///< the largest limit below smallestFittingLimit seen to fail
  std::int64_t granularity = 0;         ///< the search stops when the two are this close
  std::int64_t ceiling = 0;             ///< the largest limit tried
  int schedulerRuns = 0;                ///< compilations (scheduling and allocation) the search did
  bool converged = false;               ///< largestFailingLimit and smallestFittingLimit are one granule apart
  /// The smallest fast-storage peak of a fitting trial and the limit it was scheduled for. Schedulers
  /// plan to their limit, so a larger limit can give a smaller schedule than a tight one does.
  std::optional<std::int64_t> smallestPeak;
  std::int64_t smallestPeakLimit = 0;
  bool schedulerLimitOverridden = false; ///< the scheduler's own sram_limit was set and searched too
  /// The accelerator option that sets the limit, for the hint ("arena_cache_size"); empty when the
  /// accelerator plugin has none by that name.
  std::string acceleratorSetting;
};

/// A network that does not fit its fast-storage limit, with the smallest limit that fits it (a
/// Compile error: exit code 1).
class NPU_API DoesNotFitError : public Error {
public:
  DoesNotFitError(const Error& cause, FitSearchOutcome search);
  [[nodiscard]] const FitSearchOutcome& search() const { return search_; }

private:
  FitSearchOutcome search_;
};

/// The search compileModel does when a network does not fit: at most this many compilations, stopping
/// when the smallest fitting limit is known to this many bytes, never above the ceiling.
inline constexpr int kFitSearchMaxRuns = 24;
inline constexpr std::int64_t kFitSearchGranularity = 1024;
inline constexpr std::int64_t kFitSearchCeiling = std::int64_t{1} << 30;

/// Runs the stages a resolved pipeline names on one model: frontend, lowering (or placement by the
/// accelerator's support checks), scheduling of every NPU region, allocation (verified: no overlap,
/// aligned, within the fast-storage limit), evaluation and code generation. Throws npu::Error on
/// failure; when the network does not fit the fast-storage limit and the pipeline's `fit_search` is on,
/// a DoesNotFitError naming the smallest limit that fits.
[[nodiscard]] NPU_API Compilation compileModel(const ResolvedPipeline& pipeline, const std::filesystem::path& model,
                                               Progress& progress);

/// The NPU regions of a lowered subgraph: maximal runs of NPU operations with their boundary tensors.
[[nodiscard]] NPU_API std::vector<NpuRegion> findNpuRegions(const Graph& graph);

/// Allocates every buffer of a schedule, memory by memory, with the allocator and verifies the result.
[[nodiscard]] NPU_API Allocation allocateSchedule(const Schedule& schedule, const AllocatorPlugin& allocator,
                                                  const OptionValues& options, const Accelerator& accelerator);

} // namespace npu
