// SPDX-License-Identifier: Apache-2.0
#pragma once

// How the NPU addresses a stored tensor: region, base address, storage format and shape, and from them
// the byte strides, the address of a coordinate and the tiles of a box (a rolling buffer wraps around
// in height). Behaviour of Vela 3.10's Tensor.get_strides, address_for_coordinate and
// addresses_for_rolling_buffer.

#include "stream/box.hpp"

#include "codegen_ethosu/npu_operation.hpp"

#include "npu/core/shape.hpp"
#include "npu/ir/tensor.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace ethosu::codegen {

struct StoredTensor {
  std::string name;
  int region = 1;
  std::int64_t address = 0;
  npu::TensorFormat format = npu::TensorFormat::NHWC;
  int elementBytes = 1;
  /// A feature map stored whole: its storage follows the 4D view each operation has of it. Otherwise
  /// `storageShape` is what is stored (a rolling buffer keeps only some rows; a lookup table).
  bool standard = true;
  npu::Shape4 storageShape;
  bool scalar = false; ///< a rank-0 constant (read through a register, not from memory)
};

/// Byte strides of the five storage axes (Vela's augmented shape): batch, channel (or 16-channel
/// brick), height, width, and within-brick channel.
using Strides = std::array<std::int64_t, 5>;

/// Storage shape of a tensor seen through an operation's 4D view (rounded to the format's quantum).
[[nodiscard]] npu::Shape4 storageShapeFor(const StoredTensor& tensor, const npu::Shape4& opShape);
[[nodiscard]] Strides stridesOf(const StoredTensor& tensor, const npu::Shape4& opShape);
/// The address of the element at `coordinate` (region relative). With `topOfBox`, the address one
/// past the element before `coordinate` (the end of a box).
[[nodiscard]] std::int64_t addressOf(const StoredTensor& tensor, const Coordinate& coordinate, const Strides& strides,
                                     const npu::Shape4& opShape, bool topOfBox = false);
/// The tiles covering `box` (Vela: addresses_for_rolling_buffer). Throws a Compile error for a box
/// that wraps around in width, which the hardware cannot address.
[[nodiscard]] TileBox tilesOf(const StoredTensor& tensor, const Box& box, const Strides& strides,
                              const npu::Shape4& opShape);
/// The strides as the feature map registers take them (height, width, depth).
[[nodiscard]] Shape3 registerStrides(const Strides& strides);

} // namespace ethosu::codegen
