// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Acme NPU: a made-up accelerator with a simple but real roofline cost model. Its variants are
// constant data, as every accelerator description should be.
#include <npu/core/shape.hpp>

#include <array>
#include <string_view>

namespace acme {

struct Variant {
  std::string_view name;
  std::string_view displayName;
  int macsPerCycle;
  double sramBytesPerCycle;  ///< on-chip SRAM bandwidth
  double flashBytesPerCycle; ///< external flash bandwidth, in core cycles
  int sramLatency;
  int flashLatency;
  std::int64_t sramBytes;    ///< default arena (fast storage) size
};

inline constexpr std::array kVariants{
    Variant{"acme-n1", "Acme_N1", 64, 8.0, 0.5, 16, 80, 256 * 1024},
    Variant{"acme-n2", "Acme_N2", 256, 16.0, 1.0, 16, 80, 512 * 1024},
};

/// Output blocks the hardware supports (height, width, depth); the block is clamped to the output.
inline constexpr std::array kOfmBlocks{npu::Shape4{1, 16, 16, 16}, npu::Shape4{1, 8, 8, 32},
                                       npu::Shape4{1, 4, 4, 64}, npu::Shape4{1, 1, 1, 256}};

inline constexpr int kMaxKernel = 7;
inline constexpr int kMaxStride = 2;
inline constexpr double kCyclesPerBlock = 24.0;    ///< fixed cost of starting an output block
inline constexpr int kElementwisePerCycle = 16;    ///< elementwise and pooling lanes
inline constexpr std::int64_t kWeightAlignment = 16;
inline constexpr std::int64_t kBytesPerChannel = 8; ///< bias and requantisation parameters

} // namespace acme
