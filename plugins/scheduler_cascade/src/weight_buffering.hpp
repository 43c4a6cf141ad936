// SPDX-License-Identifier: Apache-2.0
#pragma once
// Weight buffering proposals (Vela: Scheduler.propose_schedule_buffering and propose_weight_buffering):
// weights stored in slow memory are copied by DMA into buffers in the fast storage, the first part under
// the previous operation, the rest in depth slices while earlier slices compute (double buffering), as
// far as the memory left beside the reference schedule allows.

#include "schedule_plan.hpp"

#include <span>

namespace npu::cascade {

/// A copy of `reference` (with its memory snapshot) with weight buffers proposed for every operation it
/// covers, within `stagingLimit` bytes of fast storage. `evictedFeatureMapBytes` (per region operation,
/// may be empty) reduces the buffers of operations during which feature maps were evicted from fast
/// storage (Vela: SchedulerOperation.evicted_fms_size).
[[nodiscard]] SchedulePlan proposeBuffering(const SchedulingContext& context, const TensorPlacement& placement,
                                            const SchedulePlan& reference, std::int64_t stagingLimit,
                                            std::span<const std::int64_t> evictedFeatureMapBytes = {});

/// Whether the weights must be copied to fast storage before use (Vela: Scheduler.weights_needs_dma).
[[nodiscard]] bool weightsNeedDma(const SchedulingContext& context, MemoryArea weightsArea);

/// Python's floor division of floats (a // b), which Vela's depth slicing arithmetic uses.
[[nodiscard]] double floorDivide(double numerator, double denominator);

} // namespace npu::cascade
