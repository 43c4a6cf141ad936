// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace npu {

/// Integer division rounding towards +infinity, for non-negative numerator and positive divisor.
constexpr std::int64_t divRoundUp(std::int64_t value, std::int64_t divisor) {
  return (value + divisor - 1) / divisor;
}
constexpr std::int64_t roundUp(std::int64_t value, std::int64_t quantum) {
  return divRoundUp(value, quantum) * quantum;
}
constexpr std::int64_t roundDown(std::int64_t value, std::int64_t quantum) {
  return (value / quantum) * quantum;
}

/// A tensor shape of any rank, as the model file gives it.
class Shape {
public:
  Shape() = default;
  Shape(std::initializer_list<int> dims) : dims_(dims) {}
  explicit Shape(std::vector<int> dims) : dims_(std::move(dims)) {}

  [[nodiscard]] int rank() const { return static_cast<int>(dims_.size()); }
  [[nodiscard]] bool isScalar() const { return dims_.empty(); }
  [[nodiscard]] int operator[](int axis) const { return dims_.at(static_cast<std::size_t>(axis)); }
  [[nodiscard]] int& operator[](int axis) { return dims_.at(static_cast<std::size_t>(axis)); }
  /// Dimension counted from the back: back(0) is the innermost (channel) dimension.
  [[nodiscard]] int back(int fromEnd) const { return dims_.at(dims_.size() - 1 - static_cast<std::size_t>(fromEnd)); }
  [[nodiscard]] std::span<const int> dims() const { return dims_; }
  [[nodiscard]] std::int64_t elements() const {
    return std::accumulate(dims_.begin(), dims_.end(), std::int64_t{1},
                           [](std::int64_t acc, int d) { return acc * d; });
  }
  [[nodiscard]] std::string str() const;

  friend bool operator==(const Shape&, const Shape&) = default;

private:
  std::vector<int> dims_;
};

/// The 4D (batch, height, width, depth) view of a feature map that the NPU works on. Shapes of lower
/// rank are padded with leading ones; see Vela's Shape4D.
struct Shape4 {
  int batch = 1;
  int height = 1;
  int width = 1;
  int depth = 1;

  constexpr Shape4() = default;
  constexpr Shape4(int n, int h, int w, int c) : batch(n), height(h), width(w), depth(c) {}
  /// Pads with leading ones; ranks above four fold the outer dimensions into the batch.
  static Shape4 fromShape(const Shape& shape);

  [[nodiscard]] constexpr std::int64_t elements() const {
    return std::int64_t{batch} * height * width * depth;
  }
  [[nodiscard]] constexpr std::int64_t elementsWH() const { return std::int64_t{height} * width; }
  [[nodiscard]] constexpr Shape4 withBatch(int n) const { return {n, height, width, depth}; }
  [[nodiscard]] constexpr Shape4 withHeight(int h) const { return {batch, h, width, depth}; }
  [[nodiscard]] constexpr Shape4 withWidth(int w) const { return {batch, height, w, depth}; }
  [[nodiscard]] constexpr Shape4 withDepth(int c) const { return {batch, height, width, c}; }
  [[nodiscard]] constexpr Shape4 withHW(int h, int w) const { return {batch, h, w, depth}; }
  [[nodiscard]] constexpr int operator[](int axis) const {
    return axis == 0 ? batch : axis == 1 ? height : axis == 2 ? width : depth;
  }
  [[nodiscard]] std::string str() const;

  friend constexpr bool operator==(const Shape4&, const Shape4&) = default;
};

[[nodiscard]] constexpr Shape4 elementwiseMin(const Shape4& a, const Shape4& b) {
  return {std::min(a.batch, b.batch), std::min(a.height, b.height), std::min(a.width, b.width),
          std::min(a.depth, b.depth)};
}
[[nodiscard]] constexpr Shape4 elementwiseMax(const Shape4& a, const Shape4& b) {
  return {std::max(a.batch, b.batch), std::max(a.height, b.height), std::max(a.width, b.width),
          std::max(a.depth, b.depth)};
}
/// Each dimension rounded up to a multiple of the matching dimension of `quantum`.
[[nodiscard]] constexpr Shape4 roundUp(const Shape4& shape, const Shape4& quantum) {
  return {static_cast<int>(roundUp(shape.batch, quantum.batch)),
          static_cast<int>(roundUp(shape.height, quantum.height)),
          static_cast<int>(roundUp(shape.width, quantum.width)),
          static_cast<int>(roundUp(shape.depth, quantum.depth))};
}
/// How many blocks of `block` cover `shape` in each dimension.
[[nodiscard]] constexpr Shape4 divRoundUp(const Shape4& shape, const Shape4& block) {
  return {static_cast<int>(divRoundUp(shape.batch, block.batch)),
          static_cast<int>(divRoundUp(shape.height, block.height)),
          static_cast<int>(divRoundUp(shape.width, block.width)),
          static_cast<int>(divRoundUp(shape.depth, block.depth))};
}

std::ostream& operator<<(std::ostream& out, const Shape& shape);
std::ostream& operator<<(std::ostream& out, const Shape4& shape);

} // namespace npu
