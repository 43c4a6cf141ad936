// SPDX-License-Identifier: Apache-2.0
#pragma once
// Groups consecutive operations of a proposal into cascades linked by rolling buffers (Vela:
// cascade_builder.py). A cascade grows from an operation through its single consumer as long as that
// lowers the memory the operations need, guided by a memory limit.

#include "schedule_plan.hpp"

#include <map>
#include <vector>

namespace npu::cascade {

class CascadeBuilder {
public:
  /// `operations`: region indices the builder may cascade, in order; `nonLocalUsage`: bytes live beside
  /// each operation that the cascade does not own (Vela: non_local_mem_usage).
  CascadeBuilder(const SchedulingContext& context, std::vector<int> operations,
                 std::map<int, std::int64_t> nonLocalUsage);

  /// Cascades the operations of `proposal` where it pays off; every other operation takes its plan from
  /// `fallback`. `proposal` then covers exactly the builder's operations (Vela: build_cascades).
  void build(SchedulePlan& proposal, const SchedulePlan& fallback, std::int64_t guidingLimit) const;

  /// Whether an operation with this plan may be part of a cascade (Vela: _is_cascadable).
  [[nodiscard]] bool isCascadable(const SchedulingOperation& op, const OperationPlan& plan) const;
  /// Memory an operation needs on its own, everything in fast storage (Vela: _estimate_sram_usage).
  [[nodiscard]] std::int64_t estimateMemoryUsage(const SchedulingOperation& op, const OperationPlan& plan) const;

private:
  [[nodiscard]] std::int64_t nonLocal(int index) const;

  const SchedulingContext& context_;
  std::vector<int> operations_;
  std::map<int, std::int64_t> nonLocalUsage_;
};

/// Storage of the rolling buffer between a producer and its consumer in a cascade, in the brick format
/// (Vela: cascade_builder.rolling_buffer_shape).
[[nodiscard]] Shape4 rollingBufferShape(const Shape4& producerStripe, const Shape4& consumerIfmStripe);

/// Whether a binary elementwise operation can be cascaded: its first input is a full-size feature map and
/// its second constant or a scalar (Vela: CascadeBuilder.elementwise_cascadable, on the operands as the
/// model orders them).
[[nodiscard]] bool elementwiseCascadable(const Subgraph& subgraph, const Operation& op);

} // namespace npu::cascade
