// SPDX-License-Identifier: Apache-2.0
#pragma once

// The network-wide allocation behind compileModel: every memory allocated once for the whole network,
// NPU regions and CPU operators on one timeline per subgraph (framework-internal).

#include "npu/pipeline/compiler.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npu {

/// The peak of one memory on a timeline, and the operation running then.
struct MemoryPeak {
  std::int64_t bytes = 0;
  std::string operation;
};

/// Allocates every memory of the network once (Vela: scheduler._update_tensor_allocation and the
/// permanent storage allocations of compiler_driver), verifies the result and hands each schedule the
/// addresses of its buffers. Returns the peak per memory; `fastStoragePeak` receives the fast storage's
/// peak with the operation live then.
std::array<std::int64_t, kMemoryAreaCount>
allocateNetwork(const Graph& graph, const std::vector<Schedule>& schedules, std::vector<Allocation>& allocations,
                NetworkAddresses& networkAddresses, const AllocatorPlugin& allocator, const OptionValues& options,
                const Accelerator& accelerator, MemoryPeak& fastStoragePeak);

} // namespace npu
