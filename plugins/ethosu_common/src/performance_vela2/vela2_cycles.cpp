// SPDX-License-Identifier: Apache-2.0
// Compute cycles of the 2020 model: convolution/pooling blocks, output stage, command overhead and
// the burst efficiency of feature map transfers (Vela 2.1 npu_performance.py).

#include "ethosu/performance_vela2/vela2_estimates.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <vector>

namespace ethosu::vela2 {

namespace {

constexpr int kSubKernelLimit = 8;

bool isConvolutionLike(NpuBlockType type) {
  return type == NpuBlockType::ConvolutionMxN || type == NpuBlockType::VectorProduct || type == NpuBlockType::ReduceSum;
}

/// Sub-kernel limits per block type (ArchitectureFeatures.sub_kernel_limits).
std::pair<int, int> subKernelLimits(NpuBlockType type) {
  if (type == NpuBlockType::VectorProduct || type == NpuBlockType::ElementWise) {
    return {1, 1};
  }
  return {kSubKernelLimit, kSubKernelLimit};
}

/// Element counts of every sub-kernel a kernel of `height` x `width` is split into.
std::vector<int> subKernelElements(int height, int width, NpuBlockType type) {
  const auto [limitY, limitX] = subKernelLimits(type);
  std::vector<int> elements;
  for (int y = 0; y < height; y += limitY) {
    for (int x = 0; x < width; x += limitX) {
      elements.push_back(std::min(height - y, limitY) * std::min(width - x, limitX));
    }
  }
  return elements;
}

/// Cycles to move one block of `block` elements to or from a memory (get_minimal_cmd_cycles' parts):
/// Vela measures a block-shaped tensor of unknown format, i.e. its plain bytes without burst effects.
double blockTransferCycles(const Architecture& arch, npu::MemoryArea area, int elementBytes, const Block& block) {
  const double bytes = static_cast<double>(block.height) * block.width * block.depth * elementBytes;
  return bytes / arch.bandwidthPerCycle(area);
}

/// npu_performance.get_minimal_cmd_cycles.
double minimalCommandCycles(const Architecture& arch, const PassQuery& query, const Block& ifmBlock,
                            const Block& ofmBlock, double computeCycles, double outputCycles) {
  const double ifmCycles = blockTransferCycles(arch, query.ifm.area, npu::bytesOf(query.ifm.type), ifmBlock);
  const npu::MemoryArea ofmArea = query.commandOfmArea.value_or(query.ofm.area);
  const double ofmCycles =
      blockTransferCycles(arch, ofmArea, npu::bytesOf(query.commandOfmType.value_or(query.ofm.type)), ofmBlock);
  return (arch.readLatency(query.ifm.area) + ifmCycles + computeCycles + outputCycles + arch.writeLatency(ofmArea) +
          ofmCycles) /
         4.0;
}

/// Row of the output cycles table (estimate_output_cycles' output_perf_index).
int outputPerformanceIndex(const PassQuery& query, bool accumulator40) {
  const NpuBlockType block = query.traits.blockType;
  const npu::OpType type = query.traits.type;
  if (block == NpuBlockType::ElementWise && query.ifm.type == npu::DataType::Int32) {
    return query.ifm2 ? 1 : 0;
  }
  if (type == npu::OpType::Mul && query.ofm.type == npu::DataType::Int32) {
    return 2;
  }
  if (type == npu::OpType::Mul || (usesAccumulators(block) && accumulator40)) {
    return 3;
  }
  if (type == npu::OpType::Add || type == npu::OpType::Sub) {
    return query.advancedAddSub ? 5 : 4;
  }
  if (npu::isMaxPool(type)) {
    return 6;
  }
  return 7;
}

int activationPerformanceIndex(const PassQuery& query) {
  if (!query.traits.activation) {
    return 2;
  }
  switch (*query.traits.activation) {
  case npu::OpType::Sigmoid:
  case npu::OpType::Tanh:
  case npu::OpType::LUT:
    return 0;
  case npu::OpType::Relu:
  case npu::OpType::Relu6:
  case npu::OpType::ReluN1To1:
    return 1;
  default:
    return 2;
  }
}

} // namespace

int ifmBlockDepth(NpuBlockType blockType, int ifmDepth, int ifmBits, BlockTraversal traversal, int ofmBlockDepth) {
  int depth = ofmBlockDepth;
  if (isConvolutionLike(blockType)) {
    if (ifmBits == 16 || traversal == BlockTraversal::PartKernelFirst) {
      depth = 16;
    } else if (ifmBits == 8) {
      depth = 32;
    } else {
      depth = 8;
    }
  }
  return std::min(ifmDepth, depth);
}

Block ifmBlockSize(const Architecture& arch, int ifmBlockDepth, const Block& ofmBlock, const npu::Kernel& kernel,
                   npu::Resampling resampling) {
  const int upscaling = resampling == npu::Resampling::None ? 1 : 2;
  const npu::Shape4& microBlock = arch.variant().ofmMicroBlock;
  const int height =
      ((ofmBlock.height - 1) * kernel.strideY + std::min(kSubKernelLimit, kernel.areaHeight())) / upscaling;
  const int width = ((ofmBlock.width - 1) * kernel.strideX + std::min(kSubKernelLimit, kernel.areaWidth())) / upscaling;
  return Block{static_cast<int>(npu::roundUp(width, microBlock.width)),
               static_cast<int>(npu::roundUp(height, microBlock.height)), ifmBlockDepth};
}

double transferEfficiencyBytes(const Architecture& arch, npu::MemoryArea area, bool isRead, npu::TensorFormat format,
                               int elementBytes, const npu::Shape4& shape, const Block& block, double bytes) {
  std::int64_t burst = 0;
  const std::int64_t element = elementBytes;
  if (format == npu::TensorFormat::NHCWB16) {
    // The channel stride of the brick format is one 16-deep brick row of the whole width.
    const std::int64_t channelStride = 16 * element * shape.width;
    if (channelStride == block.depth) {
      burst = element * block.depth * block.width;
    } else if (isRead) {
      burst = 16 * element * block.width;
    } else {
      burst = 16 * element * block.width * arch.cores();
    }
  } else {
    const std::int64_t columnStride = element * shape.depth;
    if (isRead) {
      burst = columnStride == block.depth ? element * block.depth * block.width : element * block.depth;
    } else if (block.depth <= 16 && columnStride == block.depth) {
      burst = element * block.depth * block.width;
    } else {
      burst = std::min<std::int64_t>({64, 16 * element * arch.cores(), block.depth * element});
    }
  }
  const int memoryBurst = arch.burstLength(area);
  burst = std::min<std::int64_t>(memoryBurst, burst);
  if (burst <= 0) {
    return bytes;
  }
  return bytes * (static_cast<double>(memoryBurst) / static_cast<double>(burst));
}

double outputCycles(const Architecture& arch, const PassQuery& query, std::int64_t elements, bool accumulator40,
                    const std::optional<Block>& elementwiseBlock) {
  const VariantSpec& variant = arch.variant();
  double perElement =
      std::max(variant.outputCyclesPerElement[static_cast<std::size_t>(outputPerformanceIndex(query, accumulator40))],
               variant.activationCyclesPerElement[static_cast<std::size_t>(activationPerformanceIndex(query))]);
  if (elementwiseBlock && npu::isElementwise(query.traits.type)) {
    const Block& block = *elementwiseBlock;
    const double blockElements = static_cast<double>(block.width) * block.height * block.depth;
    const double command = minimalCommandCycles(arch, query, block, block, blockElements * perElement, 0.0);
    perElement = std::max(perElement, command / blockElements);
  }
  return static_cast<double>(elements) * perElement;
}

double convolutionPoolingCycles(const Architecture& arch, const PassQuery& query, Block ofmBlock,
                                const Block& ifmBlock) {
  const NpuBlockType blockType = query.traits.blockType;
  const VariantSpec& variant = arch.variant();
  const npu::Shape4& ofmShape = query.ofm.shape;
  const npu::Kernel& kernel = query.traits.kernel;
  const int kernelHeight = blockType == NpuBlockType::VectorProduct ? 1 : kernel.height;
  const int kernelWidth = blockType == NpuBlockType::VectorProduct ? 1 : kernel.width;
  Block microBlock{variant.ofmMicroBlock.width, variant.ofmMicroBlock.height, variant.ofmMicroBlock.depth};
  // A one-row OFM of even width runs four-wide micro-blocks on the two-row variants.
  if (microBlock.height == 2 &&
      (blockType == NpuBlockType::ConvolutionMxN || blockType == NpuBlockType::ConvolutionDepthWise ||
       blockType == NpuBlockType::VectorProduct) &&
      ofmShape.height == 1 && ofmShape.width % 2 == 0 && kernelHeight == 1) {
    microBlock.width = 4;
    microBlock.height = 1;
    ofmBlock.height = 1;
  }
  const auto blocksX = npu::divRoundUp(ofmBlock.width, microBlock.width);
  const auto blocksY = ofmBlock.height / microBlock.height;
  const auto blocksXY = blocksX * blocksY;
  const auto blocksZ = ofmBlock.depth / microBlock.depth;
  const bool accumulator40 = query.accumulator40;
  const int ifmBits = npu::bitsOf(query.ifm.type);
  const double writeBackCycles = 32.0 * microBlock.depth / 8;
  const bool partKernel =
      blockType == NpuBlockType::ConvolutionMxN && query.traversal == BlockTraversal::PartKernelFirst;

  double computeCycles = 0.0;
  for (const int kernelElements : subKernelElements(kernelHeight, kernelWidth, blockType)) {
    double cycles = 0.0;
    std::int64_t kernelSteps = 1;
    if (blockType == NpuBlockType::Pooling) {
      cycles = static_cast<double>(std::max(4, kernelElements)) * static_cast<double>(blocksXY * blocksZ);
      if (ifmBits == 16 && variant.pooling16BitDoubleCycles) {
        cycles *= 2;
      }
    } else if (blockType == NpuBlockType::ConvolutionDepthWise) {
      cycles = 4.0 * static_cast<double>(blocksXY);
      if (ifmBits == 16) {
        cycles *= 2;
      }
      kernelSteps = npu::divRoundUp(kernelElements, 4);
      cycles = std::max(writeBackCycles, cycles) * static_cast<double>(kernelSteps * blocksZ);
    } else if (!partKernel) {
      kernelSteps = kernelElements;
      cycles =
          std::max(writeBackCycles, 4.0 * static_cast<double>(blocksXY)) * static_cast<double>(kernelSteps * blocksZ);
    } else {
      kernelSteps = npu::divRoundUp(kernelElements, ifmBits == 16 ? 2 : 4);
      cycles = std::max(writeBackCycles, 4.0 * static_cast<double>(blocksXY)) *
               static_cast<double>(kernelSteps * npu::divRoundUp(ifmBlock.depth, 8) * blocksZ);
    }

    const int delay = accumulator40 ? variant.kernelStepDelayAccumulator40 : variant.kernelStepDelay;
    double delayCycles = 0.0;
    if (blocksX == 1 && blocksY == 1) {
      if (blocksZ == 1) {
        delayCycles = static_cast<double>(delay * kernelSteps);
      } else if (kernelSteps > 1) {
        delayCycles = static_cast<double>(delay * (kernelSteps - 1) * blocksZ);
      }
    }
    if (variant.accumulator40DepthDelay && (blocksX == 1 || blocksY == 1) && blocksZ > 1 && accumulator40) {
      delayCycles += static_cast<double>(delay * blocksZ);
    }
    if (partKernel) {
      delayCycles *= static_cast<double>(npu::divRoundUp(ifmBlock.depth, 8));
    }
    computeCycles += cycles + delayCycles;
  }
  if (isConvolutionLike(blockType)) {
    computeCycles *= static_cast<double>(npu::divRoundUp(query.ifm.shape.depth, ifmBlock.depth));
  }
  computeCycles /= arch.cores();

  const auto ofmBlocks = npu::divRoundUp(ofmShape.height, ofmBlock.height) *
                         npu::divRoundUp(ofmShape.width, ofmBlock.width) *
                         npu::divRoundUp(ofmShape.depth, ofmBlock.depth);
  const std::int64_t blockElements = std::int64_t{ofmBlock.width} * ofmBlock.height * ofmBlock.depth;
  double outputBlockCycles = outputCycles(arch, query, blockElements, accumulator40, std::nullopt);
  if (query.hasScales) {
    const npu::MemoryArea scaleArea = query.scaleBufferArea.value_or(query.scaleArea);
    const double biasCycles = 10.0 * std::min(ofmBlock.depth, ofmShape.depth) * arch.readLatency(scaleArea) / 256.0;
    outputBlockCycles = std::max(outputBlockCycles, biasCycles);
  }
  const double commandCycles = minimalCommandCycles(arch, query, ifmBlock, ofmBlock, computeCycles, outputBlockCycles);
  computeCycles = std::max(computeCycles, commandCycles);
  outputBlockCycles = std::max(outputBlockCycles, commandCycles);
  const auto blocks = static_cast<double>(ofmBlocks);
  return computeCycles > outputBlockCycles ? computeCycles * blocks + outputBlockCycles
                                           : outputBlockCycles * blocks + computeCycles;
}

} // namespace ethosu::vela2
