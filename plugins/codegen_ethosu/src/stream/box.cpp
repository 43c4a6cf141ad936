// SPDX-License-Identifier: Apache-2.0
#include "stream/box.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace ethosu::codegen {

namespace {

/// Python's floor division, for the negative intermediate coordinates of padded stripes.
std::int64_t floorDivide(std::int64_t value, std::int64_t divisor) {
  const std::int64_t quotient = value / divisor;
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

/// A coordinate of the IFM box back in the feature map's own (32-bit) range: a stride or skirt the
/// hardware cannot run has put it beyond any feature map.
int narrow(std::int64_t value, const char* what) {
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    npu::throwCompileError(std::string("an IFM stripe's ") + what + " coordinate (" + std::to_string(value) +
                           ") is out of range: the operation's strides or padding cannot be run by the NPU");
  }
  return static_cast<int>(value);
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

// Vela: high_level_command_stream.Box.transform_with_strides_and_skirt. The arithmetic is 64-bit: a model's
// strides, skirts and offsets are not bounded by the hardware before this point (an OFM of one row accepts
// any height stride), and a product of two of them must not overflow.
IfmBox ifmBoxFor(const Box& ofmBox, const IfmBoxQuery& query) {
  if (query.readOffset && (query.upscaling > 1 || query.skirt)) {
    // A kernel operation reading a split part: its OFM maps onto the part, so the box is found within
    // the part (its strides, padding and edges) and then moved to where the part starts. Vela adds the
    // part's offset to the OFM box first, then strides, pads and clamps in the whole tensor: with a
    // stride above 1 the offset is multiplied by it (a stride-2 CONV_2D of a STRIDED_SLICE from width 4
    // reads from width 8, past the part's end into the next tile), padding at the part's edges reads
    // its neighbours' rows, and an upscaled part reads outside the part. Where the stride is 1 and no
    // padding meets a part edge inside the tensor, both give the same box.
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
  using Wide = std::int64_t;
  std::array<Wide, 4> start{};
  std::array<Wide, 4> end{};
  const npu::Shape4& ifm = query.ifmShape;
  for (int axis = 0; axis < 4; ++axis) {
    const auto a = static_cast<std::size_t>(axis);
    start[a] = Wide{ofmBox.start[a]} - query.writeOffset[axis];
    end[a] = Wide{ofmBox.end[a]} - query.writeOffset[axis];
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
  const Wide up = query.upscaling;
  const Wide strideX = query.strideX;
  const Wide strideY = query.strideY;
  end[3] = std::min<Wide>(end[3], ifm.depth);
  end[2] = std::min<Wide>(end[2], ifm.width * up);
  const Wide unclampedEndHeight = end[1];
  end[1] = std::min<Wide>(end[1], ifm.height * up);

  Wide padTop = 0;
  Wide padBottom = 0;
  if (query.skirt) {
    const std::array<Wide, 4> skirt{(*query.skirt)[0], (*query.skirt)[1], (*query.skirt)[2],
                                    (*query.skirt)[3]}; // top, left, bottom, right
    if (query.readOffset) {
      const npu::Shape4 readShape = query.readShape.value_or(ifm);
      start[2] = std::max<Wide>(start[2] * strideX - skirt[1], query.readOffset->width);
      end[2] = std::min<Wide>(end[2] * strideX + skirt[3], Wide{query.readOffset->width} + readShape.width);
    } else {
      start[2] = std::max<Wide>(start[2] * strideX - skirt[1], 0);
      end[2] = std::min<Wide>(end[2] * strideX + skirt[3], ifm.width);
    }
    const Wide topRemainder = skirt[0] % up;
    const Wide totalStride = strideY * (end[1] - start[1] - 1);
    start[1] = start[1] * strideY - skirt[0] + topRemainder;
    padTop = std::max<Wide>(0, -start[1]) + topRemainder;
    start[1] = std::max<Wide>(start[1], 0);
    if (end[1] * strideY + skirt[2] > ifm.height * up) {
      if (up != 1 && unclampedEndHeight > ifm.height * up) {
        // Transpose convolution with VALID padding.
        padBottom = unclampedEndHeight - ifm.height * up;
      } else {
        const Wide kernelStart = start[1] - padTop;
        padBottom = std::max<Wide>(0, kernelStart + totalStride + query.dilatedKernelHeight - ifm.height * up);
      }
    }
    start[1] = std::max<Wide>(floorDivide(start[1], up), 0);
    end[1] = end[1] * strideY + skirt[2] + skirt[2] % up;
    end[1] = std::max<Wide>(std::min<Wide>(floorDivide(end[1], up), ifm.height), 1);
  }
  Coordinate narrowStart{};
  Coordinate narrowEnd{};
  for (std::size_t axis = 0; axis < 4; ++axis) {
    narrowStart[axis] = narrow(start[axis], "start");
    narrowEnd[axis] = narrow(end[axis], "end");
  }
  if (query.binaryElementwise) {
    narrowStart = wrap(narrowStart, ifm);
    Coordinate last{narrowEnd[0] - 1, narrowEnd[1] - 1, narrowEnd[2] - 1, narrowEnd[3] - 1};
    last = wrap(last, ifm);
    narrowEnd = {last[0] + 1, last[1] + 1, last[2] + 1, last[3] + 1};
  }
  IfmBox result;
  result.box = Box{narrowStart, narrowEnd};
  result.padTop = narrow(padTop, "top padding");
  result.padBottom = narrow(padBottom, "bottom padding");
  return result;
}

} // namespace ethosu::codegen
