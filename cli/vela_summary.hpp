// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/report/report.hpp"

#include <string>

namespace npu::cli {

struct VelaSummaryOptions {
  bool showCpuOperations = false; ///< --show-cpu-operations: list them with their reasons
  bool verboseWeights = false;    ///< --verbose-weights: original and encoded weight sizes
};

/// The network summary Vela 3.10 prints after compiling (stats_writer's performance metrics): the
/// configuration, peak bandwidths, memory used, CPU/NPU operator counts, bandwidth per memory, MACs,
/// cycles per component and the inference time, in Vela's layout (batch size 1).
[[nodiscard]] std::string renderVelaSummary(const NetworkReport& report, const VelaSummaryOptions& options);

} // namespace npu::cli
