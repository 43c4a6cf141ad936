// SPDX-License-Identifier: Apache-2.0
#include "schedule_plan.hpp"

namespace npu::cascade {

std::int64_t OperationPlan::bufferedWeightBytes() const {
  std::int64_t total = 0;
  for (const BufferedWeights& buffer : bufferedWeights) {
    total += buffer.allocatedBytes();
  }
  return total;
}

const CascadeSpan* SchedulePlan::cascadeOf(int index) const {
  if (!covers(index)) {
    return nullptr;
  }
  const auto it = cascades.find(at(index).cascade);
  return it == cascades.end() ? nullptr : &it->second;
}

std::int64_t SchedulePlan::snapshotAt(std::int64_t time) const {
  return time >= 0 && time < static_cast<std::int64_t>(memorySnapshot.size())
             ? memorySnapshot[static_cast<std::size_t>(time)]
             : 0;
}

} // namespace npu::cascade
