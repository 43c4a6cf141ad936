// SPDX-License-Identifier: Apache-2.0
#pragma once
// How much of an IFM-streamed cascade's OFM may be written over its first IFM (Vela 2.1
// high_level_command_stream_generator.calc_allowed_ofm_ifm_overlap_for_pass_list): the stripes run
// in the order the cascade runs them, and the OFM may overwrite whatever part of the IFM has been read
// for good.
//
// Vela replays every stripe of every pass of the cascade, which costs the cascade's length for every
// candidate the search weighs. The replay is demand-driven, so how far the first pass has got when the
// last pass has produced r rows is a composition of one step per pass (the rows a pass reads for r
// output rows, rounded up to whole stripes of its producer). The search keeps that composition per
// cascade step (`extendFirstPassRows`) and needs only the stripes of the first and last pass
// (`allowedIfmOfmOverlap`), whatever the cascade's length.

#include "npu/core/shape.hpp"
#include "npu/ir/operation.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace npu::dp {

/// One pass of the cascade, as the stripe order needs it.
struct StripedPass {
  Shape4 ifm; ///< the IFM the pass reads (4D, linear layout)
  Shape4 ofm;
  /// The tensor the OFM is written into and where (a concatenation copy writes a part of it); a zero
  /// height means the OFM itself at the origin.
  Shape4 ofmTensor{0, 0, 0, 0};
  Shape4 ofmOffset{0, 0, 0, 0};
  /// The tensor the IFM is read from and where (a SPLIT or STRIDED_SLICE part reads a box of it); a zero
  /// height means the IFM itself at the origin.
  Shape4 ifmTensor{0, 0, 0, 0};
  Shape4 ifmOffset{0, 0, 0, 0};
  int ifmElementBytes = 1;
  int ofmElementBytes = 1;
  Kernel kernel;
  int paddingTop = 0;
  int upscaling = 1;   ///< IFM rows are upscaled by this factor
  int blockHeight = 1; ///< OFM rows per stripe
};

/// IFM rows [begin, end) a stripe of OFM rows [ofmBegin, ofmEnd) reads (Vela's
/// Box.transform_with_strides_and_skirt, rows only).
struct RowRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
[[nodiscard]] RowRange ifmRowsRead(const StripedPass& pass, std::int64_t ofmBegin, std::int64_t ofmEnd);

/// The first pass's OFM rows produced once `pass` has produced r OFM rows, for r from 0 to its OFM
/// height; `producer` is the pass before it and `producerRows` that table for the producer (empty when
/// the producer is the first pass).
[[nodiscard]] std::vector<std::int32_t> extendFirstPassRows(std::span<const std::int32_t> producerRows,
                                                            const StripedPass& producer, const StripedPass& pass);

/// Bytes of the last pass's OFM that may share memory with the first pass's IFM; 0 when none may.
/// `firstPassRows` is the table of the last pass (ignored when the cascade has one pass).
[[nodiscard]] std::int64_t allowedIfmOfmOverlap(const StripedPass& first, const StripedPass& last, bool onePass,
                                                std::span<const std::int32_t> firstPassRows,
                                                std::int64_t ifmStorageBytes, std::int64_t ofmStorageBytes);

} // namespace npu::dp
