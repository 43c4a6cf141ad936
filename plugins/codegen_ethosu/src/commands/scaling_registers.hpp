// SPDX-License-Identifier: Apache-2.0
#pragma once

// The scale registers (OFM_SCALE, OPA_SCALE, OPB_SCALE) of pooling and elementwise operations, and
// the modes their NPU_OP commands carry (Vela 3.10's generate_ofm_scaling_for_pooling and
// generate_scaling_for_elementwise).

#include "commands/command_emitter.hpp"
#include "commands/scaling.hpp"

#include "codegen_ethosu/npu_operation.hpp"

namespace ethosu::codegen {

void emitPoolingScale(CommandEmitter& emitter, const BlockOperation& op);
/// Emits the elementwise scales; returns which operand the hardware rescales (0, 1: A, 2: B).
[[nodiscard]] int emitElementwiseScale(CommandEmitter& emitter, const BlockOperation& op);

[[nodiscard]] int poolingMode(PoolingFunction function);
[[nodiscard]] int elementwiseMode(ElementwiseFunction function);

} // namespace ethosu::codegen
