// SPDX-License-Identifier: Apache-2.0
#include "ethosu/blocks/block_config.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

namespace ethosu {

using npu::Shape4;

namespace {

int upscaleOf(npu::Resampling resampling) {
  return resampling == npu::Resampling::None ? 1 : 2;
}
int nearestOf(npu::Resampling resampling) {
  return resampling == npu::Resampling::Nearest ? 1 : 0;
}

// architecture_allocator._required_size: input rows/columns behind `value` outputs.
int requiredSize(int value, int stride, int border, int upscale, int nearest) {
  return static_cast<int>(npu::divRoundUp(std::int64_t{value - 1} * stride + border + nearest, upscale));
}

ElementwiseUsage elementwiseUsageOf(NpuBlockType blockType, bool usesScalar) {
  if (blockType != NpuBlockType::ElementWise) {
    return ElementwiseUsage::No;
  }
  return usesScalar ? ElementwiseUsage::Scalar : ElementwiseUsage::Full;
}

// architecture_allocator._get_ifm_blocksize: rounded to the OFM micro-block, as Vela does.
Shape4 ifmBlockFor(const Architecture& arch, const Shape4& ofmBlock, const npu::Kernel& kernel,
                   npu::Resampling resampling) {
  const Shape4& microBlock = arch.variant().ofmMicroBlock;
  const int upscale = upscaleOf(resampling);
  const int nearest = nearestOf(resampling);
  const int height =
      requiredSize(ofmBlock.height, kernel.strideY,
                   std::min(kernel.areaHeight(), CommonArchitecture::kSubKernelMaxHeight), upscale, nearest);
  const int width =
      requiredSize(ofmBlock.width, kernel.strideX, std::min(kernel.areaWidth(), CommonArchitecture::kSubKernelMaxWidth),
                   upscale, nearest);
  return {1, static_cast<int>(npu::roundUp(height, microBlock.height)),
          static_cast<int>(npu::roundUp(width, microBlock.width)), ofmBlock.depth};
}

// architecture_allocator._ifm_blockdepth.
int ifmBlockDepthFor(const Architecture& arch, const Shape4& ifm, int ifmBits, bool partKernel) {
  if (ifmBits == 16) {
    return static_cast<int>(npu::roundUp(std::min(ifm.depth, 16), 4));
  }
  return static_cast<int>(npu::roundUp(std::min(ifm.depth, partKernel ? 16 : 32), arch.variant().ifmMicroBlock.depth));
}

// architecture_allocator.fit_block_for_ofm: the Conv1D optimisation of the 256/512-MAC variants.
Shape4 fitBlockForOfm(const Architecture& arch, const Shape4& ofm, const npu::Kernel& kernel, const Shape4& block) {
  if (ofm.height == 1 && kernel.height == 1 && arch.variant().ofmMicroBlock.height == 2) {
    return {1, std::min(block.height, ofm.height), block.width, block.depth};
  }
  return block;
}

/// The settings shared by the search and by checking a single block (the prologue of both functions).
struct SearchSettings {
  Shape4 ifm; ///< the larger of the two inputs
  ElementwiseUsage elementwise = ElementwiseUsage::No;
  bool isDepthwise = false;
  bool isEqualDepth = false; ///< the IFM block is as deep as the OFM block
  bool isConvolution = false;
  ShramElement accumulator = ShramElement::Accumulator32;
  int accumulatorGranule = 0;
  int ifmGranule = 0;
  int lutBanks = 0;
};

SearchSettings settingsFor(const Architecture& arch, const BlockSearchQuery& query) {
  SearchSettings settings;
  settings.ifm = query.ifm;
  // Elementwise larger-volume correction.
  if (query.ifm2 && query.ifm2->elements() > query.ifm.elements()) {
    settings.ifm = *query.ifm2;
  }
  settings.elementwise = elementwiseUsageOf(query.blockType, query.usesScalar);
  const bool isPooling = query.blockType == NpuBlockType::Pooling;
  settings.isDepthwise = query.blockType == NpuBlockType::ConvolutionDepthWise;
  settings.isEqualDepth = settings.elementwise != ElementwiseUsage::No || isPooling || settings.isDepthwise;
  settings.isConvolution = query.blockType == NpuBlockType::ConvolutionMxN || settings.isDepthwise;
  settings.accumulator = accumulatorFor(query.blockType, query.ifmBits, query.scaled);
  settings.accumulatorGranule = arch.accumulatorGranule(settings.accumulator);
  settings.ifmGranule = arch.ifmGranule(query.ifmBits, settings.elementwise != ElementwiseUsage::No);
  settings.lutBanks = std::max(query.lutBanks, arch.shramReservedEndBanks());
  return settings;
}

// architecture_allocator._try_block_config: bank boundaries of IFM (and IFM2) buffers and accumulators,
// double buffered, below the LUT; nullopt when they overlap.
std::optional<ShramLayout> layoutFor(const Architecture& arch, const SearchSettings& settings, const Shape4& ofmBlock,
                                     const Shape4& ifmBlock, int ifmBits) {
  constexpr int kBankBytes = CommonArchitecture::kShramBankBytes;
  const std::int64_t ifmBytes = ifmBlock.elementsWH() * npu::roundUp(std::int64_t{ifmBlock.depth} * ifmBits / 8, 8);
  const int ifmBanks = static_cast<int>(npu::roundUp(npu::divRoundUp(ifmBytes, kBankBytes) * 2, settings.ifmGranule));

  const int lutStart = arch.variant().shramBanks - settings.lutBanks;
  int ifmEnd = CommonArchitecture::kShramReservedOutputBanks + ifmBanks;
  const int ifm2Start = ifmEnd;
  int accumulatorStart = lutStart;
  if (settings.elementwise == ElementwiseUsage::No) {
    const std::int64_t accumulatorBytes =
        ofmBlock.elementsWH() * npu::roundUp(ofmBlock.depth, 8) * accumulatorBits(settings.accumulator) / 8;
    const int accumulatorBanks =
        static_cast<int>(npu::roundUp(npu::divRoundUp(accumulatorBytes, kBankBytes) * 2, settings.accumulatorGranule));
    accumulatorStart -= accumulatorBanks;
  } else {
    const int ifm2Banks = settings.elementwise == ElementwiseUsage::Full ? ifmBanks : 0;
    if (ifm2Start + ifm2Banks > accumulatorStart) {
      return std::nullopt;
    }
    ifmEnd = accumulatorStart;
  }
  if (ifmEnd > accumulatorStart) {
    return std::nullopt;
  }
  return ShramLayout{CommonArchitecture::kShramReservedOutputBanks, ifmEnd, ifm2Start, accumulatorStart, lutStart};
}

/// The OFM blocks both searches walk: depth, then height, then width, in micro-block steps.
Shape4 searchSpaceFor(const Architecture& arch, const Shape4& ofm) {
  const Shape4 limited = npu::elementwiseMin(ofm, CommonArchitecture::kOfmBlockMax);
  return npu::roundUp(limited, arch.variant().ofmMicroBlock);
}

int firstSearchDepth(const Architecture& arch, const Shape4& ofm, const Shape4& space) {
  int depth = std::max(arch.variant().ofmMicroBlock.depth, std::min(space.depth, CommonArchitecture::kOfmSplitDepth));
  if (depth < ofm.depth) {
    depth = static_cast<int>(npu::roundUp(depth, CommonArchitecture::kOfmSplitDepth));
  }
  return depth;
}

int nextSearchDepth(const Architecture& arch, const Shape4& ofm, int depth) {
  depth += arch.variant().ofmMicroBlock.depth;
  if (depth < ofm.depth) {
    depth = static_cast<int>(npu::roundUp(depth, CommonArchitecture::kOfmSplitDepth));
  }
  return depth;
}

} // namespace

int accumulatorBits(ShramElement accumulator) {
  switch (accumulator) {
  case ShramElement::Accumulator16:
    return 16;
  case ShramElement::Accumulator40:
    return 40;
  default:
    return 32;
  }
}

npu::BlockConfig toBlockConfig(const ArchitectureBlockConfig& config) {
  npu::BlockConfig block;
  block.ofmBlock = config.ofmBlock;
  block.ifmBlock = config.ifmBlock;
  block.partKernelFirst = config.partKernel;
  block.accumulatorBits = accumulatorBits(config.accumulator);
  block.detail = {config.layout.ifmStart,         config.layout.ifmEnd,   config.layout.ifm2Start,
                  config.layout.accumulatorStart, config.layout.lutStart, 0};
  return block;
}

ArchitectureBlockConfig fromBlockConfig(const npu::BlockConfig& block) {
  ArchitectureBlockConfig config;
  config.ofmBlock = block.ofmBlock;
  config.ifmBlock = block.ifmBlock;
  config.partKernel = block.partKernelFirst;
  config.accumulator = block.accumulatorBits == 40   ? ShramElement::Accumulator40
                       : block.accumulatorBits == 16 ? ShramElement::Accumulator16
                                                     : ShramElement::Accumulator32;
  config.layout = {block.detail[0], block.detail[1], block.detail[2], block.detail[3], block.detail[4]};
  return config;
}

bool choosePartKernel(const Shape4& ifm, int ifmBits, const npu::Kernel& kernel) {
  if (ifm.depth <= 8) {
    return true;
  }
  // Compare the utilisation of both weight traversals; part-kernel-first wins only when better.
  const std::int64_t kernelElements = kernel.elementsWH();
  const double depthUtilisation =
      static_cast<double>(ifm.depth) / static_cast<double>(npu::roundUp(ifm.depth, ifmBits == 8 ? 32 : 16));
  const double partUtilisation =
      static_cast<double>(ifm.depth * kernelElements) /
      static_cast<double>(npu::roundUp(ifm.depth, 8) * npu::roundUp(kernelElements, ifmBits == 8 ? 4 : 2));
  return partUtilisation > depthUtilisation;
}

ShramElement accumulatorFor(NpuBlockType blockType, int ifmBits, bool scaled) {
  if (ifmBits == 16 && blockType != NpuBlockType::Pooling && scaled) {
    return ShramElement::Accumulator40;
  }
  return ShramElement::Accumulator32;
}

Shape4 ifmAreaRequired(const Shape4& ofm, const npu::Kernel& kernel, npu::Resampling resampling) {
  const int upscale = upscaleOf(resampling);
  const int nearest = nearestOf(resampling);
  return {1, requiredSize(ofm.height, kernel.strideY, kernel.areaHeight(), upscale, nearest),
          requiredSize(ofm.width, kernel.strideX, kernel.areaWidth(), upscale, nearest), 1};
}

std::optional<ArchitectureBlockConfig> findBlockConfig(const Architecture& arch, const BlockSearchQuery& query) {
  const SearchSettings settings = settingsFor(arch, query);
  const Shape4& ifm = settings.ifm;
  const Shape4& ofm = query.ofm;
  const npu::Kernel& kernel = query.kernel;
  const Shape4& microBlock = arch.variant().ofmMicroBlock;
  const bool partKernel = settings.isConvolution && choosePartKernel(ifm, query.ifmBits, kernel);
  const int ifmRepeats =
      static_cast<int>(npu::divRoundUp(kernel.areaWidth(), CommonArchitecture::kSubKernelMaxWidth) *
                       npu::divRoundUp(kernel.areaHeight(), CommonArchitecture::kSubKernelMaxHeight));
  const int ifmBlockDepth = ifmBlockDepthFor(arch, ifm, query.ifmBits, partKernel);
  const std::int64_t weightFetchWH =
      settings.isConvolution ? std::int64_t{kernel.areaWidth()} * kernel.areaHeight() : 0;
  const Shape4 space = searchSpaceFor(arch, ofm);

  // Vela 3.10 architecture_allocator.find_block_config: the cheapest block by IFM and weight fetches per
  // OFM element; among equal costs, small (<= 4x4) blocks covering more of the IFM.
  std::optional<ArchitectureBlockConfig> best;
  double bestCost = std::numeric_limits<double>::infinity();
  double bestCoverage = std::numeric_limits<double>::infinity();
  for (int depth = firstSearchDepth(arch, ofm, space); depth <= space.depth;
       depth = nextSearchDepth(arch, ofm, depth)) {
    // Blocks known not to fit, keyed (width, height) as Vela records them: the walk skips the
    // transposed block of one that did not fit.
    std::set<std::pair<int, int>> wontFit;
    for (int height = microBlock.height; height <= space.height; height += microBlock.height) {
      for (int width = microBlock.width; width <= space.width; width += microBlock.width) {
        if (wontFit.contains({height, width})) {
          continue;
        }
        const Shape4 candidate{1, height, width, depth};
        Shape4 ifmBlock = ifmBlockFor(arch, candidate, kernel, query.resampling);
        if (!settings.isEqualDepth) {
          ifmBlock = ifmBlock.withDepth(ifmBlockDepth);
        }
        const Shape4 ofmBlock = fitBlockForOfm(arch, ofm, kernel, candidate);
        const auto layout = layoutFor(arch, settings, ofmBlock, ifmBlock, query.ifmBits);
        if (!layout) {
          wontFit.insert({width, height});
          continue;
        }
        const Shape4 fullBlocks = npu::divRoundUp(ofm, ofmBlock);
        const double blocksHeight = static_cast<double>(ofm.height) / ofmBlock.height;
        const double blocksWidth = static_cast<double>(ofm.width) / ofmBlock.width;
        const double blocksDepth = static_cast<double>(ofm.depth) / ofmBlock.depth;

        double weightFetch = static_cast<double>(weightFetchWH * ifm.depth * fullBlocks.elementsWH());
        if (!settings.isDepthwise) {
          weightFetch *= ofmBlock.depth * blocksDepth;
        }
        double ifmFetch =
            static_cast<double>(ifmBlock.elementsWH() * ifm.depth * ifmRepeats) * (blocksWidth * blocksHeight);
        if (!settings.isEqualDepth) {
          ifmFetch *= fullBlocks.depth;
        }
        double cost = 0.0;
        if (query.blockType == NpuBlockType::ElementWise) {
          cost = std::max(static_cast<double>(ofm.elements()) / static_cast<double>(candidate.elements()), 1.0);
        } else {
          cost = (ifmFetch + weightFetch) / static_cast<double>(ofm.elements());
        }
        // The whole IFM fits in both buffers: prefer this block.
        if (ifm.elements() < ifmBlock.elements() * 2) {
          cost = cost / 2;
        }
        if (cost > bestCost) {
          continue;
        }
        if (cost == bestCost) {
          const Shape4 covered = npu::elementwiseMin(ifm, ifmBlock);
          const double coverage = static_cast<double>(ifm.elementsWH()) / static_cast<double>(covered.elementsWH());
          if (!(coverage <= bestCoverage && height <= 4 && width <= 4)) {
            continue;
          }
          bestCoverage = coverage;
        } else {
          bestCoverage = std::numeric_limits<double>::infinity();
        }
        bestCost = cost;
        best = ArchitectureBlockConfig{candidate, ifmBlock, *layout, settings.accumulator, partKernel};
      }
    }
  }
  return best;
}

std::optional<ArchitectureBlockConfig> tryBlockConfig(const Architecture& arch, const BlockSearchQuery& query,
                                                      const Shape4& ofmBlock, bool partKernel) {
  const Shape4& microBlock = arch.variant().ofmMicroBlock;
  const Shape4& blockMax = CommonArchitecture::kOfmBlockMax;
  for (int axis = 1; axis < 4; ++axis) {
    if (ofmBlock[axis] <= 0 || ofmBlock[axis] > blockMax[axis] || ofmBlock[axis] % microBlock[axis] != 0) {
      return std::nullopt;
    }
  }
  const SearchSettings settings = settingsFor(arch, query);
  Shape4 ifmBlock = ifmBlockFor(arch, ofmBlock, query.kernel, query.resampling);
  if (!settings.isEqualDepth) {
    ifmBlock = ifmBlock.withDepth(ifmBlockDepthFor(arch, settings.ifm, query.ifmBits, partKernel));
  }
  const Shape4 fitted = fitBlockForOfm(arch, query.ofm, query.kernel, ofmBlock);
  const auto layout = layoutFor(arch, settings, fitted, ifmBlock, query.ifmBits);
  if (!layout) {
    return std::nullopt;
  }
  return ArchitectureBlockConfig{ofmBlock.withBatch(1), ifmBlock, *layout, settings.accumulator, partKernel};
}

std::optional<ArchitectureBlockConfig> tryHardwareBlockConfig(const Architecture& arch, const BlockSearchQuery& query,
                                                              const Shape4& ofmBlock, bool partKernel) {
  if (auto config = tryBlockConfig(arch, query, ofmBlock, partKernel)) {
    return config;
  }
  if (query.blockType != NpuBlockType::ElementWise || query.ifm2 || query.usesScalar) {
    return std::nullopt;
  }
  // One input: the IFM may take the banks a second input would have had (the layout of a scalar operand).
  BlockSearchQuery unary = query;
  unary.usesScalar = true;
  return tryBlockConfig(arch, unary, ofmBlock, partKernel);
}

std::vector<ArchitectureBlockConfig> allBlockConfigs(const Architecture& arch, const BlockSearchQuery& query) {
  const SearchSettings settings = settingsFor(arch, query);
  const bool partKernel = settings.isConvolution && choosePartKernel(settings.ifm, query.ifmBits, query.kernel);
  const Shape4& microBlock = arch.variant().ofmMicroBlock;
  const Shape4 space = searchSpaceFor(arch, query.ofm);
  std::vector<ArchitectureBlockConfig> configs;
  for (int depth = firstSearchDepth(arch, query.ofm, space); depth <= space.depth;
       depth = nextSearchDepth(arch, query.ofm, depth)) {
    for (int height = microBlock.height; height <= space.height; height += microBlock.height) {
      for (int width = microBlock.width; width <= space.width; width += microBlock.width) {
        if (auto config = tryBlockConfig(arch, query, {1, height, width, depth}, partKernel)) {
          configs.push_back(*config);
        }
      }
    }
  }
  return configs;
}

} // namespace ethosu
