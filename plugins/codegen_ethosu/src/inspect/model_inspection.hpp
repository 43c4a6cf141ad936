// SPDX-License-Identifier: Apache-2.0
#pragma once

// `npu-pipeline inspect --commands/--check` for Ethos-U: finds the `ethos-u` operators of a model read
// back (ours or Vela's), lists their register command streams as Vela does, and checks each stream
// against the operator's flash, scratch and fast scratch tensors and the arena offsets of its inputs
// and outputs (the model's OfflineMemoryAllocation metadata).

#include "npu/ir/graph.hpp"
#include "npu/plugin/codegen.hpp"

namespace ethosu::codegen {

[[nodiscard]] npu::CodeInspection inspectModel(const npu::Graph& model);

} // namespace ethosu::codegen
