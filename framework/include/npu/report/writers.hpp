// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/report/report.hpp"

#include <string>
#include <vector>

namespace npu {

/// A readable table: one row per NPU operation, then network totals.
[[nodiscard]] NPU_API std::string renderTextReport(const NetworkReport& report);
/// Vela 3.10's summary CSV: same column names and meaning (<network>_summary_<system>.csv).
[[nodiscard]] NPU_API std::string renderSummaryCsv(const NetworkReport& report);
/// Vela 3.10's per-layer CSV (--verbose-performance): same columns (<network>_per-layer.csv).
[[nodiscard]] NPU_API std::string renderPerLayerCsv(const NetworkReport& report);
/// Everything, with the resolved pipeline, as JSON (format version 1, docs/report.schema.json).
[[nodiscard]] NPU_API std::string renderJsonReport(const NetworkReport& report);

/// The resolved configuration: clocks, and per memory its bandwidth, latencies and burst length, and
/// where constants, feature maps and the arena cache live (as Vela's --verbose-config).
[[nodiscard]] NPU_API std::string renderConfigurationText(const NetworkReport& report);
/// The schedule, operation by operation: block config, stripes, cascade, weight buffering, fast storage
/// in use; then the cascades (as Vela's --verbose-schedule).
[[nodiscard]] NPU_API std::string renderScheduleText(const NetworkReport& report);
/// Where every buffer was placed, memory by memory: live range, address range, size and name, ordered by
/// live range (the layout of Vela's --verbose-allocation).
[[nodiscard]] NPU_API std::string renderAllocationText(const std::vector<AllocationEntry>& allocation);
/// Time per compilation stage (as Vela's --timing).
[[nodiscard]] NPU_API std::string renderStageTimesText(const std::vector<StageTime>& times);

} // namespace npu
