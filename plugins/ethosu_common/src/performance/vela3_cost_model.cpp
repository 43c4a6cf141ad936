// SPDX-License-Identifier: Apache-2.0
#include "ethosu/performance/cost_model.hpp"
#include "ethosu/performance/vela3_estimates.hpp"

#include <algorithm>

namespace ethosu {

PerformanceQuery performanceQueryFor(const OperationTraits& traits, const npu::CostQuery& query) {
  npu::require(query.block != nullptr, "a cost query needs a block config");
  PerformanceQuery result;
  result.blockType = traits.blockType;
  result.opType = traits.type;
  result.activation = traits.activation;
  result.ifm = query.ifm;
  result.ifm2 = query.ifm2;
  result.ofm = query.ofm;
  // Only whether scales/biases are streamed matters (Vela's const_shape depth > 0).
  result.constantDepth = query.hasScalesBiases ? std::max(query.ofm.shape.depth, 1) : 0;
  result.constantArea = query.constantArea;
  result.kernel = traits.kernel;
  result.config = fromBlockConfig(*query.block);
  return result;
}

npu::CycleCost Vela3CostModel::cycles(const npu::Subgraph& subgraph, const npu::Operation& op,
                                      const npu::CostQuery& query) const {
  return measureCycleCost(arch_, performanceQueryFor(traitsOf(subgraph, op), query));
}

npu::ElementAccess Vela3CostModel::elementAccess(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                 const npu::CostQuery& query) const {
  return measureElementAccess(arch_, performanceQueryFor(traitsOf(subgraph, op), query));
}

double Vela3CostModel::transferCycles(npu::MemoryArea from, npu::MemoryArea to, std::int64_t bytes) const {
  return memoryToMemoryCycles(arch_, from, to, static_cast<double>(bytes));
}

npu::OperationPerformance Vela3CostModel::estimate(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                   const npu::PerformanceContext& context) const {
  OperationTraits traits = traitsOf(subgraph, op);
  // Vela's final figures come after the command stream generation, which replaced the pass's activation
  // by a ReLU packed into it (high_level_command_stream_generator.py); scheduling saw the operation's own.
  if (const auto packed = op.attributes.get<std::string>("command_stream_activation")) {
    traits.activation = npu::opTypeFromName(*packed);
  }
  return estimateFullPerformance(arch_, traits, context);
}

std::optional<npu::OperationBound> Vela3CostModel::bound(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                         const npu::PerformanceContext& context) const {
  OperationTraits traits = traitsOf(subgraph, op);
  if (const auto packed = op.attributes.get<std::string>("command_stream_activation")) {
    traits.activation = npu::opTypeFromName(*packed); // as estimate() does
  }
  return estimateBound(arch_, traits, context);
}

} // namespace ethosu
