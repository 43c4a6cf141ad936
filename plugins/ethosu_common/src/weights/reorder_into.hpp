// SPDX-License-Identifier: Apache-2.0
#pragma once

// The weight stream layout reorders one core's share of a depth slice at a time, straight from the
// prepared volume into a per-thread buffer.

#include "ethosu/weights/weight_reorder.hpp"
#include "large_buffer.hpp"

namespace ethosu::weights::detail {

/// Which OFM channels of a volume one core reads: first, first + step, ... (`count` of them).
struct OfmSelection {
  int first = 0;
  int count = 0;
  int step = 1;
};

/// reorderWeights of the selected OFM channels only, written into `out` (replacing its contents; its
/// capacity is reused, so an encoder that reorders many slices allocates once).
void reorderWeightsInto(const WeightVolume& weights, OfmSelection channels, const ReorderParameters& parameters,
                        LargeVector<std::int16_t>& out);

} // namespace ethosu::weights::detail
