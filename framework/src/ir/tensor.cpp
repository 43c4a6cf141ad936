// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/tensor.hpp"

#include "npu/core/diagnostics.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <utility>

namespace npu {

static_assert(std::endian::native == std::endian::little, "constant buffers are read as little-endian");

std::string_view nameOf(TensorPurpose purpose) {
  static constexpr std::array<std::string_view, 9> kNames{
      "unknown", "weights", "feature_map", "scratch", "scratch_fast", "lut", "scales_biases", "virtual", "state"};
  return kNames.at(static_cast<std::size_t>(purpose));
}

std::string_view nameOf(TensorFormat format) { return format == TensorFormat::NHWC ? "NHWC" : "NHCWB16"; }

namespace {
struct MemoryAreaNames {
  std::string_view name;
  std::string_view display;
  std::string_view identifier;
};
constexpr std::array<MemoryAreaNames, kMemoryAreaCount> kMemoryAreaNames{{
    {"Unknown", "Unknown", "unknown"},
    {"Sram", "SRAM", "sram"},
    {"Dram", "DRAM", "dram"},
    {"OnChipFlash", "On-chip Flash", "on_chip_flash"},
    {"OffChipFlash", "Off-chip Flash", "off_chip_flash"},
    {"Shram", "SHRAM", "shram"},
}};
const MemoryAreaNames& namesOf(MemoryArea area) {
  return kMemoryAreaNames.at(static_cast<std::size_t>(area));
}

template <typename T>
void appendValues(std::span<const std::uint8_t> bytes, std::vector<std::int64_t>& out) {
  const std::size_t count = bytes.size() / sizeof(T);
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    T value{};
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    out.push_back(static_cast<std::int64_t>(value));
  }
}

template <typename T>
void appendFloats(std::span<const std::uint8_t> bytes, std::vector<double>& out) {
  const std::size_t count = bytes.size() / sizeof(T);
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    T value{};
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    out.push_back(static_cast<double>(value));
  }
}
} // namespace

std::string_view nameOf(MemoryArea area) { return namesOf(area).name; }
std::string_view displayNameOf(MemoryArea area) { return namesOf(area).display; }
std::string_view identifierOf(MemoryArea area) { return namesOf(area).identifier; }

std::optional<MemoryArea> memoryAreaFromName(std::string_view name) {
  for (std::size_t i = 0; i < kMemoryAreaNames.size(); ++i) {
    const auto& names = kMemoryAreaNames[i];
    if (name == names.name || name == names.display || name == names.identifier) {
      return static_cast<MemoryArea>(i);
    }
  }
  return std::nullopt;
}

std::vector<std::int64_t> Tensor::integerValues() const {
  std::vector<std::int64_t> values;
  const auto raw = bytes();
  switch (type) {
  case DataType::Bool:
  case DataType::UInt8:
    appendValues<std::uint8_t>(raw, values);
    break;
  case DataType::Int8:
    appendValues<std::int8_t>(raw, values);
    break;
  case DataType::Int16:
    appendValues<std::int16_t>(raw, values);
    break;
  case DataType::UInt16:
    appendValues<std::uint16_t>(raw, values);
    break;
  case DataType::Int32:
    appendValues<std::int32_t>(raw, values);
    break;
  case DataType::UInt32:
    appendValues<std::uint32_t>(raw, values);
    break;
  case DataType::Int64:
  case DataType::UInt64:
    appendValues<std::int64_t>(raw, values);
    break;
  default:
    throwInternalError("integer values requested of tensor '" + name + "' of type " + std::string(nameOf(type)));
  }
  return values;
}

std::vector<double> Tensor::floatValues() const {
  std::vector<double> values;
  const auto raw = bytes();
  switch (type) {
  case DataType::Float32:
    appendFloats<float>(raw, values);
    break;
  case DataType::Float64:
    appendFloats<double>(raw, values);
    break;
  default: {
    const auto integers = integerValues();
    values.assign(integers.begin(), integers.end());
  }
  }
  return values;
}

} // namespace npu
