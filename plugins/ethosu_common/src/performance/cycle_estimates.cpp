// SPDX-License-Identifier: Apache-2.0
#include "ethosu/performance/vela3_estimates.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ethosu {

using npu::Shape4;

namespace {

bool isConvolutionLike(NpuBlockType type) {
  return type == NpuBlockType::ConvolutionMxN || type == NpuBlockType::ConvolutionDepthWise ||
         type == NpuBlockType::VectorProduct || type == NpuBlockType::Pooling || type == NpuBlockType::ReduceSum;
}

/// Vela's sub_kernel_limits: (height, width) of the largest kernel the hardware runs in one go.
std::pair<int, int> subKernelLimits(NpuBlockType type) {
  if (type == NpuBlockType::VectorProduct || type == NpuBlockType::ElementWise) {
    return {1, 1};
  }
  return {CommonArchitecture::kSubKernelMaxHeight, CommonArchitecture::kSubKernelMaxWidth};
}

std::int64_t ceilDivide(std::int64_t value, std::int64_t divisor) {
  return npu::divRoundUp(value, divisor);
}

int bitsOf(const npu::FeatureMapQuery& featureMap) {
  return npu::bitsOf(featureMap.type);
}

// npu_performance._estimate_minimum_memory_cycles: latency plus transfer of one IFM and one OFM block.
std::pair<double, double> minimumMemoryCycles(const Architecture& arch, const PerformanceQuery& query) {
  const auto& config = query.config;
  const auto ifmBytes = static_cast<double>(npu::elementwiseMin(query.ifm.shape, config.ifmBlock).elements());
  const double ifmCycles = arch.readLatency(query.ifm.area) +
                           memoryTransferEfficiency(arch, true, query.ifm.area, query.ifm.format, bitsOf(query.ifm),
                                                    config.ifmBlock, query.ifm.shape, ifmBytes) /
                               arch.bandwidthPerCycle(query.ifm.area);
  const auto ofmBytes = static_cast<double>(npu::elementwiseMin(query.ofm.shape, config.ofmBlock).elements());
  const double ofmCycles = arch.writeLatency(query.ofm.area) +
                           memoryTransferEfficiency(arch, false, query.ofm.area, query.ofm.format, bitsOf(query.ofm),
                                                    config.ofmBlock, query.ofm.shape, ofmBytes) /
                               arch.bandwidthPerCycle(query.ofm.area);
  return {ifmCycles, ofmCycles};
}

OutputPerformance outputPerformanceRow(const PerformanceQuery& query) {
  using npu::OpType;
  if (query.blockType == NpuBlockType::ElementWise && bitsOf(query.ifm) == 32) {
    return query.ifm2 ? OutputPerformance::Elementwise32BitWithIfm2 : OutputPerformance::Elementwise32BitWithoutIfm2;
  }
  if (query.opType == OpType::Mul && bitsOf(query.ofm) == 32) {
    return OutputPerformance::Multiply32BitOutput;
  }
  const bool accumulator40 = query.config.accumulator == ShramElement::Accumulator40;
  if (query.opType == OpType::Mul || (isConvolutionLike(query.blockType) && accumulator40)) {
    return OutputPerformance::Accumulator40OrMultiply;
  }
  if (query.opType == OpType::Add || query.opType == OpType::Sub) {
    return OutputPerformance::AdvancedAddSub; // Vela always models the advanced variant
  }
  if (npu::isMaxPool(query.opType)) {
    return OutputPerformance::MaxPool;
  }
  return OutputPerformance::Other;
}

ActivationPerformance activationPerformanceRow(const std::optional<npu::OpType>& activation) {
  using npu::OpType;
  if (!activation) {
    return ActivationPerformance::None;
  }
  if (*activation == OpType::Sigmoid || *activation == OpType::Tanh || *activation == OpType::LUT) {
    return ActivationPerformance::LookupTable;
  }
  if (*activation == OpType::Relu || *activation == OpType::Relu6 || *activation == OpType::ReluN1To1) {
    return ActivationPerformance::Relu;
  }
  return ActivationPerformance::None;
}

// npu_performance._estimate_output_cycles_per_element.
double outputCyclesPerElement(const Architecture& arch, const PerformanceQuery& query) {
  const VariantSpec& variant = arch.variant();
  double cyclesPerElement = std::max(variant.outputCycles(outputPerformanceRow(query)),
                                     variant.activationCycles(activationPerformanceRow(query.activation)));
  if (npuBlockTypeOf(query.opType) == NpuBlockType::ElementWise) {
    const auto blockElements = static_cast<double>(query.config.ofmBlock.elements());
    const auto [ifmBlockCycles, ofmBlockCycles] = minimumMemoryCycles(arch, query);
    double commandCycles = ifmBlockCycles + ofmBlockCycles;
    commandCycles = (commandCycles + cyclesPerElement * blockElements) / 4; // per DPU
    cyclesPerElement = std::max(cyclesPerElement, commandCycles / blockElements);
  }
  return cyclesPerElement;
}

/// Pipeline stalls of one sub-kernel pass (the delay part of _estimate_conv_cycles).
std::int64_t kernelDelayCycles(const VariantSpec& variant, bool accumulator40, std::int64_t microBlocksX,
                               std::int64_t microBlocksY, std::int64_t microBlocksZ, std::int64_t kernelSteps) {
  const std::int64_t delay = accumulator40 ? variant.kernelStepDelayAccumulator40 : variant.kernelStepDelay;
  std::int64_t cycles = 0;
  if (microBlocksX == 1 && microBlocksY == 1) {
    if (microBlocksZ == 1) {
      cycles = delay * kernelSteps;
    } else if (kernelSteps > 1) {
      cycles = delay * (kernelSteps - 1) * microBlocksZ;
    }
  }
  if (variant.accumulator40DepthDelay && (microBlocksX == 1 || microBlocksY == 1) && microBlocksZ > 1 &&
      accumulator40) {
    cycles += delay * microBlocksZ;
  }
  return cycles;
}

// npu_performance._estimate_conv_cycles.
double convolutionCycles(const Architecture& arch, const PerformanceQuery& query) {
  const VariantSpec& variant = arch.variant();
  const auto& config = query.config;
  const Shape4 ifmBlock = npu::elementwiseMin(query.ifm.shape, config.ifmBlock);
  Shape4 ofmBlock = npu::elementwiseMin(query.ofm.shape, config.ofmBlock);
  Shape4 microBlock = variant.ofmMicroBlock;
  const bool conv1dCandidate = query.blockType == NpuBlockType::ConvolutionMxN ||
                               query.blockType == NpuBlockType::ConvolutionDepthWise ||
                               query.blockType == NpuBlockType::VectorProduct;
  // Even-width single-row outputs of 1-high kernels use a 1x4 micro-block on the 2-high variants.
  if (variant.ofmMicroBlock.height == 2 && conv1dCandidate && query.ofm.shape.height == 1 &&
      query.ofm.shape.width % 2 == 0 && query.kernel.height == 1) {
    microBlock = {1, 1, 4, variant.ofmMicroBlock.depth};
    ofmBlock = ofmBlock.withHeight(1);
  }
  const std::int64_t microBlocksX = ceilDivide(ofmBlock.width, microBlock.width);
  const std::int64_t microBlocksY = ceilDivide(ofmBlock.height, microBlock.height);
  const std::int64_t microBlocksXY = microBlocksX * microBlocksY;
  const std::int64_t microBlocksZ = ceilDivide(ofmBlock.depth, microBlock.depth);
  const bool accumulator40 = config.accumulator == ShramElement::Accumulator40;
  const int ifmBits = bitsOf(query.ifm);

  const auto [limitHeight, limitWidth] = subKernelLimits(query.blockType);
  std::vector<std::int64_t> subKernelElements;
  for (int y = 0; y < ceilDivide(query.kernel.height, limitHeight); ++y) {
    for (int x = 0; x < ceilDivide(query.kernel.width, limitWidth); ++x) {
      subKernelElements.push_back(std::int64_t{std::min(query.kernel.width - x * limitWidth, limitWidth)} *
                                  std::min(query.kernel.height - y * limitHeight, limitHeight));
    }
  }

  const std::int64_t writeBackCycles = 32 * microBlock.depth / 8;
  const std::int64_t ifmBlockDepthSteps = ceilDivide(ifmBlock.depth, 8);
  std::int64_t dpuBlockCycles = 0;
  for (const std::int64_t kernelElements : subKernelElements) {
    std::int64_t kernelSteps = 0;
    std::int64_t cycles = 0;
    if (query.blockType == NpuBlockType::Pooling) {
      kernelSteps = 1;
      cycles = std::max<std::int64_t>(4, kernelElements) * microBlocksXY * microBlocksZ;
      if (ifmBits == 16 && variant.pooling16BitDoubleCycles) {
        cycles *= 2;
      }
    } else if (query.blockType == NpuBlockType::ConvolutionDepthWise) {
      cycles = 4 * microBlocksXY;
      if (ifmBits == 16) {
        cycles *= 2;
      }
      kernelSteps = ceilDivide(kernelElements, 4);
      cycles = std::max(writeBackCycles, cycles) * kernelSteps * microBlocksZ;
    } else if ((query.blockType == NpuBlockType::ConvolutionMxN && !config.partKernel) ||
               query.blockType == NpuBlockType::VectorProduct || query.blockType == NpuBlockType::ReduceSum) {
      kernelSteps = kernelElements;
      cycles = std::max(writeBackCycles, 4 * microBlocksXY) * kernelSteps * microBlocksZ;
    } else {
      kernelSteps = ceilDivide(kernelElements, ifmBits == 16 ? 2 : 4);
      cycles = std::max(writeBackCycles, 4 * microBlocksXY) * (kernelSteps * ifmBlockDepthSteps * microBlocksZ);
    }
    std::int64_t delayCycles =
        kernelDelayCycles(variant, accumulator40, microBlocksX, microBlocksY, microBlocksZ, kernelSteps);
    if (query.blockType == NpuBlockType::ConvolutionMxN && config.partKernel) {
      delayCycles *= ifmBlockDepthSteps;
    }
    dpuBlockCycles += cycles + delayCycles;
  }
  if (query.blockType == NpuBlockType::ConvolutionMxN || query.blockType == NpuBlockType::VectorProduct ||
      query.blockType == NpuBlockType::ReduceSum) {
    dpuBlockCycles *= ceilDivide(query.ifm.shape.depth, ifmBlock.depth);
  }
  double dpuCycles = static_cast<double>(dpuBlockCycles) / arch.cores();

  const auto ofmBlockCount = static_cast<double>(npu::divRoundUp(query.ofm.shape, ofmBlock).elements());
  double outputCycles = std::ceil(outputCyclesPerElement(arch, query) * static_cast<double>(ofmBlock.elements()));
  if (query.constantDepth > 0) {
    const double biasCycles = 10.0 * ofmBlock.depth * arch.readLatency(query.constantArea) / 256;
    outputCycles = std::max(outputCycles, biasCycles);
  }
  const auto [ifmBlockCycles, ofmBlockCycles] = minimumMemoryCycles(arch, query);
  const double commandCycles = (ifmBlockCycles + ofmBlockCycles + outputCycles + dpuCycles) / 4; // per DPU
  dpuCycles = std::max(dpuCycles, commandCycles);
  outputCycles = std::max(outputCycles, commandCycles);
  // The slower of compute and output runs once per block; the other only once, at the end.
  if (dpuCycles > outputCycles) {
    return dpuCycles * ofmBlockCount + outputCycles;
  }
  return outputCycles * ofmBlockCount + dpuCycles;
}

} // namespace

