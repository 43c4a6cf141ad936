// SPDX-License-Identifier: Apache-2.0
#include "ifm_ofm_overlap.hpp"

#include <algorithm>
#include <limits>

namespace npu::dp {

namespace {

std::int64_t rowBytes(const Shape4& shape, int elementBytes) {
  return std::int64_t{shape.width} * shape.depth * elementBytes;
}

int stripeHeight(const StripedPass& pass) {
  return std::max(pass.blockHeight, 1);
}

/// Bytes up to the end of the first `rows` rows of a `part` at `offset` in `tensor`: the address just
/// past the last element of that box (Vela's address_offset_for_coordinate of the box's end, is_top_box).
std::int64_t boxEndBytes(const Shape4& part, const Shape4& tensor, const Shape4& offset, std::int64_t rows,
                         int elementBytes) {
  const std::int64_t lastRow = rows + offset.height - 1;
  const std::int64_t lastColumn = std::int64_t{offset.width} + part.width - 1;
  const std::int64_t elements = (lastRow * tensor.width + lastColumn) * tensor.depth + offset.depth + part.depth;
  return elements * elementBytes;
}

/// Bytes up to the end of what a pass has written once its first `rows` OFM rows exist, in the tensor
/// it writes into, so a concatenation copy counts from the start of the whole tensor to its own offset.
std::int64_t writtenBytes(const StripedPass& pass, std::int64_t rows) {
  if (pass.ofmTensor.height <= 0) {
    return rows * rowBytes(pass.ofm, pass.ofmElementBytes);
  }
  return boxEndBytes(pass.ofm, pass.ofmTensor, pass.ofmOffset, rows, pass.ofmElementBytes);
}

/// Bytes before IFM row `row` of a pass, in the tensor it reads (Vela's address_offset_for_coordinate
/// of the IFM box's start): a part read from a larger tensor starts at its offset in that tensor.
std::int64_t ifmStartBytes(const StripedPass& pass, std::int64_t row) {
  if (pass.ifmTensor.height <= 0) {
    return row * rowBytes(pass.ifm, pass.ifmElementBytes);
  }
  const Shape4& tensor = pass.ifmTensor;
  const Shape4& offset = pass.ifmOffset;
  const std::int64_t elements =
      ((row + offset.height) * tensor.width + offset.width) * std::int64_t{tensor.depth} + offset.depth;
  return elements * pass.ifmElementBytes;
}

/// Bytes up to the end of IFM rows [0, `rows`) of a pass in the tensor it reads (the IFM box's end,
/// is_top_box).
std::int64_t ifmEndBytes(const StripedPass& pass, std::int64_t rows) {
  if (pass.ifmTensor.height <= 0 || rows <= 0) {
    return rows * rowBytes(pass.ifm, pass.ifmElementBytes);
  }
  return boxEndBytes(pass.ifm, pass.ifmTensor, pass.ifmOffset, rows, pass.ifmElementBytes);
}

/// OFM rows a pass has produced after it was asked for `rows`: whole stripes, at most all rows.
std::int64_t producedRows(const StripedPass& pass, std::int64_t rows) {
  if (rows <= 0) {
    return 0;
  }
  const std::int64_t height = stripeHeight(pass);
  return std::min((rows + height - 1) / height * height, std::int64_t{pass.ofm.height});
}

/// The IFM bytes of the first pass against the OFM bytes of the last: what one check of Vela's replay
/// allows the OFM to overlap when `written` OFM bytes exist and the IFM is read up to `read`.
std::int64_t overlapAllowed(std::int64_t written, std::int64_t read, std::int64_t ofmSize) {
  return ofmSize - std::max<std::int64_t>(written - std::min(read, ofmSize), 0);
}

} // namespace

RowRange ifmRowsRead(const StripedPass& pass, std::int64_t ofmBegin, std::int64_t ofmEnd) {
  const std::int64_t stride = pass.kernel.strideY;
  const std::int64_t first = ofmBegin * stride - pass.paddingTop;
  const std::int64_t last = (ofmEnd - 1) * stride - pass.paddingTop + pass.kernel.areaHeight();
  const std::int64_t upscale = std::max(pass.upscaling, 1);
  return {std::clamp<std::int64_t>(first / upscale, 0, pass.ifm.height),
          std::clamp<std::int64_t>((last + upscale - 1) / upscale, 0, pass.ifm.height)};
}

std::vector<std::int32_t> extendFirstPassRows(std::span<const std::int32_t> producerRows, const StripedPass& producer,
                                              const StripedPass& pass) {
  std::vector<std::int32_t> rows(static_cast<std::size_t>(std::max(pass.ofm.height, 0)) + 1, 0);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    // A stripe ending at row r asks its producer for the rows it reads; the producer runs whole stripes.
    const std::int64_t produced = producedRows(producer, ifmRowsRead(pass, 0, static_cast<std::int64_t>(r)).end);
    rows[r] =
        producerRows.empty() ? static_cast<std::int32_t>(produced) : producerRows[static_cast<std::size_t>(produced)];
  }
  return rows;
}

std::int64_t allowedIfmOfmOverlap(const StripedPass& first, const StripedPass& last, bool onePass,
                                  std::span<const std::int32_t> firstPassRows, std::int64_t ifmStorageBytes,
                                  std::int64_t ofmStorageBytes) {
  const std::int64_t lastHeight = stripeHeight(last);
  const std::int64_t firstHeight = stripeHeight(first);
  std::int64_t least = std::numeric_limits<std::int64_t>::max();
  // Where the first pass has read up to; Vela starts from the whole IFM.
  std::int64_t read = ifmStorageBytes;
  std::int64_t written = 0;
  std::int64_t firstStripes = 0; // stripes the first pass has run
  for (std::int64_t begin = 0; begin < last.ofm.height; begin += lastHeight) {
    const std::int64_t end = std::min(begin + lastHeight, std::int64_t{last.ofm.height});
    if (onePass) {
      // The pass reads its stripe, writes it, and only then releases the rows it read.
      written = std::max(written, writtenBytes(last, end));
      least = std::min(
          least, overlapAllowed(written, ifmStartBytes(first, ifmRowsRead(first, begin, end).begin), ofmStorageBytes));
      continue;
    }
    // Before the last pass writes this stripe, the first pass runs the stripes the cascade needs. The
    // earliest of them releases the least, so it alone decides what those checks allow.
    const std::int64_t produced = firstPassRows[static_cast<std::size_t>(end)];
    const std::int64_t stripes = (produced + firstHeight - 1) / firstHeight;
    if (stripes > firstStripes) {
      const std::int64_t stripeBegin = firstStripes * firstHeight;
      const RowRange earliest =
          ifmRowsRead(first, stripeBegin, std::min(stripeBegin + firstHeight, std::int64_t{first.ofm.height}));
      least = std::min(least, overlapAllowed(written, ifmStartBytes(first, earliest.begin), ofmStorageBytes));
      const std::int64_t latestBegin = (stripes - 1) * firstHeight;
      read = ifmEndBytes(
          first,
          ifmRowsRead(first, latestBegin, std::min(latestBegin + firstHeight, std::int64_t{first.ofm.height})).end);
      firstStripes = stripes;
    }
    written = std::max(written, writtenBytes(last, end));
    least = std::min(least, overlapAllowed(written, read, ofmStorageBytes));
  }
  return least == std::numeric_limits<std::int64_t>::max() ? 0 : std::max<std::int64_t>(least, 0);
}

} // namespace npu::dp
