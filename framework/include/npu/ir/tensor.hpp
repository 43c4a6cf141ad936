// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/shape.hpp"
#include "npu/ir/data_type.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npu {

/// Index of a tensor within its subgraph.
using TensorId = std::int32_t;
inline constexpr TensorId kNoTensor = -1;

/// What a tensor is used for; drives memory placement and bandwidth accounting.
enum class TensorPurpose : std::uint8_t {
  Unknown,
  Weights,
  FeatureMap,
  Scratch,
  ScratchFast,
  Lut,
  ScalesBiases, ///< encoded scale and bias stream (Vela's FSBias)
  Virtual,
  State, ///< variable tensors that persist between inferences
};
[[nodiscard]] std::string_view nameOf(TensorPurpose purpose);

/// Memory layout of a feature map.
enum class TensorFormat : std::uint8_t {
  NHWC,    ///< linear
  NHCWB16, ///< "brick" format: depth in slices of 16, stored NHCWB16
};
[[nodiscard]] std::string_view nameOf(TensorFormat format);

/// The memories of a system. Accelerators describe the bandwidth and latency of each; schedulers home
/// tensors in them; reports account traffic per memory. Shram is accelerator-internal (LUTs).
enum class MemoryArea : std::uint8_t {
  Unknown,
  Sram,
  Dram,
  OnChipFlash,
  OffChipFlash,
  Shram,
};
inline constexpr int kMemoryAreaCount = 6;
[[nodiscard]] std::string_view nameOf(MemoryArea area);              ///< "Sram", "OffChipFlash", ...
[[nodiscard]] std::string_view displayNameOf(MemoryArea area);       ///< "SRAM", "Off-chip Flash", ...
[[nodiscard]] std::string_view identifierOf(MemoryArea area);        ///< "sram", "off_chip_flash", ...
[[nodiscard]] std::optional<MemoryArea> memoryAreaFromName(std::string_view name);

/// Affine quantisation: real = scale * (quantised - zeroPoint), per tensor or per channel along `axis`.
struct Quantisation {
  std::vector<double> scale;
  std::vector<std::int64_t> zeroPoint;
  int axis = 0; ///< quantised dimension when per-channel
  std::optional<double> min;
  std::optional<double> max;

  [[nodiscard]] bool empty() const { return scale.empty() && zeroPoint.empty(); }
  [[nodiscard]] bool perChannel() const { return scale.size() > 1; }
  [[nodiscard]] std::int64_t zeroPointAt(std::size_t channel) const {
    return zeroPoint.empty() ? 0 : zeroPoint[zeroPoint.size() == 1 ? 0 : channel];
  }
  [[nodiscard]] double scaleAt(std::size_t channel) const {
    return scale.empty() ? 1.0 : scale[scale.size() == 1 ? 0 : channel];
  }
  friend bool operator==(const Quantisation&, const Quantisation&) = default;
};

/// Immutable constant contents shared between tensors (and between graph copies).
using ConstantBuffer = std::shared_ptr<const std::vector<std::uint8_t>>;

struct Tensor {
  std::string name;
  Shape shape;
  DataType type = DataType::Unknown;
  Quantisation quantisation;
  ConstantBuffer data; ///< little-endian contents of a constant tensor; null otherwise
  TensorPurpose purpose = TensorPurpose::Unknown;
  TensorFormat format = TensorFormat::NHWC;
  bool isVariable = false;
  /// Tensors with the same equivalence id hold the same values (e.g. a constant reused by two
  /// operators); totals count such weights once. -1 when the tensor is unique.
  std::int64_t equivalenceId = -1;

  [[nodiscard]] bool isConstant() const { return data != nullptr; }
  [[nodiscard]] std::int64_t elements() const { return shape.elements(); }
  /// Bytes of the plain (unencoded, linear) contents.
  [[nodiscard]] std::int64_t byteSize() const { return elements() * bytesOf(type); }
  [[nodiscard]] std::span<const std::uint8_t> bytes() const {
    return data ? std::span<const std::uint8_t>(*data) : std::span<const std::uint8_t>{};
  }
  /// Constant values widened to int64 (integer types and Bool); throws Internal for other types.
  [[nodiscard]] std::vector<std::int64_t> integerValues() const;
  /// Constant values as double (float and integer types).
  [[nodiscard]] std::vector<double> floatValues() const;
};

/// Builds a constant buffer from typed values (helper for lowering and tests).
template <typename T>
ConstantBuffer makeConstantBuffer(std::span<const T> values) {
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(values.size_bytes());
  if (!values.empty()) {
    std::copy_n(reinterpret_cast<const std::uint8_t*>(values.data()), values.size_bytes(), bytes->data());
  }
  return bytes;
}

} // namespace npu
