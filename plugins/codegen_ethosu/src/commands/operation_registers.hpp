// SPDX-License-Identifier: Apache-2.0
#pragma once

// The register settings of one NPU operation, before its NPU_OP command (Vela 3.10's
// register_command_stream_generator.generate_registers_for_op and what it calls). Throws a Compile
// error for anything a register cannot hold; the caller names the operation.

#include "commands/command_emitter.hpp"

#include "codegen_ethosu/npu_operation.hpp"

#include "ethosu/architecture/architecture.hpp"

namespace ethosu::codegen {

void emitOperationRegisters(CommandEmitter& emitter, const NpuOperation& operation, const Architecture& architecture);
/// The NPU_OP_* command that starts the operation.
void emitOperationStart(CommandEmitter& emitter, const NpuOperation& operation);

} // namespace ethosu::codegen