double leastOutputCyclesPerElement(const Architecture& arch, const PerformanceQuery& query) {
  const VariantSpec& variant = arch.variant();
  // Convolution-like operations take the row of their accumulator, which the block config chooses.
  PerformanceQuery with40 = query;
  with40.config.accumulator = ShramElement::Accumulator40;
  PerformanceQuery with32 = query;
  with32.config.accumulator = ShramElement::Accumulator32;
  const double output =
      std::min(variant.outputCycles(outputPerformanceRow(with40)), variant.outputCycles(outputPerformanceRow(with32)));
  return std::max(output, variant.activationCycles(activationPerformanceRow(query.activation)));
}

double memoryTransferEfficiency(const Architecture& arch, bool isRead, npu::MemoryArea area, npu::TensorFormat format,
                                int elementBits, const Shape4& block, const Shape4& shape, double bytes) {
  // Burst length in bits; the stride comparisons mirror npu_performance._strides_for_shape.
  std::int64_t burstBits = 8;
  if (format == npu::TensorFormat::NHCWB16) {
    const double channelStride = elementBits * 16.0 * shape.width / 8;
    if (channelStride == block.depth) {
      burstBits = std::int64_t{elementBits} * block.depth * block.width;
    } else if (isRead) {
      burstBits = std::int64_t{16} * elementBits * block.width;
    } else {
      burstBits = std::int64_t{16} * elementBits * block.width * arch.cores();
    }
  } else {
    const double elementStride = elementBits / 8.0;
    if (isRead) {
      burstBits = elementStride == block.depth ? std::int64_t{elementBits} * block.depth * block.width
                                               : std::int64_t{elementBits} * block.depth;
    } else if (block.depth <= 16 && elementStride == block.depth) {
      burstBits = std::int64_t{elementBits} * block.depth * block.width;
    } else {
      burstBits = std::min({std::int64_t{64 * 8}, std::int64_t{16} * elementBits * arch.cores(),
                            std::int64_t{block.depth} * elementBits});
    }
  }
  const std::int64_t memoryBurst = arch.burstLength(area);
  const std::int64_t burstBytes = std::min(memoryBurst, burstBits / 8);
  return bytes * (static_cast<double>(memoryBurst) / static_cast<double>(burstBytes));
}

