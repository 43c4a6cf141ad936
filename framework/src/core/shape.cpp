// SPDX-License-Identifier: Apache-2.0
#include "npu/core/shape.hpp"

#include <sstream>

namespace npu {

Shape4 Shape4::fromShape(const Shape& shape) {
  const auto dims = shape.dims();
  const auto at = [&](int fromEnd) {
    const auto rank = static_cast<int>(dims.size());
    return fromEnd < rank ? dims[static_cast<std::size_t>(rank - 1 - fromEnd)] : 1;
  };
  int batch = at(3);
  for (int fromEnd = 4; fromEnd < static_cast<int>(dims.size()); ++fromEnd) {
    batch *= at(fromEnd);
  }
  return {batch, at(2), at(1), at(0)};
}

std::string Shape::str() const {
  std::ostringstream out;
  out << *this;
  return out.str();
}

std::string Shape4::str() const {
  std::ostringstream out;
  out << *this;
  return out.str();
}

std::ostream& operator<<(std::ostream& out, const Shape& shape) {
  out << '[';
  const auto dims = shape.dims();
  for (std::size_t i = 0; i < dims.size(); ++i) {
    out << (i == 0 ? "" : ", ") << dims[i];
  }
  return out << ']';
}

std::ostream& operator<<(std::ostream& out, const Shape4& shape) {
  return out << '[' << shape.batch << ", " << shape.height << ", " << shape.width << ", " << shape.depth << ']';
}

} // namespace npu
