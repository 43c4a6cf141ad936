// SPDX-License-Identifier: Apache-2.0
#pragma once

// The supported-operators report (Vela's --supported-ops-report), generated from an accelerator
// plugin's own constraint tables (OperatorSupport::describe), so it holds for any accelerator plugin.

#include "npu/plugin/accelerator.hpp"

#include <string>
#include <vector>

namespace npu::cli {

struct SupportedOperatorsReport {
  std::string accelerator; ///< variant, e.g. "ethos-u55-256"
  std::string plugin;      ///< plugin id and version, e.g. "perf_u55 0.1.0"
  std::vector<SupportedOperatorType> operators;
};

/// Markdown in the shape of Vela's SUPPORTED_OPS.md: the constraints every operator type has, then per
/// type the constraints of its own.
[[nodiscard]] std::string renderSupportedOperatorsMarkdown(const SupportedOperatorsReport& report);
/// The same as JSON: every type with its full list of constraints, in check order.
[[nodiscard]] std::string renderSupportedOperatorsJson(const SupportedOperatorsReport& report);

} // namespace npu::cli
