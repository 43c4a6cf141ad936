// SPDX-License-Identifier: Apache-2.0
#include "layout/feature_map_storage.hpp"

#include "npu/core/diagnostics.hpp"

namespace ethosu::codegen {

namespace {

constexpr int kBrickDepth = 16;

npu::Shape4 storedShape(const StoredTensor& tensor, const npu::Shape4& opShape) {
  return tensor.standard ? storageShapeFor(tensor, opShape) : tensor.storageShape;
}

} // namespace

npu::Shape4 storageShapeFor(const StoredTensor& tensor, const npu::Shape4& opShape) {
  if (tensor.format == npu::TensorFormat::NHCWB16) {
    return npu::roundUp(opShape, npu::Shape4{1, 1, 1, kBrickDepth});
  }
  return opShape;
}

// Vela: tensor.Tensor.get_strides.
Strides stridesOf(const StoredTensor& tensor, const npu::Shape4& opShape) {
  const npu::Shape4 shape = storedShape(tensor, opShape);
  const std::int64_t element = tensor.elementBytes;
  const std::int64_t height = std::max(shape.height, 1);
  Strides strides{};
  if (tensor.format == npu::TensorFormat::NHCWB16) {
    strides[4] = element;
    strides[3] = kBrickDepth * element;                       // x: one brick column
    strides[1] = strides[3] * shape.width;                    // c: one row of a 16-channel brick
    strides[2] = std::int64_t{shape.width} * shape.depth * element; // y: a row of all channels
    strides[0] = strides[2] * height;                         // n
  } else {
    strides[4] = element;
    strides[1] = element;                                     // c
    strides[3] = element * shape.depth;                       // x
    strides[2] = strides[3] * shape.width;                    // y
    strides[0] = strides[2] * shape.height;                   // n
  }
  return strides;
}

// Vela: tensor.Tensor.address_for_coordinate.
std::int64_t addressOf(const StoredTensor& tensor, const Coordinate& coordinate, const Strides& strides,
                       const npu::Shape4& opShape, bool topOfBox) {
  std::int64_t offset = 0;
  Coordinate point = coordinate;
  if (topOfBox) {
    for (int& value : point) {
      value -= 1;
    }
    offset += strides[4];
  }
  const npu::Shape4 shape = storedShape(tensor, opShape);
  // Partial buffers wrap around.
  for (int axis = 0; axis < 4; ++axis) {
    const int extent = std::max(shape[axis], 1);
    int& value = point[static_cast<std::size_t>(axis)];
    value = ((value % extent) + extent) % extent;
  }
  std::array<std::int64_t, 5> augmented{};
  if (tensor.format == npu::TensorFormat::NHCWB16) {
    augmented = {point[0], point[3] / kBrickDepth, point[1], point[2], point[3] % kBrickDepth};
  } else {
    augmented = {point[0], point[3], point[1], point[2], 0};
  }
  for (std::size_t axis = 0; axis < 5; ++axis) {
    offset += augmented[axis] * strides[axis];
  }
  return tensor.address + offset;
}

TileBox tilesOf(const StoredTensor& tensor, const Box& box, const Strides& strides, const npu::Shape4& opShape) {
  TileBox tiles;
  if (tensor.scalar) {
    tiles.height0 = tiles.height1 = tiles.width0 = 1;
    tiles.addresses[0] = addressOf(tensor, box.start, strides, opShape);
    return tiles;
  }
  const npu::Shape4 shape = storedShape(tensor, opShape);
  const int crossingY = std::min(static_cast<int>(npu::roundUp(box.start[1] + 1, shape.height)), box.end[1]);
  const int crossingX = std::min(static_cast<int>(npu::roundUp(box.start[2] + 1, shape.width)), box.end[2]);
  tiles.height0 = crossingY - box.start[1];
  tiles.height1 = tiles.height0;
  tiles.width0 = crossingX - box.start[2];
  tiles.addresses[0] = addressOf(tensor, box.start, strides, opShape);
  if (box.end[2] > crossingX) {
    npu::throwCompileError("feature map '" + tensor.name + "' would wrap around in width, which the NPU cannot address",
                           {}, "this schedule stripes a buffer horizontally; use another schedule");
  }
  if (box.end[1] > crossingY) {
    tiles.addresses[2] = addressOf(tensor, {box.start[0], crossingY, box.start[2], box.start[3]}, strides, opShape);
  }
  return tiles;
}

Shape3 registerStrides(const Strides& strides) {
  return Shape3{static_cast<int>(strides[2]), static_cast<int>(strides[3]), static_cast<int>(strides[1])};
}

} // namespace ethosu::codegen
