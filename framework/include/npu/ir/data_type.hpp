// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace npu {

/// Element types of tensors. The order is ours, not TFLite's; frontends map their codes.
enum class DataType : std::uint8_t {
  Unknown,
  Bool,
  Int4,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Complex64,
  Complex128,
  String,
  Resource,
  Variant,
};

/// Bits per element; 0 for types without a fixed size (String, Resource, Variant, Unknown).
[[nodiscard]] int bitsOf(DataType type);
/// Bytes per element, rounded up (Int4 counts as one byte); 0 for types without a fixed size.
[[nodiscard]] int bytesOf(DataType type);
[[nodiscard]] bool isInteger(DataType type);
[[nodiscard]] bool isSignedInteger(DataType type);
[[nodiscard]] bool isFloat(DataType type);
/// Lower-case name as used in reports and YAML: "int8", "uint8", "float32", ...
[[nodiscard]] std::string_view nameOf(DataType type);
[[nodiscard]] std::optional<DataType> dataTypeFromName(std::string_view name);

} // namespace npu
