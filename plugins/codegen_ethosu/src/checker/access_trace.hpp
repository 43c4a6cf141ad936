// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a command stream does to memory, as the checker sees it: the operations the two engines (the
// kernel pipeline and the DMA) start, each with the byte ranges it reads and writes per region, and the
// waits between them. Built from a decoded command stream (stream_trace.hpp); judged by checkTrace.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ethosu::codegen {

enum class Engine : std::uint8_t { Kernel, Dma };

/// Every buffer's address and size is a multiple of this (Vela's allocation quantum): the padding after a
/// tensor belongs to its buffer.
inline constexpr std::int64_t kAllocationUnit = 16;

/// Bytes [start, end) of one region, read or written.
struct MemoryAccess {
  int region = 0;
  std::int64_t start = 0;
  std::int64_t end = 0;
  bool write = false;
};

/// An operation an engine starts, or a wait until at most `outstanding` operations of `engine` are
/// still running.
struct TraceEvent {
  Engine engine = Engine::Kernel;
  bool wait = false;
  int outstanding = 0;     ///< waits only
  std::string description; ///< operations: e.g. "NPU_OP_CONV at 0x000120"
  std::vector<MemoryAccess> accesses;
};

[[nodiscard]] inline TraceEvent waitFor(Engine engine, int outstanding) {
  return TraceEvent{engine, true, outstanding, {}, {}};
}

struct TraceLimits {
  std::map<int, std::int64_t> regionBytes; ///< size of every region an access may name
  int maxOutstandingKernels = 2;           ///< the hardware stalls a new one beyond this
  int maxOutstandingDma = 1;
  std::vector<MemoryAccess> initialised;   ///< valid before the stream runs (inputs; all of flash)
  std::vector<MemoryAccess> mustBeWritten; ///< written by the end (outputs)
};

struct TraceViolation {
  std::size_t event = 0; ///< index of the offending event
  std::string message;
};

/// Every access lies inside its region; nothing is read before it was written (or initialised); no
/// operation touches bytes an operation of the other engine may still be writing or reading (it has
/// not been waited for); every output is written.
[[nodiscard]] std::vector<TraceViolation> checkTrace(const std::vector<TraceEvent>& events, const TraceLimits& limits);

} // namespace ethosu::codegen
