// SPDX-License-Identifier: Apache-2.0
#pragma once

// One NPU region from schedule to NPU operations: describe its operations, generate the high-level
// command stream (stripes, cascades, DMAs), place lookup tables in SHRAM, and resolve every command
// into an NPU operation.

#include "operations/describe_region.hpp"
#include "stream/high_level_stream.hpp"

#include "codegen_ethosu/npu_operation.hpp"

#include "ethosu/architecture/architecture.hpp"

#include <functional>
#include <vector>

namespace ethosu::codegen {

struct RegionProgram {
  std::vector<OperationInfo> operations;   ///< per scheduled operation
  std::vector<HighLevelCommand> commands;  ///< after lookup table planning
  std::vector<NpuOperation> npuOperations; ///< one per command (a weights-only copy: one per core)
};

[[nodiscard]] RegionProgram buildRegionProgram(const RegionSources& sources, const Architecture& architecture);

/// The NPU operations of buildRegionProgram, given to `consume` one at a time in stream order and
/// dropped after it, for code generation: a large region's operations are never all held at once.
void forEachNpuOperation(const RegionSources& sources, const Architecture& architecture,
                         const std::function<void(const NpuOperation&)>& consume);

} // namespace ethosu::codegen
