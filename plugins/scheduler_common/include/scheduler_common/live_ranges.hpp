// SPDX-License-Identifier: Apache-2.0
#pragma once
// Live ranges of the buffers of a scheduled region, in Vela's time model (live_range.py): every step
// of the schedule (one operation, or one whole cascade whose operations run interleaved) takes two
// time units t and t+1; a buffer used by a step is live over [t, t+1]; a weight buffer filled under the
// previous step starts at t-1. Schedulers use these ranges for memory snapshots (usage over time) and
// hand them to the framework as BufferRequests (times converted to operation positions).

#include "scheduler_common/tensor_placement.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace npu::scheduling {

/// A weight buffer an operation fills by DMA before (or while) it runs.
struct WeightBufferUse {
  std::int64_t bytes = 0; ///< buffer size as allocated
  bool preBuffer = false; ///< filled under the previous step already
};

/// What the live range analysis needs to know of one scheduled operation.
struct StepLayout {
  int cascade = 0; ///< operations with the same nonzero cascade share one step
  /// The IFM is a rolling buffer of this shape between cascaded operations.
  std::optional<Shape4> rollingBuffer;
  std::vector<WeightBufferUse> weightBuffers;
  /// Number of OFM depth slice boundaries of the weight stream (Vela: len(ofm_depth_slices)); decides
  /// which of two double buffers is used last.
  int depthSliceBoundaries = 2;
};

struct TimedLiveRange {
  std::string name;
  std::vector<TensorId> tensors;  ///< feature maps sharing the buffer; empty for weight buffers
  int weightBufferOperation = -1; ///< region index of the operation owning a weight buffer
  int weightBufferIndex = 0;
  std::int64_t start = std::numeric_limits<std::int64_t>::max();
  std::int64_t end = -1;
  std::int64_t size = 0;
  MemoryArea area = MemoryArea::Unknown;
  bool rollingBuffer = false;
  /// Holds a variable tensor (state kept between inferences): live for the whole inference.
  bool variable = false;

  /// Vela's LiveRange.mark_usage.
  void markUsage(std::int64_t time, std::int64_t length = 1);
  /// Vela's LiveRange.overlaps_ranges (strict: ranges that only touch do not overlap).
  [[nodiscard]] bool overlaps(const TimedLiveRange& other) const;
};

/// The result of one analysis: the ranges in creation order and the step time of every operation.
class LiveRangeGraph {
public:
  [[nodiscard]] std::span<const TimedLiveRange> ranges() const { return ranges_; }
  [[nodiscard]] std::span<TimedLiveRange> ranges() { return ranges_; }
  /// Time index of each region operation (Vela's SchedulerOpInfo.time_index).
  [[nodiscard]] std::span<const std::int64_t> operationTimes() const { return operationTimes_; }
  /// One past the last step (Vela's lr_graph.current_time).
  [[nodiscard]] std::int64_t endTime() const { return endTime_; }
  /// Bytes live at every time in [0, endTime + 1] in one memory (Vela: get_temporal_memory_usage).
  [[nodiscard]] std::vector<std::int64_t> usage(MemoryArea area) const;

  /// The range of a tensor (or of one equivalent to it), created if missing.
  std::size_t rangeOf(const SchedulingGraph& graph, const TensorPlacement& placement, TensorId tensor);
  /// Lets `output` share the range of `input` (an OFM written over its IFM).
  void fuse(const SchedulingGraph& graph, const TensorPlacement& placement, TensorId input, TensorId output);
  std::size_t addRange(TimedLiveRange range);
  void setOperationTime(int operation, std::int64_t time);
  void setEndTime(std::int64_t time) { endTime_ = time; }
  [[nodiscard]] std::optional<std::size_t> findRange(const SchedulingGraph& graph, TensorId tensor) const;

private:
  std::vector<TimedLiveRange> ranges_;
  std::map<std::int64_t, std::size_t> byTensorKey_;
  std::vector<std::int64_t> operationTimes_;
  std::int64_t endTime_ = 0;
};

/// The memory (and residencies in it) an analysis covers.
struct MemoryScope {
  MemoryArea area = MemoryArea::Unknown;
  ResidencySet residencies{Residency::Scratch, Residency::ScratchFast};
  /// Memory of rolling buffers and weight buffers (the fast storage): counted only when `area` is it.
  MemoryArea bufferArea = MemoryArea::Unknown;
};

/// Vela's extract_live_ranges_from_schedule for one region: `steps` has one entry per operation.
/// `overwrite` decides which input an OFM is written over outside cascades (default: Vela 3.10's rule).
[[nodiscard]] LiveRangeGraph extractLiveRanges(const SchedulingGraph& graph, std::span<const StepLayout> steps,
                                               const TensorPlacement& placement, const MemoryScope& scope,
                                               const OverwriteRule& overwrite = {});

/// The timeline of the BufferRequests handed to the framework.
enum class Timeline : std::uint8_t {
  /// Operation positions: a range covers every operation of each step it touches (coarser than the
  /// steps: a buffer freed half-way through a step then overlaps one filled in its second half).
  Positions,
  /// The steps' own times (Schedule::operationTimes must then hold every operation's step time).
  Steps,
};

/// The ranges of one memory as the framework allocates them: region inputs are live from the first
/// operation (as when the region is called), region outputs until after the last. `alignment` is the
/// allocation alignment in bytes. A weight buffer's owner is given as its region index, which is its
/// position in the schedule when the schedule lists the region's operations in order.
[[nodiscard]] std::vector<BufferRequest> toBufferRequests(const SchedulingGraph& graph, const LiveRangeGraph& ranges,
                                                          MemoryArea area, std::int64_t alignment,
                                                          Timeline timeline = Timeline::Positions);

/// Bytes of a buffer of `bytes` as allocated (Vela: Tensor.storage_size of a [1, 1, 1, bytes] uint8
/// tensor, which takes at least one allocation quantum).
[[nodiscard]] std::int64_t allocatedBufferBytes(std::int64_t bytes);

} // namespace npu::scheduling
