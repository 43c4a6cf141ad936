// SPDX-License-Identifier: Apache-2.0
#include "tensor_types.hpp"

#include "../tensor_reader.hpp"

namespace npu::tflite_frontend::detail {

// One mapping in both directions: the reader's, inverted.
std::optional<tflite::TensorType> tensorTypeOf(DataType type) {
  for (const tflite::TensorType candidate : tflite::EnumValuesTensorType()) {
    if (dataTypeOf(candidate) == type) {
      return candidate;
    }
  }
  return std::nullopt;
}

} // namespace npu::tflite_frontend::detail
