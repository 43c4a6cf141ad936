#pragma once
// How much of an IFM-streamed cascade's OFM may be written over its first IFM (Vela 2.1
// high_level_command_stream_generator.calc_allowed_ofm_ifm_overlap_for_pass_list): the stripes are
// replayed in the order the cascade runs them, and the OFM may overwrite whatever part of the IFM
// has been read for good.

#include "npu/core/shape.hpp"
#include "npu/ir/operation.hpp"

#include <cstdint>
#include <span>

namespace npu::dp {

/// One pass of the cascade, as the stripe replay needs it.
struct StripedPass {
  Shape4 ifm; ///< the IFM the pass reads (4D, linear layout)
  Shape4 ofm;
  int ifmElementBytes = 1;
  int ofmElementBytes = 1;
  Kernel kernel;
  int paddingTop = 0;
  int upscaling = 1;   ///< IFM rows are upscaled by this factor
  int blockHeight = 1; ///< OFM rows per stripe
};

/// Bytes of the last pass's OFM that may share memory with the first pass's IFM; 0 when none may.
[[nodiscard]] std::int64_t allowedIfmOfmOverlap(std::span<const StripedPass> passes, std::int64_t ifmStorageBytes,
                                                std::int64_t ofmStorageBytes);

} // namespace npu::dp
