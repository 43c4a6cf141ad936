// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reads, for every scheduled operation of one NPU region, what its NPU operations need (OperationInfo)
// from the lowered graph, the schedule, the allocation and the read-only area.

#include "layout/read_only_area.hpp"
#include "operations/operation_info.hpp"

#include "npu/plugin/codegen.hpp"
#include "npu/schedule/schedule.hpp"

#include <vector>

namespace ethosu::codegen {

struct RegionSources {
  const npu::Graph& graph;
  const npu::Schedule& schedule;
  std::size_t scheduleIndex = 0;
  const npu::Allocation& allocation;
  const npu::NetworkAddresses& addresses;
  const ReadOnlyArea& readOnly;
  const npu::Accelerator& accelerator;
};

/// Region a memory maps to: the read-only area, the arena, or the separate fast scratch area.
[[nodiscard]] int regionOf(npu::MemoryArea area, bool constant, const npu::MemorySystem& memory);

[[nodiscard]] std::vector<OperationInfo> describeRegion(const RegionSources& sources);

} // namespace ethosu::codegen
