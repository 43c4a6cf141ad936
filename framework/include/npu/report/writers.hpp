#pragma once

#include "npu/core/api.hpp"
#include "npu/report/report.hpp"

#include <string>

namespace npu {

/// A readable table: one row per NPU operation, then network totals.
[[nodiscard]] NPU_API std::string renderTextReport(const NetworkReport& report);
/// Vela 3.10's summary CSV: same column names and meaning (<network>_summary_<system>.csv).
[[nodiscard]] NPU_API std::string renderSummaryCsv(const NetworkReport& report);
/// Vela 3.10's per-layer CSV (--verbose-performance): same columns (<network>_per-layer.csv).
[[nodiscard]] NPU_API std::string renderPerLayerCsv(const NetworkReport& report);
/// Everything, with the resolved pipeline, as JSON.
[[nodiscard]] NPU_API std::string renderJsonReport(const NetworkReport& report);

} // namespace npu
