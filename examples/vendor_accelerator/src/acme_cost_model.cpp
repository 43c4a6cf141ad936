// SPDX-License-Identifier: Apache-2.0
#include "acme_accelerator.hpp"

#include <algorithm>

namespace acme {

namespace {

std::size_t index(npu::MemoryArea area) { return static_cast<std::size_t>(area); }

/// Output blocks the operation is cut into with its block config.
double blockCount(const npu::CostQuery& query) {
  return static_cast<double>(npu::divRoundUp(query.ofm.shape, query.block->ofmBlock).elements());
}

} // namespace

npu::CycleCost CostModel::cycles(const npu::Subgraph& subgraph, const npu::Operation& op,
                                 const npu::CostQuery& query) const {
  const npu::Kernel kernel = op.kernel.value_or(npu::Kernel{});
  const std::int64_t outputs = query.ofm.shape.elements();
  npu::CycleCost cost;
  double compute = 0.0;
  switch (op.type) {
  case npu::OpType::Conv2DBias:
    cost.macs = outputs * kernel.elementsWH() * query.ifm.shape.depth;
    compute = static_cast<double>(cost.macs) / variant_.macsPerCycle;
    break;
  case npu::OpType::FullyConnected:
    cost.macs = outputs * query.ifm.shape.elements() / std::max(query.ifm.shape.batch, 1);
    compute = static_cast<double>(cost.macs) / variant_.macsPerCycle;
    break;
  case npu::OpType::DepthwiseConv2DBias:
    // Depthwise uses a quarter of the MAC array: one channel per lane group.
    cost.macs = outputs * kernel.elementsWH();
    compute = static_cast<double>(cost.macs) / (variant_.macsPerCycle / 4.0);
    break;
  case npu::OpType::MaxPool:
  case npu::OpType::AvgPool:
    compute = static_cast<double>(outputs * kernel.elementsWH()) / kElementwisePerCycle;
    break;
  default:
    compute = static_cast<double>(outputs) / kElementwisePerCycle;
    break;
  }
  (void)subgraph;
  cost.cycles = compute + blockCount(query) * kCyclesPerBlock;
  return cost;
}

npu::ElementAccess CostModel::elementAccess(const npu::Subgraph& subgraph, const npu::Operation& op,
                                            const npu::CostQuery& query) const {
  npu::ElementAccess access;
  access.ifmRead[0] = static_cast<double>(query.ifm.shape.elements());
  if (query.ifm2) {
    access.ifmRead[1] = static_cast<double>(query.ifm2->shape.elements());
  }
  access.ofmWrite = static_cast<double>(query.ofm.shape.elements());
  if (const npu::Tensor* weights = subgraph.findTensor(op.weights())) {
    access.constantRead[0] = static_cast<double>(weights->elements());
    access.constantRead[1] = static_cast<double>(query.ofm.shape.depth);
  }
  return access;
}

double CostModel::transferCycles(npu::MemoryArea from, npu::MemoryArea to, std::int64_t bytes) const {
  const auto& source = memory_.area(from);
  const auto& target = memory_.area(to);
  const double readCycles = source.readLatency + static_cast<double>(bytes) / source.bandwidthBytesPerCycle;
  const double writeCycles = static_cast<double>(bytes) / target.bandwidthBytesPerCycle;
  return std::max(readCycles, writeCycles);
}

npu::OperationPerformance CostModel::estimate(const npu::Subgraph& subgraph, const npu::Operation& op,
                                              const npu::PerformanceContext& context) const {
  const npu::CostQuery& query = context.query;
  npu::OperationPerformance performance;
  const npu::CycleCost cost = cycles(subgraph, op, query);
  const npu::ElementAccess access = elementAccess(subgraph, op, query);
  performance.macs = cost.macs;
  using npu::AccessDirection;
  using npu::TensorPurpose;
  performance.byteCount(query.ifm.area, TensorPurpose::FeatureMap, AccessDirection::Read) +=
      access.ifmRead[0] * npu::bytesOf(query.ifm.type);
  if (query.ifm2) {
    performance.byteCount(query.ifm2->area, TensorPurpose::FeatureMap, AccessDirection::Read) +=
        access.ifmRead[1] * npu::bytesOf(query.ifm2->type);
  }
  performance.byteCount(query.ofm.area, TensorPurpose::FeatureMap, AccessDirection::Write) +=
      access.ofmWrite * npu::bytesOf(query.ofm.type);
  double npuCycles = cost.cycles;
  if (context.weights.present) {
    const auto& weights = context.weights;
    const auto bytes = static_cast<double>(weights.encodedBytes);
    performance.byteCount(weights.sourceArea, TensorPurpose::Weights, AccessDirection::Read) += bytes;
    if (weights.bufferArea) {
      // Weights are copied into buffers first; double buffering hides all but the first slice.
      performance.byteCount(*weights.bufferArea, TensorPurpose::Weights, AccessDirection::Write) += bytes;
      performance.byteCount(*weights.bufferArea, TensorPurpose::Weights, AccessDirection::Read) += bytes;
      const double dma = transferCycles(weights.sourceArea, *weights.bufferArea, weights.firstTransferBytes);
      npuCycles += weights.doubleBuffered ? std::max(0.0, dma - context.previousSlackCycles)
                                          : weights.fullTransferCycles;
    }
  }
  performance.cycles[static_cast<std::size_t>(npu::CycleComponent::Npu)] = npuCycles;
  double total = npuCycles;
  const std::array<std::pair<npu::MemoryArea, npu::CycleComponent>, 4> accessComponents{{
      {npu::MemoryArea::Sram, npu::CycleComponent::SramAccess},
      {npu::MemoryArea::Dram, npu::CycleComponent::DramAccess},
      {npu::MemoryArea::OnChipFlash, npu::CycleComponent::OnChipFlashAccess},
      {npu::MemoryArea::OffChipFlash, npu::CycleComponent::OffChipFlashAccess},
  }};
  for (const auto& [area, component] : accessComponents) {
    const auto& properties = memory_.area(area);
    if (!properties.present) {
      continue;
    }
    double bytes = 0.0;
    for (const auto& purpose : performance.bytes[index(area)]) {
      bytes += purpose[0] + purpose[1];
    }
    const double accessCycles = bytes / properties.bandwidthBytesPerCycle;
    performance.cycles[static_cast<std::size_t>(component)] = accessCycles;
    total = std::max(total, accessCycles);
  }
  performance.cycles[static_cast<std::size_t>(npu::CycleComponent::Total)] = total;
  return performance;
}

} // namespace acme
