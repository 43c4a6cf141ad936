// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "operator_options.hpp"

#include <optional>
#include <string>

namespace npu::tflite_frontend::detail {

/// Writes the options of one operator into its Operation, checking every value the IR depends on.
class OptionReader {
public:
  OptionReader(const ReaderContext& context, const OperatorSource& source, const std::vector<Tensor>& tensors,
               Operation& operation)
      : context_(context), source_(source), tensors_(tensors), operation_(operation) {}

  void integer(const char* name, std::int64_t value) { operation_.attributes.set(name, value); }
  void flag(const char* name, bool value) { operation_.attributes.set(name, value); }
  void number(const char* name, float value) { operation_.attributes.set(name, static_cast<double>(value)); }
  void text(const char* name, const flatbuffers::String* value);
  /// Vectors are set only when the file has them: an absent vector (e.g. RESHAPE's new_shape, which
  /// may come from a tensor instead) differs from an empty one.
  void integers(const char* name, const flatbuffers::Vector<std::int32_t>* values);
  void numbers(const char* name, const flatbuffers::Vector<float>* values);
  /// Tensor types are stored under the IR's type names ("int32").
  void tensorType(const char* name, tflite::TensorType type);
  /// Other enumerations keep their TFLite spelling; `spelling` is empty for an undefined value.
  void enumeration(const char* name, const char* spelling, int value);
  /// An index into Model.subgraphs (control flow), checked.
  void subgraphIndex(const char* name, std::int64_t index);

  void padding(tflite::Padding padding);
  void activation(tflite::ActivationFunctionType function);
  /// Kernel of a convolution: height and width from the weights (input 1, [*, H, W, *] for CONV_2D,
  /// DEPTHWISE_CONV_2D and TRANSPOSE_CONV alike), strides and dilation from the options.
  void convolutionKernel(int strideW, int strideH, int dilationW, int dilationH);
  void poolingKernel(int filterW, int filterH, int strideW, int strideH);
  void depthMultiplier(int multiplier);
  /// CAST always carries its types (from the tensors when the options are missing).
  void castTypes();

  [[noreturn]] void fail(const std::string& message) const;

private:
  const Tensor& requiredInput(std::size_t index, const char* role) const;
  void setKernel(const Kernel& kernel);

  const ReaderContext& context_;
  const OperatorSource& source_;
  const std::vector<Tensor>& tensors_;
  Operation& operation_;
};

} // namespace npu::tflite_frontend::detail
