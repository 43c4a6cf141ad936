// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/data_type.hpp"

#include <array>
#include <utility>

namespace npu {

namespace {
struct DataTypeInfo {
  DataType type;
  std::string_view name;
  int bits;
};

constexpr std::array kDataTypes{
    DataTypeInfo{DataType::Unknown, "unknown", 0},    DataTypeInfo{DataType::Bool, "bool", 8},
    DataTypeInfo{DataType::Int4, "int4", 4},          DataTypeInfo{DataType::Int8, "int8", 8},
    DataTypeInfo{DataType::UInt8, "uint8", 8},        DataTypeInfo{DataType::Int16, "int16", 16},
    DataTypeInfo{DataType::UInt16, "uint16", 16},     DataTypeInfo{DataType::Int32, "int32", 32},
    DataTypeInfo{DataType::UInt32, "uint32", 32},     DataTypeInfo{DataType::Int64, "int64", 64},
    DataTypeInfo{DataType::UInt64, "uint64", 64},     DataTypeInfo{DataType::Float16, "float16", 16},
    DataTypeInfo{DataType::BFloat16, "bfloat16", 16}, DataTypeInfo{DataType::Float32, "float32", 32},
    DataTypeInfo{DataType::Float64, "float64", 64},   DataTypeInfo{DataType::Complex64, "complex64", 64},
    DataTypeInfo{DataType::Complex128, "complex128", 128}, DataTypeInfo{DataType::String, "string", 0},
    DataTypeInfo{DataType::Resource, "resource", 0},  DataTypeInfo{DataType::Variant, "variant", 0},
};

const DataTypeInfo& infoOf(DataType type) {
  return kDataTypes.at(static_cast<std::size_t>(type));
}
} // namespace

int bitsOf(DataType type) { return infoOf(type).bits; }
int bytesOf(DataType type) { return (bitsOf(type) + 7) / 8; }

bool isSignedInteger(DataType type) {
  switch (type) {
  case DataType::Int4:
  case DataType::Int8:
  case DataType::Int16:
  case DataType::Int32:
  case DataType::Int64:
    return true;
  default:
    return false;
  }
}

bool isInteger(DataType type) {
  return isSignedInteger(type) || type == DataType::UInt8 || type == DataType::UInt16 ||
         type == DataType::UInt32 || type == DataType::UInt64;
}

bool isFloat(DataType type) {
  return type == DataType::Float16 || type == DataType::BFloat16 || type == DataType::Float32 ||
         type == DataType::Float64;
}

std::string_view nameOf(DataType type) { return infoOf(type).name; }

std::optional<DataType> dataTypeFromName(std::string_view name) {
  for (const auto& info : kDataTypes) {
    if (info.name == name) {
      return info.type;
    }
  }
  return std::nullopt;
}

} // namespace npu
