// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/ir/op_type.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace npu::tflite_frontend {

/// TFLite's code for custom operators (BuiltinOperator CUSTOM).
inline constexpr std::int32_t kCustomOperatorCode = 32;

/// The TFLite name of a builtin operator code ("CONV_2D"); empty for codes the schema does not know.
[[nodiscard]] std::string_view builtinOperatorName(std::int32_t code);

/// The IR operation type of a builtin operator code, following Vela's tflite_mapping.py; Unknown for
/// codes Vela does not map (and for codes the schema does not know).
[[nodiscard]] OpType opTypeOfBuiltin(std::int32_t code);

/// What Operation::sourceType holds for an operator: the builtin name, "CUSTOM:<custom_code>" for
/// custom operators, and "BUILTIN_<code>" for codes newer than the schema.
[[nodiscard]] std::string sourceTypeName(std::int32_t code, std::string_view customCode);

} // namespace npu::tflite_frontend
