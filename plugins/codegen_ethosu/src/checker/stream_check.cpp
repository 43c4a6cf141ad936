// SPDX-License-Identifier: Apache-2.0
#include "checker/stream_check.hpp"

#include "checker/stream_trace.hpp"
#include "decoder/command_decoder.hpp"

#include "codegen_ethosu/npu_operation.hpp"

#include "ethosu/architecture/architecture.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/core/shape.hpp"

namespace ethosu::codegen {

std::vector<std::string> checkCommandStream(std::span<const std::uint8_t> payload, const StreamMemory& memory,
                                            std::vector<MemoryAccess>* written) {
  std::vector<std::string> problems;
  DriverPayloadView view;
  std::vector<DecodedCommand> commands;
  try {
    view = readDriverPayload(payload);
    commands = decodeCommands(view.registerStream);
  } catch (const npu::Error& error) {
    return {error.message()};
  }
  if (view.variant == nullptr) {
    return {"the driver header names no Ethos-U accelerator this checker knows (CONFIG word " +
            std::to_string(view.configWord) + ")"};
  }
  StreamTrace trace = traceStream(commands, *view.variant);
  problems = std::move(trace.problems);
  if (written != nullptr) {
    for (const TraceEvent& event : trace.events) {
      for (const MemoryAccess& access : event.accesses) {
        if (access.write) {
          written->push_back(access);
        }
      }
    }
  }

  TraceLimits limits;
  limits.regionBytes = memory.regionBytes;
  limits.regionBytes[region::kMemoryToMemory] =
      std::int64_t{view.variant->shramBanks} * CommonArchitecture::kShramBankBytes;
  limits.maxOutstandingKernels = view.variant->maxOutstandingKernels;
  limits.maxOutstandingDma = view.variant->maxOutstandingDma;
  for (MemoryAccess input : memory.inputs) {
    input.end = input.start + npu::roundUp(input.end - input.start, kAllocationUnit);
    limits.initialised.push_back(input);
  }
  if (const auto flash = memory.regionBytes.find(region::kReadOnly); flash != memory.regionBytes.end()) {
    limits.initialised.push_back({region::kReadOnly, 0, flash->second, false});
  }
  limits.mustBeWritten = memory.outputs;
  for (const TraceViolation& violation : checkTrace(trace.events, limits)) {
    problems.push_back(violation.message);
  }
  return problems;
}

} // namespace ethosu::codegen