double pythonFloorDivide(double numerator, double denominator) {
  // CPython float_floor_div: divide the exact multiple, then floor with a correction for rounding.
  const double remainder = std::fmod(numerator, denominator);
  double quotient = (numerator - remainder) / denominator;
  if (remainder != 0.0 && ((denominator < 0) != (remainder < 0))) {
    quotient -= 1.0;
  }
  double floored = std::floor(quotient);
  if (quotient - floored > 0.5) {
    floored += 1.0;
  }
  return floored;
}

double memoryToMemoryCycles(const Architecture& arch, npu::MemoryArea from, npu::MemoryArea to, double bytes) {
  const double fromCycles = pythonFloorDivide(bytes, arch.bandwidthPerCycle(from)) + arch.readLatency(from);
  const double toCycles = pythonFloorDivide(bytes, arch.bandwidthPerCycle(to));
  return std::max(fromCycles, toCycles);
}

npu::CycleCost measureCycleCost(const Architecture& arch, const PerformanceQuery& query) {
  npu::CycleCost cost;
  if (isConvolutionLike(query.blockType)) {
    const std::int64_t kernelElements = query.kernel.elementsWH();
    const bool perChannel =
        query.blockType == NpuBlockType::ConvolutionDepthWise || query.blockType == NpuBlockType::Pooling;
    cost.macs = kernelElements * (perChannel ? 1 : query.ifm.shape.depth) * query.ofm.shape.elements();
    cost.cycles = std::trunc(convolutionCycles(arch, query));
  } else if (query.blockType == NpuBlockType::ElementWise) {
    const Shape4 rounded = npu::roundUp(query.ofm.shape, Architecture::storageRounding(query.ofm.format));
    cost.cycles = std::ceil(outputCyclesPerElement(arch, query) * static_cast<double>(rounded.elements()));
  }
  // DMA (and anything not run by the NPU) takes no NPU cycles.
  return cost;
}

