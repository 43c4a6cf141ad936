// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/core/progress.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/plugin.hpp"
#include "npu/schedule/schedule.hpp"

namespace npu {

/// What a scheduler is asked to schedule.
struct ScheduleRequest {
  const Graph& graph;          ///< the lowered graph
  const NpuRegion& region;     ///< the operations to schedule (all placed on the NPU)
  const Accelerator& accelerator;
  const OptionValues& options; ///< the scheduler's own, resolved
  Progress& progress;
};

/// Decides, for each NPU operation of a region, its block config, stripes, cascade, weight buffering
/// and the memory home of every tensor, and lists every buffer that needs an address.
/// May run work in parallel with TBB; the result must not depend on the number of threads.
/// Throws a Compile error when the region cannot fit the memory limits, naming the operation.
class NPU_API SchedulerPlugin : public Plugin {
public:
  [[nodiscard]] virtual Schedule schedule(const ScheduleRequest& request) const = 0;
};

} // namespace npu
