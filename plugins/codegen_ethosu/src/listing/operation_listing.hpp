// SPDX-License-Identifier: Apache-2.0
#pragma once

// NPU operations printed exactly as Vela 3.10 prints its register command stream's input
// (--verbose-register-command-stream, "Register-Level Command Stream: Input"), so that our operations
// can be compared line by line with Vela's, and users see what they know.

#include "codegen_ethosu/npu_operation.hpp"

#include <span>
#include <string>

namespace ethosu::codegen {

/// One operation; `index` is its position in the stream. Vela's trailing high-level command text after
/// the ':' of the first line is not printed.
[[nodiscard]] std::string formatOperation(const NpuOperation& operation, int index);
[[nodiscard]] std::string formatOperations(std::span<const NpuOperation> operations);

} // namespace ethosu::codegen
