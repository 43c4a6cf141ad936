// SPDX-License-Identifier: Apache-2.0
#include "npu/plugin/performance.hpp"

#include <algorithm>

namespace npu {

OperationPerformance& OperationPerformance::operator+=(const OperationPerformance& other) {
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    cycles[i] += other.cycles[i];
  }
  macs += other.macs;
  for (std::size_t area = 0; area < bytes.size(); ++area) {
    for (std::size_t purpose = 0; purpose < bytes[area].size(); ++purpose) {
      for (std::size_t direction = 0; direction < bytes[area][purpose].size(); ++direction) {
        bytes[area][purpose][direction] += other.bytes[area][purpose][direction];
      }
    }
  }
  return *this;
}

std::optional<BoundResource> boundResourceOf(MemoryArea area) {
  switch (area) {
  case MemoryArea::Sram:
    return BoundResource::Sram;
  case MemoryArea::Dram:
    return BoundResource::Dram;
  case MemoryArea::OnChipFlash:
    return BoundResource::OnChipFlash;
  case MemoryArea::OffChipFlash:
    return BoundResource::OffChipFlash;
  default:
    return std::nullopt;
  }
}

const char* nameOf(BoundResource resource) {
  switch (resource) {
  case BoundResource::Compute:
    return "compute";
  case BoundResource::Sram:
    return "sram";
  case BoundResource::Dram:
    return "dram";
  case BoundResource::OnChipFlash:
    return "on_chip_flash";
  case BoundResource::OffChipFlash:
    return "off_chip_flash";
  case BoundResource::WeightStreaming:
    return "weight_streaming";
  }
  return "unknown";
}

double OperationBound::ownCycles(BoundResource which) const {
  const double cyclesOfResource = resource(which);
  return which == BoundResource::WeightStreaming ? std::max(cyclesOfResource - cyclesAhead, 0.0) : cyclesOfResource;
}

double OperationBound::total() const {
  return ownCycles(boundBy());
}

BoundResource OperationBound::boundBy() const {
  auto best = BoundResource::Compute;
  for (int i = 1; i < kBoundResourceCount; ++i) {
    const auto candidate = static_cast<BoundResource>(i);
    if (ownCycles(candidate) > ownCycles(best)) {
      best = candidate;
    }
  }
  return best;
}

} // namespace npu
