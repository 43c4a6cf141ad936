// SPDX-License-Identifier: Apache-2.0
#pragma once

// The 2020 cost model (Vela 2.1's npu_performance.py) as an npu::CostModel: selected with the
// accelerator option `cost_model: vela2`, next to the default "vela3".

#include "ethosu/architecture/architecture.hpp"

#include "npu/plugin/accelerator.hpp"

namespace ethosu {

class Vela2CostModel final : public npu::CostModel {
public:
  explicit Vela2CostModel(const Architecture& arch) : arch_(arch) {}

  [[nodiscard]] npu::CycleCost cycles(const npu::Subgraph& subgraph, const npu::Operation& op,
                                      const npu::CostQuery& query) const override;
  [[nodiscard]] npu::ElementAccess elementAccess(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                 const npu::CostQuery& query) const override;
  [[nodiscard]] double transferCycles(npu::MemoryArea from, npu::MemoryArea to, std::int64_t bytes) const override;
  [[nodiscard]] npu::OperationPerformance estimate(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                   const npu::PerformanceContext& context) const override;
  /// The generic bound with the weights streamed ahead (see the definition).
  [[nodiscard]] std::optional<npu::OperationBound> bound(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                         const npu::PerformanceContext& context) const override;
  [[nodiscard]] std::optional<npu::OperationPerformance> cpuOperation(const npu::Subgraph& subgraph,
                                                                      const npu::Operation& op) const override;

private:
  const Architecture& arch_;
};

} // namespace ethosu
