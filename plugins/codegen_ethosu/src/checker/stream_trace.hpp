// SPDX-License-Identifier: Apache-2.0
#pragma once

// From a decoded register command stream to what it does to memory (access_trace.hpp): the register
// values in force at every NPU_OP_* give the operation's IFM, IFM2, OFM, weight and scale accesses and
// a DMA's copy; KERNEL_WAIT and DMA_WAIT become waits. Checks what the trace cannot express on its own:
// that each block config fits the accelerator's shared buffer (SHRAM) and that the stream stops.

#include "checker/access_trace.hpp"
#include "decoder/command_decoder.hpp"

#include "ethosu/architecture/variant.hpp"

#include <string>
#include <vector>

namespace ethosu::codegen {

struct StreamTrace {
  std::vector<TraceEvent> events;
  std::vector<std::string> problems; ///< e.g. a block config larger than SHRAM, naming the command offset
};

[[nodiscard]] StreamTrace traceStream(const std::vector<DecodedCommand>& commands, const VariantSpec& variant);

} // namespace ethosu::codegen
