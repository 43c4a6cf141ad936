// SPDX-License-Identifier: Apache-2.0
#include "stream/box.hpp"

#include <algorithm>

namespace ethosu::codegen {

namespace {

/// Python's floor division, for the negative intermediate coordinates of padded stripes.
int floorDivide(int value, int divisor) {
  const int quotient = value / divisor;
  return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient;
}

/// A broadcast operand's coordinate wraps around its own extent (Vela: Box.wrap).
Coordinate wrap(const Coordinate& coordinate, const npu::Shape4& shape) {
  Coordinate wrapped{};
  for (int axis = 0; axis < 4; ++axis) {
    const int value = coordinate[static_cast<std::size_t>(axis)];
    const int extent = shape[axis];
    wrapped[static_cast<std::size_t>(axis)] = (value >= extent && extent != 0) ? value % extent : value;
  }
  return wrapped;
}

} // namespace

bool Box::contains(const Box& inner) const {
  for (std::size_t axis = 0; axis < 4; ++axis) {
    if (inner.start[axis] < start[axis] || inner.end[axis] > end[axis]) {
      return false;
    }
  }
  return true;
}

std::string Box::str() const {
  const auto list = [](const Coordinate& c) {
    return "[" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ", " +
           std::to_string(c[3]) + "]";
  };
  return "<Box " + list(start) + " - " + list(end) + ">";
}

// Vela: high_level_command_stream.Box.transform_with_strides_and_skirt.
IfmBox ifmBoxFor(const Box& ofmBox, const IfmBoxQuery& query) {
  if (query.upscaling > 1 && query.readOffset) {
    // An upscaling operation reading a split part: its OFM rows map onto the part's rows, so the box is
    // found within the part and then moved to where the part starts (Vela adds the part's offset to
    // the OFM box before it undoes the upscaling, which reads outside the part).
    IfmBoxQuery within = query;
    within.ifmShape = query.readShape.value_or(query.ifmShape);
    within.readOffset.reset();
    within.readShape.reset();
    IfmBox result = ifmBoxFor(ofmBox, within);
    const npu::Shape4& offset = *query.readOffset;
    for (int axis = 0; axis < 4; ++axis) {
      const auto a = static_cast<std::size_t>(axis);
      result.box.start[a] += offset[axis];
      result.box.end[a] += offset[axis];
    }
    return result;
  }
  Coordinate start = ofmBox.start;
  Coordinate end = ofmBox.end;
  const npu::Shape4& ifm = query.ifmShape;
  for (int axis = 0; axis < 4; ++axis) {
    const auto a = static_cast<std::size_t>(axis);
    start[a] -= query.writeOffset[axis];
    end[a] -= query.writeOffset[axis];
    if (query.readOffset) {
      start[a] += (*query.readOffset)[axis];
      end[a] += (*query.readOffset)[axis];
    }
  }
  if (query.dotProduct) {
    if (query.readOffset) {
      start[3] = query.readOffset->depth;
      end[3] = start[3] + query.readShape.value_or(ifm).depth;
    } else {
      start[3] = 0;
      end[3] = ifm.depth;
    }
  }
  const int up = query.upscaling;
  end[3] = std::min(end[3], ifm.depth);
  end[2] = std::min(end[2], ifm.width * up);
  const int unclampedEndHeight = end[1];
  end[1] = std::min(end[1], ifm.height * up);

  IfmBox result;
  if (query.skirt) {
    const auto& skirt = *query.skirt; // top, left, bottom, right
    if (query.readOffset) {
      const npu::Shape4 readShape = query.readShape.value_or(ifm);
      start[2] = std::max(start[2] * query.strideX - skirt[1], query.readOffset->width);
      end[2] = std::min(end[2] * query.strideX + skirt[3], query.readOffset->width + readShape.width);
    } else {
      start[2] = std::max(start[2] * query.strideX - skirt[1], 0);
      end[2] = std::min(end[2] * query.strideX + skirt[3], ifm.width);
    }
    const int topRemainder = skirt[0] % up;
    const int totalStride = query.strideY * (end[1] - start[1] - 1);
    start[1] = start[1] * query.strideY - skirt[0] + topRemainder;
    result.padTop = std::max(0, -start[1]) + topRemainder;
    start[1] = std::max(start[1], 0);
    if (end[1] * query.strideY + skirt[2] > ifm.height * up) {
      if (up != 1 && unclampedEndHeight > ifm.height * up) {
        // Transpose convolution with VALID padding.
        result.padBottom = unclampedEndHeight - ifm.height * up;
      } else {
        const int kernelStart = start[1] - result.padTop;
        result.padBottom = std::max(0, kernelStart + totalStride + query.dilatedKernelHeight - ifm.height * up);
      }
    }
    start[1] = std::max(floorDivide(start[1], up), 0);
    end[1] = end[1] * query.strideY + skirt[2] + skirt[2] % up;
    end[1] = std::max(std::min(floorDivide(end[1], up), ifm.height), 1);
  }
  if (query.binaryElementwise) {
    start = wrap(start, ifm);
    Coordinate last{end[0] - 1, end[1] - 1, end[2] - 1, end[3] - 1};
    last = wrap(last, ifm);
    end = {last[0] + 1, last[1] + 1, last[2] + 1, last[3] + 1};
  }
  result.box = Box{start, end};
  return result;
}

} // namespace ethosu::codegen
