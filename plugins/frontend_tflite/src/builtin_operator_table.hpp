// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/ir/op_type.hpp"

#include <tflite/tflite_schema_generated.h>

#include <cstdint>

namespace npu::tflite_frontend::detail {

/// How the frontend treats one builtin operator code.
struct BuiltinOperatorEntry {
  OpType type = OpType::Unknown;
  /// The options table TFLite reads for this operator; options of any other type are ignored, as the
  /// TFLite runtime ignores them.
  tflite::BuiltinOptions options = tflite::BuiltinOptions::NONE;
};

[[nodiscard]] BuiltinOperatorEntry builtinOperatorEntry(std::int32_t code);

} // namespace npu::tflite_frontend::detail
