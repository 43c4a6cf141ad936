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

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace npu {

/// Everything one compilation produced, stage by stage.
struct Compilation {
  Graph input;                 ///< as the frontend read it
  Graph lowered;               ///< after lowering (and placement)
  std::vector<Schedule> schedules; ///< one per NPU region
  std::vector<Allocation> allocations; ///< one per schedule
  NetworkAddresses addresses;          ///< every allocated tensor of the network
  std::optional<NetworkReport> report; ///< when the pipeline schedules
  std::optional<GeneratedModel> output; ///< when the pipeline has a codegen stage
  std::vector<StageTime> stageTimes;    ///< wall-clock time of each stage that ran, in order
};

/// Runs the stages a resolved pipeline names on one model: frontend, lowering (or placement by the
/// accelerator's support checks), scheduling of every NPU region, allocation (verified: no overlap,
/// aligned, within the fast-storage limit), evaluation and code generation. Throws npu::Error on
/// failure.
[[nodiscard]] NPU_API Compilation compileModel(const ResolvedPipeline& pipeline, const std::filesystem::path& model,
                                               Progress& progress);

/// The NPU regions of a lowered subgraph: maximal runs of NPU operations with their boundary tensors.
[[nodiscard]] NPU_API std::vector<NpuRegion> findNpuRegions(const Graph& graph);

/// Allocates every buffer of a schedule, memory by memory, with the allocator and verifies the result.
[[nodiscard]] NPU_API Allocation allocateSchedule(const Schedule& schedule, const AllocatorPlugin& allocator,
                                                  const OptionValues& options, const Accelerator& accelerator);

} // namespace npu
