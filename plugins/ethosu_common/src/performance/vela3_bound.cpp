// SPDX-License-Identifier: Apache-2.0
// The lower bound of the Vela 3.10 model: what no block config, stripe or buffering can beat, on the
// Ethos-U's peak rates. Each term is a floor under a term of estimateFullPerformance (the comments say
// which), so the bound never exceeds the estimate; plugins/ethosu_common/tests/performance checks it.
#include "ethosu/performance/vela3_estimates.hpp"

#include <algorithm>
#include <cmath>

namespace ethosu {

using npu::BoundResource;
using npu::MemoryArea;

namespace {

double& at(npu::OperationBound& bound, BoundResource resource) {
  return bound.cycles[static_cast<std::size_t>(resource)];
}

/// Multiply-accumulates per cycle and core at best. Per four cycles a micro-block of outputs takes one
/// kernel element of a 32-deep IFM block (or four kernel elements of an 8-deep one): 8 MACs per output
/// lane, macsPerCycle in all; 16-bit IFMs take half the depth per step. Depthwise convolution and
/// pooling take one kernel element per output lane and cycle (npu_performance._estimate_conv_cycles).
double peakWorkPerCycle(const VariantSpec& variant, const PerformanceQuery& query) {
  const double lanes = static_cast<double>(variant.ofmMicroBlock.elements());
  const bool wide = npu::bitsOf(query.ifm.type) == 16;
  switch (query.blockType) {
  case NpuBlockType::ConvolutionMxN:
  case NpuBlockType::VectorProduct:
  case NpuBlockType::ReduceSum:
    return static_cast<double>(variant.macsPerCycle) / (wide ? 2.0 : 1.0);
  case NpuBlockType::ConvolutionDepthWise:
    return lanes / (wide ? 2.0 : 1.0);
  case NpuBlockType::Pooling:
    return lanes / (wide && variant.pooling16BitDoubleCycles ? 2.0 : 1.0);
  default:
    return 0.0;
  }
}

/// The least compute cycles: work at the peak rate, and every output element at the output rate
/// (_estimate_conv_cycles runs the slower of the two once per block; elementwise operations run at the
/// output rate over every element).
double computeCycles(const Architecture& arch, const PerformanceQuery& query) {
  const auto outputs = static_cast<double>(query.ofm.shape.elements());
  const double outputCycles = leastOutputCyclesPerElement(arch, query) * outputs;
  if (query.blockType == NpuBlockType::ElementWise) {
    return std::ceil(outputCycles);
  }
  const double rate = peakWorkPerCycle(arch.variant(), query);
  if (rate <= 0.0) {
    return 0.0;
  }
  const bool perChannel =
      query.blockType == NpuBlockType::ConvolutionDepthWise || query.blockType == NpuBlockType::Pooling;
  const double work =
      static_cast<double>(query.kernel.elementsWH()) * (perChannel ? 1 : query.ifm.shape.depth) * outputs;
  // measure_cycle_cost truncates the cycles.
  return std::floor(std::max(work / rate / arch.cores(), outputCycles));
}

/// Elements of an input the operation must read at least once: where strides exceed the dilated kernel
/// the rows and columns between windows are skipped; scalars travel in the command stream.
double neededInputElements(const PerformanceQuery& query, const npu::Shape4& input) {
  if (input.elements() <= 1) {
    return 0.0;
  }
  const npu::Kernel& kernel = query.kernel;
  const std::int64_t height = std::min<std::int64_t>(
      input.height, std::int64_t{query.ofm.shape.height} * std::max(std::min(kernel.strideY, kernel.areaHeight()), 1));
  const std::int64_t width = std::min<std::int64_t>(
      input.width, std::int64_t{query.ofm.shape.width} * std::max(std::min(kernel.strideX, kernel.areaWidth()), 1));
  return static_cast<double>(std::int64_t{input.batch} * height * width * input.depth);
}

} // namespace

npu::OperationBound estimateBound(const Architecture& arch, const OperationTraits& traits,
                                  const npu::PerformanceContext& context) {
  npu::OperationBound bound;
  if (traits.blockType == NpuBlockType::Default || traits.blockType == NpuBlockType::Dma) {
    return bound; // the model gives memory copies no access cycles, and their DMA may hide completely
  }
  static const npu::BlockConfig anyBlock;
  npu::CostQuery costQuery = context.query;
  if (costQuery.block == nullptr) {
    costQuery.block = &anyBlock; // the bound does not depend on it
  }
  const PerformanceQuery query = performanceQueryFor(traits, costQuery);
  at(bound, BoundResource::Compute) = computeCycles(arch, query);
  const npu::WeightTransfer& streamed = context.weights;
  if (streamed.present && streamed.bufferArea && !streamed.doubleBuffered) {
    // A single weight buffer whose first transfer the model hides under the previous operation while it
    // counts no full transfer (cascaded operations keep their weights whole) leaves the estimate that much
    // below the compute cycles (estimate_full_op_performance).
    const double firstTransfer = memoryToMemoryCycles(arch, streamed.sourceArea, *streamed.bufferArea,
                                                      static_cast<double>(streamed.firstTransferBytes));
    const double hidden = std::min(firstTransfer, context.previousSlackCycles) - streamed.fullTransferCycles;
    if (hidden > 0.0) {
      at(bound, BoundResource::Compute) = std::max(at(bound, BoundResource::Compute) - hidden, 0.0);
    }
  }

  // Bytes every memory must move at least once: the estimate's access cycles count them scaled up by
  // the burst efficiency, feature maps rounded to their storage.
  std::array<double, npu::kMemoryAreaCount> bytes{};
  const auto add = [&](MemoryArea area, double count) { bytes[static_cast<std::size_t>(area)] += count; };
  add(query.ifm.area, neededInputElements(query, query.ifm.shape) * npu::bytesOf(query.ifm.type));
  if (query.ifm2) {
    add(query.ifm2->area, neededInputElements(query, query.ifm2->shape) * npu::bytesOf(query.ifm2->type));
  }
  add(query.ofm.area, static_cast<double>(query.ofm.shape.elements()) * npu::bytesOf(query.ofm.type));

  const npu::WeightTransfer& weights = context.weights;
  const bool weighted = query.blockType == NpuBlockType::ConvolutionMxN ||
                        query.blockType == NpuBlockType::ConvolutionDepthWise ||
                        query.blockType == NpuBlockType::VectorProduct;
  if (weights.present && weighted && traits.originalWeightElements > 0) {
    const auto streamBytes = static_cast<double>(weights.encodedBytes);
    if (weights.bufferArea) {
      // The DMA into the buffer (measure_mem2mem_cycles without its latency); what the previous
      // operation's slack covers may load before this one starts.
      const double dma = std::max(std::floor(streamBytes / arch.bandwidthPerCycle(weights.sourceArea)),
                                  std::floor(streamBytes / arch.bandwidthPerCycle(*weights.bufferArea)));
      at(bound, BoundResource::WeightStreaming) = dma;
      bound.cyclesAhead = std::min(std::max(context.previousSlackCycles, 0.0), dma);
    } else {
      // Read in place: the whole stream at least once, weights and scales.
      add(weights.sourceArea, streamBytes);
    }
  }
  for (std::size_t area = 0; area < bytes.size(); ++area) {
    const auto resource = boundResourceOf(static_cast<MemoryArea>(area));
    const double bandwidth = arch.bandwidthPerCycle(static_cast<MemoryArea>(area));
    if (resource && bandwidth > 0.0 && bytes[area] > 0.0) {
      at(bound, *resource) = bytes[area] / bandwidth;
    }
  }
  return bound;
}

} // namespace ethosu