npu::ElementAccess measureElementAccess(const Architecture& /*arch*/, const PerformanceQuery& query) {
  npu::ElementAccess access;
  if (query.blockType == NpuBlockType::Dma || query.blockType == NpuBlockType::Default) {
    return access;
  }
  const Shape4 ifmRounding = Architecture::storageRounding(query.ifm.format);
  const Shape4& ifmShape = query.ifm.shape;
  const Shape4& ofmShape = query.ofm.shape;
  if (isConvolutionLike(query.blockType)) {
    const Shape4 ifmBlock = npu::elementwiseMin(ifmShape, query.config.ifmBlock);
    const Shape4 ofmBlock = npu::elementwiseMin(ofmShape, query.config.ofmBlock);
    Shape4 ofmBlocks = npu::divRoundUp(ofmShape, ofmBlock);
    std::int64_t ofmBlockDepth = ofmBlock.depth;
    const bool perChannel =
        query.blockType == NpuBlockType::ConvolutionDepthWise || query.blockType == NpuBlockType::Pooling;
    if (perChannel) {
      ofmBlocks = ofmBlocks.withDepth(1);
      ofmBlockDepth = ifmShape.depth;
    }
    const auto [limitHeight, limitWidth] = subKernelLimits(query.blockType);
    // Vela divides the kernel width by the height limit and vice versa; the limits are square.
    const std::int64_t subKernels =
        ceilDivide(query.kernel.width, limitHeight) * ceilDivide(query.kernel.height, limitWidth);
    const std::int64_t ofmBlockCount = ofmBlocks.elements();
    const std::int64_t ifmFetch =
        npu::roundUp(ifmBlock, ifmRounding).elementsWH() * npu::roundUp(ifmShape, ifmRounding).depth;
    const std::int64_t kernelRead = query.kernel.elementsWH() * (perChannel ? 1 : ifmShape.depth);
    const std::int64_t weightFetch = kernelRead * ofmBlockDepth * ofmBlockCount;
    access.ifmRead[0] = static_cast<double>(ifmFetch * subKernels * ofmBlockCount);
    if (query.blockType != NpuBlockType::Pooling && query.blockType != NpuBlockType::ReduceSum) {
      access.constantRead[0] = static_cast<double>(weightFetch);
      access.constantRead[1] = ofmShape.depth; // scales and biases
      access.weightsRefetch = static_cast<double>(ofmBlocks.elementsWH());
    }
  } else if (query.blockType == NpuBlockType::ElementWise) {
    const auto roundedElements = [&](const Shape4& shape) {
      return static_cast<double>(npu::roundUp(shape, ifmRounding).elements());
    };
    // Scalars of 8 bits travel in the command stream; wider ones are read once.
    if (ifmShape.elements() == 1) {
      if (bitsOf(query.ifm) > 8) {
        access.ifmRead[0] = roundedElements(ifmShape);
      }
      if (query.ifm2) {
        access.ifmRead[1] = roundedElements(ofmShape);
      }
    } else {
      access.ifmRead[0] = roundedElements(ofmShape);
      if (query.ifm2) {
        if (query.ifm2->shape.elements() > 1) {
          access.ifmRead[1] = roundedElements(ofmShape);
        } else if (bitsOf(*query.ifm2) > 8) {
          access.ifmRead[1] = roundedElements(query.ifm2->shape);
        }
      }
    }
  }
  access.ofmWrite =
      static_cast<double>(npu::roundUp(ofmShape, Architecture::storageRounding(query.ofm.format)).elements());
  return access;
}

} // namespace ethosu
