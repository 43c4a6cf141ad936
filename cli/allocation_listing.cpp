#include "allocation_listing.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace npu::cli {

std::string renderAllocation(const NetworkAddresses& addresses) {
  std::string text;
  for (int areaIndex = 0; areaIndex < kMemoryAreaCount; ++areaIndex) {
    const auto area = static_cast<MemoryArea>(areaIndex);
    for (const bool constant : {false, true}) {
      std::vector<const AllocationEntry*> entries;
      for (const AllocationEntry& entry : addresses.entries) {
        if (entry.area == area && entry.constant == constant) {
          entries.push_back(&entry);
        }
      }
      if (entries.empty()) {
        continue;
      }
      std::sort(entries.begin(), entries.end(), [](const AllocationEntry* a, const AllocationEntry* b) {
        return std::tie(a->start, a->end, a->size, a->address, a->name) <
               std::tie(b->start, b->end, b->size, b->address, b->name);
      });
      text += "\nAllocation of " + std::string(displayNameOf(area)) + (constant ? ", constants" : "") + ":\n";
      text += "Start Time -   End Time: Start Addr -   End Addr: Tensor Size: Name\n";
      std::int64_t peak = 0;
      for (const AllocationEntry* entry : entries) {
        char start[32];
        char end[32];
        std::snprintf(start, sizeof start, "0x%llx", static_cast<unsigned long long>(entry->address));
        std::snprintf(end, sizeof end, "0x%llx", static_cast<unsigned long long>(entry->address + entry->size));
        char line[160];
        std::snprintf(line, sizeof line, "%10lld - %10lld: %10s - %10s: %11lld: ", static_cast<long long>(entry->start),
                      static_cast<long long>(entry->end), start, end, static_cast<long long>(entry->size));
        text += line + entry->name + "\n";
        peak = std::max(peak, entry->address + entry->size);
      }
      text += "Allocation peak: " + std::to_string(peak) + " bytes\n";
    }
  }
  return text;
}

} // namespace npu::cli
