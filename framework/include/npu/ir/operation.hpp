// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/shape.hpp"
#include "npu/ir/attributes.hpp"
#include "npu/ir/op_type.hpp"
#include "npu/ir/tensor.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npu {

/// Index of an operation within its subgraph.
using OperationId = std::int32_t;

enum class Padding : std::uint8_t {
  Same,
  Valid,
  Explicit, ///< given by ExplicitPadding (e.g. after folding a PAD operator)
  Tile,     ///< hardware edge tiling (replicate edge values)
};

struct ExplicitPadding {
  int top = 0;
  int left = 0;
  int bottom = 0;
  int right = 0;
  friend bool operator==(const ExplicitPadding&, const ExplicitPadding&) = default;
};

/// Kernel geometry of convolutions and pooling.
struct Kernel {
  int width = 1;
  int height = 1;
  int strideX = 1;
  int strideY = 1;
  int dilationX = 1;
  int dilationY = 1;

  [[nodiscard]] std::int64_t elementsWH() const { return std::int64_t{width} * height; }
  /// Extent of the kernel on the input once dilated.
  [[nodiscard]] int areaWidth() const { return (width - 1) * dilationX + 1; }
  [[nodiscard]] int areaHeight() const { return (height - 1) * dilationY + 1; }
  friend bool operator==(const Kernel&, const Kernel&) = default;
};

/// An activation fused into its producing operation (ReLU clamps, or a LUT-based function).
struct Activation {
  OpType type = OpType::Relu;
  std::optional<double> min; ///< in real (dequantised) units
  std::optional<double> max;
  TensorId lut = kNoTensor; ///< table for LUT-based activations
  friend bool operator==(const Activation&, const Activation&) = default;
};

/// How the IFM is resampled on the fly (upscaling by the hardware).
enum class Resampling : std::uint8_t { None, Nearest, Transpose };

enum class RoundingMode : std::uint8_t { TFLite, ToZero, HalfUp, AwayZero };

/// Where an operation runs after placement.
enum class Placement : std::uint8_t { Unplaced, Npu, Cpu };

struct Operation {
  OpType type = OpType::Unknown;
  std::string name;
  /// The operator this one came from in the input model, as the frontend named it ("CONV_2D",
  /// "CUSTOM:my_op"); operations created by lowering keep their origin's.
  std::string sourceType;
  /// Index of the originating operator in its source subgraph; -1 if unknown.
  std::int32_t sourceIndex = -1;

  std::vector<TensorId> inputs; ///< kNoTensor marks an omitted optional input
  std::vector<TensorId> outputs;
  std::vector<TensorId> intermediates;
  Attributes attributes;

  std::optional<Kernel> kernel;
  Padding padding = Padding::Valid;
  ExplicitPadding explicitPadding;
  std::optional<Activation> activation;
  Resampling ifmResampling = Resampling::None;
  RoundingMode rounding = RoundingMode::TFLite;

  /// The 4D shapes the operation works on; they may differ from the tensors' own shapes (e.g. a fully
  /// connected layer reads a [1, 1, 1, N] view). Filled by lowering; empty means "the tensor shapes".
  std::vector<Shape4> ifmShapes;
  std::vector<Shape4> ofmShapes;
  /// Partial reads (split/slice by offset) of ifm and ifm2, and a partial write (concat by offset).
  std::array<std::optional<Shape4>, 2> readOffsets;
  std::array<std::optional<Shape4>, 2> readShapes;
  std::optional<Shape4> writeOffset;
  std::optional<Shape4> writeShape;

  Placement placement = Placement::Unplaced;
  std::string placementReason; ///< why the operation runs on the CPU (empty for the NPU)

  [[nodiscard]] TensorId input(std::size_t index) const {
    return index < inputs.size() ? inputs[index] : kNoTensor;
  }
  [[nodiscard]] TensorId output(std::size_t index = 0) const {
    return index < outputs.size() ? outputs[index] : kNoTensor;
  }
  /// Roles according to operandLayoutOf(type); kNoTensor when the role does not apply.
  [[nodiscard]] TensorId ifm() const;
  [[nodiscard]] TensorId ifm2() const;
  [[nodiscard]] TensorId weights() const;
  [[nodiscard]] TensorId bias() const;
  [[nodiscard]] TensorId ofm() const { return output(0); }
};

} // namespace npu
