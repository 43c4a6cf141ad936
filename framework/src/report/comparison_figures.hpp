// SPDX-License-Identifier: Apache-2.0
// The network figures a comparison shows, one list for every comparison writer (text, CSV, HTML), each
// computed by the report figure functions the single-run writers use.
#pragma once

#include "npu/report/report.hpp"

#include <vector>

namespace npu::detail {

struct ComparedFigure {
  const char* name;  ///< CSV/text name, e.g. "sram_peak_bytes"
  const char* label; ///< for people, e.g. "SRAM peak (bytes)"
  double (*value)(const NetworkReport&);
  int decimals;
};

/// In table order; lower is better for every one.
[[nodiscard]] const std::vector<ComparedFigure>& comparedFigures();

/// "HxWxCinxCout" of a block config, as the text and CSV comparisons print it.
[[nodiscard]] std::string blockText(const BlockConfig& block);
/// "-" outside a cascade, "c<id>", with the scheduler's strategy label after a slash.
[[nodiscard]] std::string membershipText(const ScheduledOperation& op);

} // namespace npu::detail
