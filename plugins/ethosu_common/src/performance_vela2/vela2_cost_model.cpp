// SPDX-License-Identifier: Apache-2.0
#include "ethosu/performance_vela2/vela2_cost_model.hpp"

#include "ethosu/performance_vela2/vela2_estimates.hpp"

#include <algorithm>

namespace ethosu {

namespace {

npu::PerformanceContext contextOf(const npu::CostQuery& query) {
  npu::PerformanceContext context;
  context.query = query;
  return context;
}

} // namespace

npu::CycleCost Vela2CostModel::cycles(const npu::Subgraph& subgraph, const npu::Operation& op,
                                      const npu::CostQuery& query) const {
  const npu::OperationPerformance performance =
      vela2::estimatePass(arch_, vela2::passQueryFor(arch_, subgraph, op, contextOf(query)));
  return npu::CycleCost{performance.macs, performance.cycle(npu::CycleComponent::Npu)};
}

npu::ElementAccess Vela2CostModel::elementAccess(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                 const npu::CostQuery& query) const {
  // The 2020 model reads every input once per depth stage; report the elements it moves.
  const npu::OperationPerformance performance =
      vela2::estimatePass(arch_, vela2::passQueryFor(arch_, subgraph, op, contextOf(query)));
  npu::ElementAccess access;
  const auto elementsOf = [&](npu::MemoryArea area, npu::AccessDirection direction, npu::DataType type) {
    return performance.byteCount(area, npu::TensorPurpose::FeatureMap, direction) / npu::bytesOf(type);
  };
  access.ifmRead[0] = elementsOf(query.ifm.area, npu::AccessDirection::Read, query.ifm.type);
  access.ofmWrite = elementsOf(query.ofm.area, npu::AccessDirection::Write, query.ofm.type);
  if (query.ifm2) {
    access.ifmRead[1] = static_cast<double>(query.ifm2->shape.elements());
  }
  return access;
}

double Vela2CostModel::transferCycles(npu::MemoryArea from, npu::MemoryArea /*to*/, std::int64_t bytes) const {
  // Vela 2.1 times a DMA by the bandwidth of the memory it reads from.
  const double bandwidth = arch_.bandwidthPerCycle(from);
  return bandwidth > 0.0 ? static_cast<double>(bytes) / bandwidth : 0.0;
}

npu::OperationPerformance Vela2CostModel::estimate(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                   const npu::PerformanceContext& context) const {
  return vela2::estimatePass(arch_, vela2::passQueryFor(arch_, subgraph, op, context));
}

namespace {

/// The estimate's cycle component of accesses to a memory.
npu::CycleComponent accessComponentOf(npu::MemoryArea area) {
  switch (area) {
  case npu::MemoryArea::Sram:
    return npu::CycleComponent::SramAccess;
  case npu::MemoryArea::Dram:
    return npu::CycleComponent::DramAccess;
  case npu::MemoryArea::OnChipFlash:
    return npu::CycleComponent::OnChipFlashAccess;
  default:
    return npu::CycleComponent::OffChipFlashAccess;
  }
}

} // namespace

std::optional<npu::OperationBound> Vela2CostModel::bound(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                         const npu::PerformanceContext& context) const {
  // The generic bound, except that Vela 2.1 streams weights ahead of the pass that uses them (its
  // weight DMA overlaps earlier passes): they count in the network's bound only.
  npu::PerformanceContext withoutWeights = context;
  withoutWeights.weights = npu::WeightTransfer{};
  npu::AcceleratorInfo info;
  info.macsPerCycle = arch_.variant().macsPerCycle;
  info.cores = arch_.cores();
  npu::OperationBound result = npu::genericOperationBound(info, arch_.memory(), subgraph, op, withoutWeights);
  // Vela 2.1's model runs some passes faster than the MAC array's peak (a utilisation above 100%): the
  // bound of this model then takes the model's own compute cycles.
  if (context.query.block != nullptr) {
    double& compute = result.cycles[static_cast<std::size_t>(npu::BoundResource::Compute)];
    compute = std::min(compute, cycles(subgraph, op, context.query).cycles);
  }
  if (op.type == npu::OpType::ReduceSum && context.query.block != nullptr) {
    // Vela 2.1 reads a ReduceSum's IFM zero times (its depth stages come from an all-zero weight
    // shape): the memories it reads from are bound by what this model charges them.
    const npu::OperationPerformance own = estimate(subgraph, op, context);
    for (const npu::MemoryArea area :
         {npu::MemoryArea::Sram, npu::MemoryArea::Dram, npu::MemoryArea::OnChipFlash, npu::MemoryArea::OffChipFlash}) {
      if (const auto resource = npu::boundResourceOf(area)) {
        double& cycles = result.cycles[static_cast<std::size_t>(*resource)];
        cycles = std::min(cycles, own.cycle(accessComponentOf(area)));
      }
    }
  }
  const double bandwidth = arch_.bandwidthPerCycle(context.weights.sourceArea);
  if (context.weights.present && bandwidth > 0.0) {
    // At most what this model's own estimate charges the weights' memory for the pass: Vela 2.1 does
    // not read every encoded byte at that memory's bandwidth (e.g. a pass after a removed RESHAPE), and a
    // bound above the model's estimate would be no bound of it.
    const npu::OperationPerformance own = estimate(subgraph, op, context);
    const double streaming = std::min(static_cast<double>(context.weights.encodedBytes) / bandwidth,
                                      own.cycle(accessComponentOf(context.weights.sourceArea)));
    result.cycles[static_cast<std::size_t>(npu::BoundResource::WeightStreaming)] = streaming;
    result.cyclesAhead = streaming;
  }
  return result;
}

std::optional<npu::OperationPerformance> Vela2CostModel::cpuOperation(const npu::Subgraph& subgraph,
                                                                      const npu::Operation& op) const {
  return vela2::estimateCpuPass(arch_, subgraph, op);
}

} // namespace ethosu
