// SPDX-License-Identifier: Apache-2.0
#include "ethosu/performance/vela3_estimates.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

namespace ethosu {

using npu::AccessDirection;
using npu::CycleComponent;
using npu::MemoryArea;
using npu::TensorPurpose;

namespace {

/// Bytes per memory, purpose and direction (Vela's bandwidth arrays).
using ByteTable = decltype(npu::OperationPerformance::bytes);

double& at(ByteTable& table, MemoryArea area, TensorPurpose purpose, AccessDirection direction) {
  return table[static_cast<std::size_t>(area)][static_cast<std::size_t>(purpose)][static_cast<std::size_t>(direction)];
}

// numpy.sum over one memory's (purpose, direction) table, in numpy's order: eight running sums over the
// flattened table, combined pairwise, then the remainder (so totals agree with Vela to the last bit).
double sumOf(const ByteTable& table, MemoryArea area) {
  std::vector<double> values;
  for (const auto& purpose : table[static_cast<std::size_t>(area)]) {
    values.insert(values.end(), purpose.begin(), purpose.end());
  }
  if (values.size() < 8) {
    return std::accumulate(values.begin(), values.end(), 0.0);
  }
  std::array<double, 8> partial{};
  std::copy_n(values.begin(), 8, partial.begin());
  const std::size_t unrolled = values.size() - values.size() % 8;
  for (std::size_t i = 8; i < unrolled; i += 8) {
    for (std::size_t j = 0; j < 8; ++j) {
      partial[j] += values[i + j];
    }
  }
  double total =
      ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
  for (std::size_t i = unrolled; i < values.size(); ++i) {
    total += values[i];
  }
  return total;
}

int elementBytes(const npu::FeatureMapQuery& featureMap) {
  return npu::bitsOf(featureMap.type) / 8;
}

/// Bytes of a whole feature map as stored (Vela's Tensor.storage_size()).
double storedBytes(const npu::FeatureMapQuery& featureMap) {
  const npu::Shape4 stored = npu::roundUp(featureMap.shape, Architecture::storageRounding(featureMap.format));
  const std::int64_t bytes = std::max<std::int64_t>(stored.elements() * npu::bytesOf(featureMap.type), 1);
  return static_cast<double>(npu::roundUp(bytes, CommonArchitecture::kStorageAlignment));
}

// npu_performance.update_summary_cycles: access cycles per memory from the burst-scaled bytes; the
// operation takes as long as its slowest part.
void summariseCycles(const Architecture& arch, const ByteTable& scaledBytes, npu::OperationPerformance& result) {
  const std::pair<CycleComponent, MemoryArea> accessCycles[] = {
      {CycleComponent::SramAccess, MemoryArea::Sram},
      {CycleComponent::DramAccess, MemoryArea::Dram},
      {CycleComponent::OnChipFlashAccess, MemoryArea::OnChipFlash},
      {CycleComponent::OffChipFlashAccess, MemoryArea::OffChipFlash},
  };
  double total = result.cycles[static_cast<std::size_t>(CycleComponent::Npu)];
  for (const auto& [component, area] : accessCycles) {
    const double cycles = sumOf(scaledBytes, area) / arch.bandwidthPerCycle(area);
    result.cycles[static_cast<std::size_t>(component)] = cycles;
    total = std::max(total, cycles);
  }
  result.cycles[static_cast<std::size_t>(CycleComponent::Total)] = total;
}

} // namespace

// npu_performance.estimate_full_op_performance.
npu::OperationPerformance estimateFullPerformance(const Architecture& arch, const OperationTraits& traits,
                                                  const npu::PerformanceContext& context) {
  const npu::WeightTransfer& weights = context.weights;
  const bool weightsBuffered = weights.present && weights.bufferArea.has_value();
  PerformanceQuery query = performanceQueryFor(traits, context.query);
  // Constants are read from the weight buffer when there is one, else from where they are stored.
  if (weights.present) {
    query.constantArea = weightsBuffered ? *weights.bufferArea : weights.sourceArea;
  }

  npu::OperationPerformance result;
  ByteTable& bytes = result.bytes;
  ByteTable scaledBytes{}; // bytes scaled by burst efficiency: what the access cycles are made of
  const npu::CycleCost cost = measureCycleCost(arch, query);
  double npuCycles = cost.cycles;
  result.macs = cost.macs;
  const npu::ElementAccess access = measureElementAccess(arch, query);
  const double slackCycles = context.previousSlackCycles;

  double dmaCycles = 0.0;
  if (context.lutTransfer && context.lutTransfer->from != context.lutTransfer->to) {
    const npu::ConstantTransfer& lut = *context.lutTransfer;
    const auto lutBytes = static_cast<double>(lut.bytes);
    dmaCycles += memoryToMemoryCycles(arch, lut.from, lut.to, lutBytes);
    at(bytes, lut.from, lut.purpose, AccessDirection::Read) += lutBytes;
    at(scaledBytes, lut.to, lut.purpose, AccessDirection::Read) += lutBytes;
  }
  if (traits.blockType == NpuBlockType::Dma && query.ifm.area != query.ofm.area) {
    // The copy moves what the operation reads: a SPLIT's or SLICE's part is one run of bytes, which code
    // generation copies alone (Vela's estimate_full_op_performance costs parent_op.ifm.storage_size(), the
    // whole source, as its DMA copies it: past the end of the part's OFM).
    const double copied = storedBytes(query.ifm);
    dmaCycles += memoryToMemoryCycles(arch, query.ifm.area, query.ofm.area, copied);
    at(bytes, query.ifm.area, TensorPurpose::FeatureMap, AccessDirection::Read) += copied;
    at(bytes, query.ofm.area, TensorPurpose::FeatureMap, AccessDirection::Write) += copied;
  }

  if (weightsBuffered) {
    const auto streamBytes = static_cast<double>(weights.encodedBytes);
    at(bytes, weights.sourceArea, TensorPurpose::Weights, AccessDirection::Read) += streamBytes;
    at(bytes, *weights.bufferArea, TensorPurpose::Weights, AccessDirection::Write) += streamBytes;
    const double firstTransferCycles = memoryToMemoryCycles(arch, weights.sourceArea, *weights.bufferArea,
                                                            static_cast<double>(weights.firstTransferBytes));
    if (weights.doubleBuffered) {
      // Later slices load while earlier ones compute: only what does not hide under compute counts.
      npuCycles = std::max(weights.fullTransferCycles - slackCycles + context.ownSlackCycles,
                           cost.cycles + std::max(firstTransferCycles - slackCycles, 0.0));
    } else {
      // A single buffer is loaded before use; only the first transfer may hide under the previous op.
      npuCycles = cost.cycles + weights.fullTransferCycles - std::min(firstTransferCycles, slackCycles);
    }
    npuCycles += dmaCycles;
  } else {
    npuCycles += std::max(dmaCycles - slackCycles, 0.0);
  }
  result.cycles[static_cast<std::size_t>(CycleComponent::Npu)] = npuCycles;

  const auto& block = query.config;
  const double ofmBytes = access.ofmWrite * elementBytes(query.ofm);
  at(bytes, query.ofm.area, TensorPurpose::FeatureMap, AccessDirection::Write) += ofmBytes;
  at(scaledBytes, query.ofm.area, TensorPurpose::FeatureMap, AccessDirection::Write) +=
      memoryTransferEfficiency(arch, false, query.ofm.area, query.ofm.format, npu::bitsOf(query.ofm.type),
                               block.ofmBlock, query.ofm.shape, ofmBytes);

  const double ifmBytes = access.ifmRead[0] * elementBytes(query.ifm);
  at(bytes, query.ifm.area, TensorPurpose::FeatureMap, AccessDirection::Read) += ifmBytes;
  at(scaledBytes, query.ifm.area, TensorPurpose::FeatureMap, AccessDirection::Read) +=
      memoryTransferEfficiency(arch, true, query.ifm.area, query.ifm.format, npu::bitsOf(query.ifm.type),
                               block.ifmBlock, query.ifm.shape, ifmBytes);
  if (query.ifm2) {
    const npu::FeatureMapQuery& ifm2 = *query.ifm2;
    const double ifm2Bytes = access.ifmRead[1] * elementBytes(ifm2);
    at(bytes, ifm2.area, TensorPurpose::FeatureMap, AccessDirection::Read) += ifm2Bytes;
    // The IFM block is used for IFM2 too, as in Vela.
    at(scaledBytes, ifm2.area, TensorPurpose::FeatureMap, AccessDirection::Read) += memoryTransferEfficiency(
        arch, true, ifm2.area, ifm2.format, npu::bitsOf(ifm2.type), block.ifmBlock, ifm2.shape, ifm2Bytes);
  }

  if (access.constantRead[0] > 0 && traits.originalWeightElements > 0) {
    // Encoded weights are read in proportion to the raw weights (the stream's alignment is ignored).
    // Without an encoding (a query outside a schedule) the weights count as one byte each, uncompressed;
    // the approximation never goes below nothing.
    const double encodedApproximation =
        weights.present ? std::max(static_cast<double>(weights.encodedBytes) -
                                       access.constantRead[1] * CommonArchitecture::kEncodedScaleBiasBytes,
                                   0.0)
                        : static_cast<double>(traits.originalWeightElements);
    const double compression = encodedApproximation / static_cast<double>(traits.originalWeightElements);
    const double weightBytes = access.constantRead[0] * compression;
    at(bytes, query.constantArea, TensorPurpose::Weights, AccessDirection::Read) += weightBytes;
    if (!weightsBuffered) {
      at(scaledBytes, query.constantArea, TensorPurpose::Weights, AccessDirection::Read) += weightBytes;
    }
  }
  if (access.constantRead[1] > 0) {
    const double biasBytes = access.constantRead[1] * CommonArchitecture::kEncodedScaleBiasBytes;
    at(bytes, query.constantArea, TensorPurpose::ScalesBiases, AccessDirection::Read) += biasBytes;
    if (!weightsBuffered) {
      at(scaledBytes, query.constantArea, TensorPurpose::ScalesBiases, AccessDirection::Read) += biasBytes;
    }
  }
  summariseCycles(arch, scaledBytes, result);
  return result;
}

} // namespace ethosu
