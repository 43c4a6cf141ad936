// SPDX-License-Identifier: Apache-2.0
#pragma once

// Lookup tables in SHRAM: which slot each operation's table goes to and which table DMAs can be left
// out because an identical table is still there (Vela 3.10's lut.optimize_high_level_cmd_stream).

#include "stream/high_level_stream.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ethosu::codegen {

/// What the planner needs to know about one operation's table.
struct LookupTableUse {
  bool used = false;
  std::int64_t identity = -1; ///< equal identities hold equal values
  std::int64_t bytes = 0;     ///< 256 for 8-bit tables, 2048 for 16-bit ones
};

struct LookupTableSlot {
  int slot = 0;
  std::int64_t address = 0; ///< in SHRAM
};

struct LookupTablePlan {
  std::vector<HighLevelCommand> commands;  ///< the stream without redundant table DMAs
  std::vector<LookupTableSlot> placements; ///< per operation (meaningful for those using a table)
};

/// `lutStart`/`lutBytes`: the SHRAM range for tables; `sharedWithAccumulators`: when every stripe of an
/// operation without a table may overwrite the tables (no banks reserved for them).
[[nodiscard]] LookupTablePlan planLookupTables(std::vector<HighLevelCommand> commands,
                                               std::span<const LookupTableUse> uses, std::int64_t lutStart,
                                               std::int64_t lutBytes, bool sharedWithAccumulators);

} // namespace ethosu::codegen
