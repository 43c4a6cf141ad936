// SPDX-License-Identifier: Apache-2.0
#include "stream/lookup_tables.hpp"

#include <limits>

namespace ethosu::codegen {

namespace {

constexpr std::int64_t kSlotBytes = 256;

struct ResidentTable {
  std::int64_t identity = -1;
  std::int64_t address = 0;
  std::int64_t bytes = 0;
};

bool overlaps(std::int64_t start, std::int64_t end, std::int64_t otherStart, std::int64_t otherEnd) {
  return start < otherEnd && otherStart < end;
}

/// The address in [start, stop) (in steps of `step`) that overlaps the fewest resident tables; the first
/// such address on ties (Vela: LUTState.find_best_address).
std::int64_t bestAddress(const std::vector<ResidentTable>& resident, std::int64_t start, std::int64_t stop,
                         std::int64_t step) {
  std::int64_t best = start;
  std::int64_t fewest = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t address = start; address < stop; address += step) {
    std::int64_t count = 0;
    for (const ResidentTable& table : resident) {
      if (overlaps(address, address + step, table.address, table.address + table.bytes)) {
        ++count;
      }
    }
    if (count < fewest) {
      fewest = count;
      best = address;
    }
  }
  return best;
}

} // namespace

LookupTablePlan planLookupTables(std::vector<HighLevelCommand> commands, std::span<const LookupTableUse> uses,
                                 std::int64_t lutStart, std::int64_t lutBytes, bool sharedWithAccumulators) {
  LookupTablePlan plan;
  plan.placements.assign(uses.size(), LookupTableSlot{});
  std::vector<ResidentTable> resident;
  for (HighLevelCommand& command : commands) {
    if (const auto* stripe = std::get_if<StripeCommand>(&command)) {
      if (sharedWithAccumulators && !uses[static_cast<std::size_t>(stripe->operation)].used) {
        resident.clear(); // the stripe may overwrite the banks the tables live in
      }
      plan.commands.push_back(std::move(command));
      continue;
    }
    const auto& dma = std::get<DmaCommand>(command);
    if (dma.source != DmaCommand::Source::LookupTable) {
      plan.commands.push_back(std::move(command));
      continue;
    }
    const LookupTableUse& use = uses[static_cast<std::size_t>(dma.operation)];
    LookupTableSlot& placement = plan.placements[static_cast<std::size_t>(dma.operation)];
    const auto present = std::find_if(resident.begin(), resident.end(),
                                      [&](const ResidentTable& table) { return table.identity == use.identity; });
    if (present != resident.end()) {
      placement.address = present->address;
      placement.slot = static_cast<int>((present->address - lutStart) / present->bytes);
      continue; // already in SHRAM
    }
    const std::int64_t address = bestAddress(resident, lutStart, lutStart + lutBytes, use.bytes);
    placement.address = address;
    placement.slot = static_cast<int>((address - lutStart) / kSlotBytes);
    std::vector<ResidentTable> next{ResidentTable{use.identity, address, use.bytes}};
    for (const ResidentTable& table : resident) {
      if (!overlaps(address, address + use.bytes, table.address, table.address + table.bytes)) {
        next.push_back(table);
      }
    }
    resident = std::move(next);
    plan.commands.push_back(std::move(command));
  }
  return plan;
}

} // namespace ethosu::codegen
