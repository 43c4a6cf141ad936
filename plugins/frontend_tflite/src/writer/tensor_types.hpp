// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/ir/data_type.hpp"

#include <tflite/tflite_schema_generated.h>

#include <optional>

namespace npu::tflite_frontend::detail {

/// The TFLite tensor type of an IR type (the inverse of the reader's mapping); nullopt for Unknown.
[[nodiscard]] std::optional<tflite::TensorType> tensorTypeOf(DataType type);

} // namespace npu::tflite_frontend::detail
