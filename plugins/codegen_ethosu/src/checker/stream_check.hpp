// SPDX-License-Identifier: Apache-2.0
#pragma once

// The command-stream checker as users and code generation call it: decode an `ethos-u` operator's
// command stream tensor, trace it, and judge the trace against the operator's memory (the sizes of the
// flash, scratch and fast scratch tensors, where its inputs and outputs live).

#include "checker/access_trace.hpp"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace ethosu::codegen {

/// What the stream runs against.
struct StreamMemory {
  std::map<int, std::int64_t> regionBytes; ///< flash, scratch and (when separate) fast scratch
  /// Valid before the stream runs (all of flash is added). Each input counts up to the end of its
  /// allocation, a whole number of 16-byte units: a DMA may read the padding after its last element.
  std::vector<MemoryAccess> inputs;
  std::vector<MemoryAccess> outputs; ///< must be written by the end
};

/// Every problem found, each a sentence naming the command's offset; empty when the stream is sound.
/// With `written`, also appends every byte range the stream writes (in execution order).
[[nodiscard]] std::vector<std::string> checkCommandStream(std::span<const std::uint8_t> payload,
                                                          const StreamMemory& memory,
                                                          std::vector<MemoryAccess>* written = nullptr);

} // namespace ethosu::codegen
