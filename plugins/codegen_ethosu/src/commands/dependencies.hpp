// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the kernel pipeline and the DMA must wait for: the memory every NPU operation reads and
// writes, the waits that keep a DMA and a kernel off each other's bytes, and how far the next kernel
// may overlap the previous one (BLOCKDEP). Vela 3.10's register_command_stream_util.py.

#include "codegen_ethosu/npu_operation.hpp"

#include "ethosu/architecture/architecture.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ethosu::codegen {

/// Byte ranges [start, end) of one region, in ascending order of start (Vela's RangeSet).
using RangeList = std::vector<std::pair<std::int64_t, std::int64_t>>;

struct MemoryAccesses {
  std::map<int, RangeList> reads;
  std::map<int, RangeList> writes;
};

/// The address ranges of a feature map, one per tile in use (Vela: get_address_ranges).
[[nodiscard]] std::vector<AddressRange> featureMapRanges(const FeatureMap& map);
[[nodiscard]] MemoryAccesses accessesOf(const NpuOperation& operation, const Architecture& architecture);
/// Whether one operation writes what the other reads or writes.
[[nodiscard]] bool conflicts(const MemoryAccesses& a, const MemoryAccesses& b);

/// The waits before an operation: outstanding kernels (KERNEL_WAIT) or DMAs (DMA_WAIT) allowed to
/// remain, or -1 for none.
struct Waits {
  int kernels = -1;
  int dma = -1;
};

/// Tracks the operations still in flight, in stream order (Vela: get_wait_dependency). It keeps the
/// memory accesses of those alone: at most the hardware's outstanding DMAs and kernels.
class WaitTracker {
public:
  explicit WaitTracker(const Architecture& architecture) : architecture_(architecture) {}
  /// The waits before the next operation, which accesses `accesses`.
  [[nodiscard]] Waits before(bool isDma, MemoryAccesses accesses);

private:
  const Architecture& architecture_;
  std::vector<MemoryAccesses> dmas_;
  std::vector<MemoryAccesses> kernels_;
};

/// BLOCKDEP between two consecutive kernel operations, before capping (Vela: calc_blockdep).
[[nodiscard]] int blockDependency(const Architecture& architecture, const BlockOperation* previous,
                                  const BlockOperation& current);

inline constexpr int kMaxBlockDependency = 3;

} // namespace ethosu::codegen
