// SPDX-License-Identifier: Apache-2.0
#pragma once

// Block configs of the Ethos-U: the OFM block the hardware produces at a time, the IFM block it needs,
// and how both fit the shared buffer (SHRAM). Vela 3.10 architecture_allocator.py.

#include "ethosu/architecture/architecture.hpp"
#include "ethosu/architecture/npu_block_type.hpp"

#include "npu/ir/operation.hpp"
#include "npu/plugin/accelerator.hpp"

#include <array>
#include <optional>
#include <vector>

namespace ethosu {

/// How an elementwise operation divides SHRAM between its inputs.
enum class ElementwiseUsage : std::uint8_t { No, Full, Scalar };

/// SHRAM bank boundaries of a block config (Vela's SHRAMLayout).
struct ShramLayout {
  int ifmStart = 0;
  int ifmEnd = 0;
  int ifm2Start = 0;
  int accumulatorStart = 0;
  int lutStart = 0;
  friend bool operator==(const ShramLayout&, const ShramLayout&) = default;
};

/// Vela's ArchitectureBlockConfig.
struct ArchitectureBlockConfig {
  npu::Shape4 ofmBlock;
  npu::Shape4 ifmBlock;
  ShramLayout layout;
  ShramElement accumulator = ShramElement::Accumulator32;
  bool partKernel = false;

  /// [ofm height, ofm width, ifm depth, ofm depth], as Vela prints "Block Config".
  [[nodiscard]] std::array<int, 4> velaNotation() const {
    return {ofmBlock.height, ofmBlock.width, ifmBlock.depth, ofmBlock.depth};
  }
  friend bool operator==(const ArchitectureBlockConfig&, const ArchitectureBlockConfig&) = default;
};

[[nodiscard]] int accumulatorBits(ShramElement accumulator);
/// The framework's BlockConfig carries the SHRAM layout in `detail`:
/// {ifmStart, ifmEnd, ifm2Start, accumulatorStart, lutStart, 0}.
[[nodiscard]] npu::BlockConfig toBlockConfig(const ArchitectureBlockConfig& config);
[[nodiscard]] ArchitectureBlockConfig fromBlockConfig(const npu::BlockConfig& config);

/// Everything the block config search needs to know about an operation (find_block_config's arguments).
struct BlockSearchQuery {
  NpuBlockType blockType = NpuBlockType::Default;
  npu::Shape4 ofm;
  npu::Shape4 ifm;
  std::optional<npu::Shape4> ifm2;
  bool usesScalar = false; ///< a binary elementwise operation with a scalar operand
  int ifmBits = 8;
  npu::Kernel kernel;
  int lutBanks = 0;   ///< SHRAM banks taken by a lookup table (2 with a LUT activation)
  bool scaled = true; ///< every feature map is quantised (Vela's Operation.has_scaling)
  npu::Resampling resampling = npu::Resampling::None;
  friend bool operator==(const BlockSearchQuery&, const BlockSearchQuery&) = default;
};

/// Vela's find_block_config: the best-scoring block config, or nullopt when none fits SHRAM.
[[nodiscard]] std::optional<ArchitectureBlockConfig> findBlockConfig(const Architecture& arch,
                                                                     const BlockSearchQuery& query);
/// Vela's try_block_config: `ofmBlock` as a block config, or nullopt when invalid or it does not fit.
[[nodiscard]] std::optional<ArchitectureBlockConfig>
tryBlockConfig(const Architecture& arch, const BlockSearchQuery& query, const npu::Shape4& ofmBlock, bool partKernel);
/// A SHRAM layout the hardware accepts for `ofmBlock`: Vela 3.10's (tryBlockConfig) or, for an elementwise
/// operation without a second feature map, one without IFM2 banks. Vela 3.10 reserves IFM2 banks for
/// unary operations too, which the hardware never reads (Vela 2.1 did not), so a block another
/// scheduler chose may only fit without them. Code generation encodes every block this accepts.
[[nodiscard]] std::optional<ArchitectureBlockConfig> tryHardwareBlockConfig(const Architecture& arch,
                                                                            const BlockSearchQuery& query,
                                                                            const npu::Shape4& ofmBlock,
                                                                            bool partKernel);
/// Every block config that fits, over the OFM blocks findBlockConfig considers, in its order (depth,
/// then height, then width), with the kernel traversal findBlockConfig would pick.
[[nodiscard]] std::vector<ArchitectureBlockConfig> allBlockConfigs(const Architecture& arch,
                                                                   const BlockSearchQuery& query);

/// Whether a convolution reads its weights part-kernel-first (Vela's _choose_kernel_method).
[[nodiscard]] bool choosePartKernel(const npu::Shape4& ifm, int ifmBits, const npu::Kernel& kernel);
/// Accumulator type of an operation (Vela's _acc_type).
[[nodiscard]] ShramElement accumulatorFor(NpuBlockType blockType, int ifmBits, bool scaled);

/// IFM area (height, width in a Shape4 with batch and depth 1) needed to produce `ofm`
/// (architecture_allocator.get_ifm_area_required).
[[nodiscard]] npu::Shape4 ifmAreaRequired(const npu::Shape4& ofm, const npu::Kernel& kernel,
                                          npu::Resampling resampling);

} // namespace ethosu
