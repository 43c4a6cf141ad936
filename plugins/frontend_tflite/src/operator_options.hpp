// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "reader_context.hpp"

#include "npu/ir/operation.hpp"

#include <string>
#include <vector>

namespace npu::tflite_frontend::detail {

/// Everything the options reader needs to know about one operator.
struct OperatorSource {
  const tflite::Operator& op;
  /// The options table TFLite reads for this operator code (NONE when it reads none).
  tflite::BuiltinOptions expectedOptions;
  /// "subgraph 0, operator 3 'name' (CONV_2D)" for messages.
  const std::string& who;
};

/// Fills kernel, padding, activation and attributes of `operation` (whose type, inputs and outputs are
/// set) from the operator's builtin options; see model_reader.hpp for the conventions. `tensors` are the
/// subgraph's tensors. Convolutions and pooling without their options are Model errors.
void readBuiltinOptions(const ReaderContext& context, const OperatorSource& source, const std::vector<Tensor>& tensors,
                        Operation& operation);

/// Sets "custom_code" and "custom_options" of a custom operator.
void readCustomOptions(const ReaderContext& context, const OperatorSource& source, const std::string& customCode,
                       Operation& operation);

} // namespace npu::tflite_frontend::detail
