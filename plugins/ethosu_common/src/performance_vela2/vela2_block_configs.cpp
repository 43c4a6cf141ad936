// SPDX-License-Identifier: Apache-2.0
// Vela 2.1 shared_buffer_allocation.py: SharedBufferAllocation.try_block and find_suitable_block_configs,
// with the bank sizes of ArchitectureFeatures.generate_block_config.

#include "ethosu/performance_vela2/vela2_block_configs.hpp"

#include "ethosu/architecture/operation_traits.hpp"
#include "ethosu/blocks/block_config.hpp"
#include "ethosu/blocks/block_config_selector.hpp"
#include "ethosu/performance_vela2/vela2_estimates.hpp"
#include "ethosu/weights/weight_stream.hpp"

#include <algorithm>
#include <array>

namespace ethosu::vela2 {

namespace {

// SHRAMElements.ByteSizes, PreAlign and PostAlign, indexed by ShramElement.
constexpr std::array<int, kShramElementCount> kElementBytes{1, 2, 1, 2, 4, 2, 4, 5};
constexpr std::array<int, kShramElementCount> kPreAlign{1, 1, 1, 1, 1, 8, 8, 8};
constexpr std::array<int, kShramElementCount> kPostAlign{8, 8, 8, 8, 8, 1, 1, 1};
// The depths ArchitectureFeatures.generate_block_config_map knows.
constexpr std::array<int, 18> kMapDepths{4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128};
constexpr int kBankBytes = 1024;
constexpr int kReservedOutputBanks = 2;

/// Banks a block of one SHRAM element type takes, double-buffered (generate_block_config).
int banksFor(const Architecture& arch, const Block& block, ShramElement element) {
  const auto index = static_cast<std::size_t>(element);
  const std::int64_t depth =
      npu::roundUp(npu::roundUp(block.depth, kPreAlign[index]) * kElementBytes[index], kPostAlign[index]);
  const std::int64_t bytes = std::int64_t{block.height} * block.width * depth;
  const std::int64_t banks = npu::divRoundUp(bytes, kBankBytes) * 2;
  return static_cast<int>(npu::roundUp(banks, arch.variant().shramGranule(element)));
}

/// Whether Vela 2.1's block config map has an entry for the block (get_block_config is not None).
bool inBlockConfigMap(const Architecture& arch, const Block& block) {
  // The map covers the IFM block of the largest OFM block (64x32) under an 8x8 kernel.
  const npu::Shape4& microBlock = arch.variant().ofmMicroBlock;
  const auto maxHeight = npu::roundUp(31 + CommonArchitecture::kSubKernelMaxHeight, microBlock.height);
  const auto maxWidth = npu::roundUp(63 + CommonArchitecture::kSubKernelMaxWidth, microBlock.width);
  return block.height >= 1 && block.height <= maxHeight && block.width >= 1 && block.width <= maxWidth &&
         std::find(kMapDepths.begin(), kMapDepths.end(), block.depth) != kMapDepths.end();
}

/// What SharedBufferAllocation.__init__ derives from a pass.
struct Allocation {
  OperationTraits traits;
  bool elementwise = false;
  bool equalDepth = false;
  ShramElement ifmElement = ShramElement::Ifm8;
  ShramElement accumulator = ShramElement::Accumulator32;
  int ifmCount = 1;
  int ifmBlockDepth = 8;
  int availableBanks = 0;
};

Allocation allocationFor(const Architecture& arch, const npu::Subgraph& subgraph, const npu::Operation& op,
                         const npu::OperationShapes& shapes) {
  Allocation a;
  a.traits = traitsOf(subgraph, op);
  const NpuBlockType type = a.traits.blockType;
  a.elementwise = type == NpuBlockType::ElementWise;
  a.equalDepth = a.elementwise || type == NpuBlockType::ConvolutionDepthWise || type == NpuBlockType::Pooling;
  a.ifmElement = a.elementwise ? ShramElement::Ifm8Elementwise : ShramElement::Ifm8;
  const int ifmBits = npu::bitsOf(a.traits.ifmType);
  if (ifmBits == 16) {
    if (type != NpuBlockType::Pooling && a.traits.scaled) {
      a.accumulator = ShramElement::Accumulator40;
    }
    a.ifmElement = a.elementwise ? ShramElement::Ifm16Elementwise : ShramElement::Ifm16;
  } else if (ifmBits == 32) {
    a.ifmElement = ShramElement::Ifm32;
  }
  a.ifmCount = a.elementwise && shapes.ifm2 && !a.traits.usesScalar ? 2 : 1;
  const int ifmDepth = shapes.ifm.depth > 0 ? shapes.ifm.depth : (shapes.ifm2 ? shapes.ifm2->depth : 1);
  // ArchitectureFeatures.calc_ifm_block_depth.
  const auto rounded = npu::roundUp(std::max(ifmDepth, 1), arch.variant().ifmMicroBlock.depth);
  a.ifmBlockDepth = static_cast<int>(std::min<std::int64_t>(rounded, 8 * 32 / std::max(ifmBits, 8)));
  a.availableBanks = arch.availableShramBanks(a.traits.usesLookupTable);
  return a;
}

} // namespace

std::vector<npu::BlockConfig> blockConfigCandidates(const Architecture& arch, const npu::Subgraph& subgraph,
                                                    const npu::Operation& op, const npu::OperationShapes& opShapes) {
  // The operands as Vela 2.1 sees them, as its costs do: a concatenation's copy's blocks may span all
  // of the output's depth, a part's reader's IFM block depth follows the whole tensor's depth.
  npu::OperationShapes shapes = opShapes;
  operandShapesVela21(subgraph, op, shapes.ifm, shapes.ifm2 ? &*shapes.ifm2 : nullptr, shapes.ofm);
  const Allocation a = allocationFor(arch, subgraph, op, shapes);
  // Vela 2.1's rules know only the operations it lowered itself; a block must also be one the hardware
  // (and so code generation) can run for this operation, e.g. a REDUCE_SUM of 3.10's SOFTMAX keeps the
  // whole IFM depth in its IFM block, and a transpose convolution's upscaled IFM block is larger. The
  // check uses the weight traversal the weights are encoded with (weight_preparation's choice).
  const BlockSearchQuery hardware = blockSearchQueryFor(a.traits, opShapes);
  const bool pointwiseOverOnePixel =
      opShapes.ifm.height == 1 && opShapes.ifm.width == 1 && a.traits.kernel.width == 1 && a.traits.kernel.height == 1;
  const bool partKernel =
      a.traits.blockType == NpuBlockType::ConvolutionMxN && !pointwiseOverOnePixel &&
      weights::chooseConvolutionTraversal(a.traits.kernel.height, a.traits.kernel.width, opShapes.ifm.depth,
                                          npu::bitsOf(a.traits.ifmType)) == weights::WeightTraversal::PartKernelFirst;
  const npu::Shape4& microBlock = arch.variant().ofmMicroBlock;
  const npu::Shape4& maxBlock = CommonArchitecture::kOfmBlockMax;
  const int maxWidth = std::min(maxBlock.width, shapes.ofm.width);
  const int maxHeight = std::min(maxBlock.height, shapes.ofm.height);
  const int maxDepth = std::min(maxBlock.depth, shapes.ofm.depth);
  // Vela 2.1's allocation upscales the IFM as its tensor is marked (by any upscaling reader); the
  // hardware check above keeps the operation's own resampling.
  const npu::Resampling resampling = ifmResampling(subgraph, op);
  const bool resampled = resampling != npu::Resampling::None;
  const int minHeight = std::max(microBlock.height, resampled ? 2 : 1);
  const int minWidth = std::max(microBlock.width, resampled ? 2 : 1);

  std::vector<npu::BlockConfig> configs;
  for (int width = minWidth; width < maxWidth + minWidth; width += minWidth) {
    for (int height = minHeight; height < maxHeight + minHeight; height += minHeight) {
      for (int depth = microBlock.depth; depth < maxDepth + microBlock.depth; depth += microBlock.depth) {
        // A block that splits the OFM depth must be a multiple of the split depth.
        if (depth < maxDepth && depth % CommonArchitecture::kOfmSplitDepth != 0) {
          continue;
        }
        const Block ofmBlock{width, height, depth};
        const Block ifmBlock =
            ifmBlockSize(arch, a.equalDepth ? depth : a.ifmBlockDepth, ofmBlock, a.traits.kernel, resampling);
        if (!inBlockConfigMap(arch, ifmBlock) || !inBlockConfigMap(arch, ofmBlock)) {
          continue;
        }
        const int ifmBanks = banksFor(arch, ifmBlock, a.ifmElement) * a.ifmCount;
        const int accumulatorBanks = a.elementwise ? 0 : banksFor(arch, ofmBlock, a.accumulator);
        if (kReservedOutputBanks + ifmBanks > a.availableBanks - accumulatorBanks) {
          continue;
        }
        if (!tryHardwareBlockConfig(arch, hardware, npu::Shape4{1, height, width, depth}, partKernel)) {
          continue;
        }
        npu::BlockConfig config;
        config.ofmBlock = npu::Shape4{1, height, width, depth};
        config.ifmBlock = npu::Shape4{1, ifmBlock.height, ifmBlock.width, ifmBlock.depth};
        config.accumulatorBits = a.accumulator == ShramElement::Accumulator40 ? 40 : 32;
        configs.push_back(config);
      }
    }
  }
  return configs;
}

} // namespace ethosu::vela2
