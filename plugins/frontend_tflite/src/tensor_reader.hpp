// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "reader_context.hpp"

#include "npu/ir/tensor.hpp"

#include <optional>

namespace npu::tflite_frontend::detail {

/// The IR type of a TFLite tensor type; nullopt for values the schema does not define.
[[nodiscard]] std::optional<DataType> dataTypeOf(tflite::TensorType type);

/// Reads tensor `index` of subgraph `subgraph`: shape, type, quantisation, constant data. Checks the
/// buffer index, the shape, the per-axis quantisation against the shape and the data size against
/// shape and type.
[[nodiscard]] Tensor readTensor(ReaderContext& context, const tflite::Tensor& tensor, std::size_t subgraph,
                                std::size_t index);

} // namespace npu::tflite_frontend::detail
