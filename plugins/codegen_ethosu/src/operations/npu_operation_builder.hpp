// SPDX-License-Identifier: Apache-2.0
#pragma once

// Turns high-level commands into NPU operations with every address resolved (Vela 3.10's
// high_level_command_to_npu_op.py): feature maps with tiles, strides and quantisation, padding per
// stripe, weight and scale ranges per core, DMA source and destination ranges.

#include "operations/operation_info.hpp"
#include "stream/high_level_stream.hpp"

#include "codegen_ethosu/npu_operation.hpp"

#include <span>

namespace ethosu::codegen {

/// Where each operation's lookup table sits in SHRAM (decided over the whole stream, lookup_tables.hpp).
struct LookupTablePlacement {
  int slot = 0;              ///< the activation's table index
  std::int64_t address = 0;  ///< SHRAM address the DMA writes to
};

/// Appends the NPU operations of one command to `to`: one per command, except a copy of weights
/// without their scales, which takes one per core. `operations` holds the info of every scheduled
/// operation of the region (indexed by the command's operation), `tables` the lookup table placement
/// of each.
void appendNpuOperations(const HighLevelCommand& command, std::span<const OperationInfo> operations,
                         std::span<const LookupTablePlacement> tables, int cores, std::vector<NpuOperation>& to);

} // namespace ethosu::codegen
