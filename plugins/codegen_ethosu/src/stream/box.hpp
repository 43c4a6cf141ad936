// SPDX-License-Identifier: Apache-2.0
#pragma once

// A box of a 4D feature map (batch, height, width, depth): start inclusive, end exclusive. The
// high-level command stream describes every stripe by the OFM box it writes and the IFM boxes it reads.

#include "npu/core/shape.hpp"

#include <array>
#include <optional>
#include <string>

namespace ethosu::codegen {

using Coordinate = std::array<int, 4>;

struct Box {
  Coordinate start{};
  Coordinate end{};

  [[nodiscard]] static Box whole(const npu::Shape4& shape) {
    return Box{{0, 0, 0, 0}, {shape.batch, shape.height, shape.width, shape.depth}};
  }
  /// Extent in each dimension.
  [[nodiscard]] npu::Shape4 size() const {
    return {end[0] - start[0], end[1] - start[1], end[2] - start[2], end[3] - start[3]};
  }
  [[nodiscard]] bool contains(const Box& inner) const;
  [[nodiscard]] std::string str() const; ///< "<Box [0, 0, 0, 0] - [1, 8, 8, 16]>", as Vela prints it
  friend bool operator==(const Box&, const Box&) = default;
};

/// What an operation's IFM box depends on, beyond the OFM box (Vela: Box.transform_with_strides_and_skirt).
struct IfmBoxQuery {
  int strideY = 1;
  int strideX = 1;
  /// Rows/columns of IFM beyond the strided OFM box a kernel reads (top, left, bottom, right); absent
  /// for operations that read exactly their OFM box (elementwise).
  std::optional<std::array<int, 4>> skirt;
  npu::Shape4 ifmShape;
  bool dotProduct = false;   ///< reads the whole IFM depth for every OFM channel (convolution, reduce-sum)
  npu::Shape4 writeOffset{0, 0, 0, 0}; ///< where the OFM box sits in a concatenation
  int dilatedKernelHeight = 1;
  std::optional<npu::Shape4> readOffset; ///< a split/slice read: where the IFM view starts
  std::optional<npu::Shape4> readShape;
  int upscaling = 1;
  bool binaryElementwise = false; ///< broadcast inputs wrap around their own shape
};

struct IfmBox {
  Box box;
  int padTop = 0;
  int padBottom = 0;
};

/// The IFM box an OFM box reads, with the padding the stripe needs at its top and bottom.
[[nodiscard]] IfmBox ifmBoxFor(const Box& ofmBox, const IfmBoxQuery& query);

} // namespace ethosu::codegen
