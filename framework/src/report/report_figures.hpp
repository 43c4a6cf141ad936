// SPDX-License-Identifier: Apache-2.0
// The figures every report writer prints, each computed in one place, so that the text, CSV, JSON and
// HTML views of one compilation (and of a comparison) can never disagree about a number.
#pragma once

#include "npu/report/report.hpp"

#include <array>
#include <cstdint>

namespace npu::figures {

/// Memories reported in summaries, in Vela's order (SHRAM is excluded: it only holds LUTs).
inline constexpr std::array kReportedAreas{MemoryArea::Sram, MemoryArea::Dram, MemoryArea::OnChipFlash,
                                           MemoryArea::OffChipFlash};

/// Bytes moved to and from one memory, over all tensor purposes.
struct Traffic {
  double read = 0.0;
  double written = 0.0;
  double total = 0.0; ///< summed purpose by purpose (the summary CSV's <memory>_total_bytes, to the last bit)
};
[[nodiscard]] Traffic trafficOf(const OperationPerformance& performance, MemoryArea area);

/// Bytes the network keeps in a memory (allocation peak, or constants): the summary CSV's
/// <memory>_memory_used (there in KiB).
[[nodiscard]] std::int64_t memoryUsedBytes(const NetworkReport& report, MemoryArea area);
/// The SRAM peak: the summary CSV's sram_memory_used and the per-layer CSV's Peak% denominator.
[[nodiscard]] std::int64_t sramPeakBytes(const NetworkReport& report);
/// Bytes read and written in off-chip memories (DRAM and off-chip flash): the summary CSV's
/// dram_total_bytes + off_chip_flash_total_bytes.
[[nodiscard]] double offChipBytes(const NetworkReport& report);
/// Inferences per second at the core clock (0 when the clock is unknown).
[[nodiscard]] double inferencesPerSecond(const NetworkReport& report);
/// Design peak bandwidth of a memory in GB/s (the summary CSV's <memory>_bandwidth).
[[nodiscard]] double peakBandwidthGigabytesPerSecond(const MemorySystem& memory, MemoryArea area);
/// MAC utilisation of one layer in percent (the per-layer CSV's Util%).
[[nodiscard]] double utilisationPercent(const NetworkReport& report, const LayerReport& layer);
/// Cycles of one layer (the per-layer CSV's Op Cycles).
[[nodiscard]] double layerCycles(const LayerReport& layer);

/// The lower bound (CostModel::bound): a layer's own, the network's (NetworkBound), and how many times
/// the bound the network's estimate is (0 when the bound is 0).
[[nodiscard]] double layerBoundCycles(const LayerReport& layer);
[[nodiscard]] const char* layerBoundBy(const LayerReport& layer);
[[nodiscard]] double networkBoundCycles(const NetworkReport& report);
[[nodiscard]] const char* networkBoundBy(const NetworkReport& report);
[[nodiscard]] double estimateToBoundRatio(const NetworkReport& report);

/// What bounds a layer's cycles. An operation takes as long as its slowest part (compute or the
/// accesses to one memory), so its cycles stack as: compute, then what SRAM accesses need beyond
/// compute, then what on-chip flash needs beyond both, then off-chip memories (DRAM, off-chip flash),
/// then whatever the cost model added on top. The segments sum to the layer's cycles.
enum class Bound : std::uint8_t { Compute, Sram, OnChipFlash, OffChip, Other };
inline constexpr std::size_t kBoundCount = 5;
[[nodiscard]] std::array<double, kBoundCount> boundSegments(const OperationPerformance& performance);
/// What a layer is bound by: its slowest part, the top segment of its stack.
[[nodiscard]] Bound boundOf(const OperationPerformance& performance);
[[nodiscard]] const char* nameOf(Bound bound);

} // namespace npu::figures
