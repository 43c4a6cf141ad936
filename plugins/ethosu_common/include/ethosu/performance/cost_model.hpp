// SPDX-License-Identifier: Apache-2.0
#pragma once

// The cost models an Ethos-U accelerator can use, chosen by name (the accelerator's cost_model option).
// Each is an npu::CostModel over one Architecture; a new model is one more entry in costModels().

#include "ethosu/architecture/architecture.hpp"

#include "npu/plugin/accelerator.hpp"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ethosu {

/// Vela 3.10's performance model (npu_performance.py with PerformanceQuery and measure_cycle_cost).
class Vela3CostModel final : public npu::CostModel {
public:
  explicit Vela3CostModel(const Architecture& arch) : arch_(arch) {}

  [[nodiscard]] npu::CycleCost cycles(const npu::Subgraph& subgraph, const npu::Operation& op,
                                      const npu::CostQuery& query) const override;
  [[nodiscard]] npu::ElementAccess elementAccess(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                 const npu::CostQuery& query) const override;
  [[nodiscard]] double transferCycles(npu::MemoryArea from, npu::MemoryArea to, std::int64_t bytes) const override;
  [[nodiscard]] npu::OperationPerformance estimate(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                   const npu::PerformanceContext& context) const override;
  /// The hardware's peak rates (see estimateBound).
  [[nodiscard]] std::optional<npu::OperationBound> bound(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                         const npu::PerformanceContext& context) const override;

private:
  const Architecture& arch_;
};

/// Block configs offered with a cost model whose reference scheduler searches others than Vela 3.10's;
/// `vela3` is the accelerator's own selector (it outlives the result).
using BlockConfigFactory = std::unique_ptr<npu::BlockConfigSelector> (*)(const Architecture& arch,
                                                                         const npu::BlockConfigSelector& vela3);

struct CostModelEntry {
  std::string_view name; ///< value of the cost_model option, e.g. "vela3"
  std::string_view description;
  std::unique_ptr<npu::CostModel> (*create)(const Architecture& arch);
  BlockConfigFactory createBlockConfigs = nullptr; ///< null: Vela 3.10's block configs
};

inline constexpr std::string_view kDefaultCostModel = "vela3";

/// Every cost model, default first.
[[nodiscard]] std::span<const CostModelEntry> costModels();
[[nodiscard]] std::vector<std::string> costModelNames();
/// The named model for `arch` (which must outlive it); a Config error names the known models.
[[nodiscard]] std::unique_ptr<npu::CostModel> makeCostModel(std::string_view name, const Architecture& arch);
/// The block configs the named model comes with, or null when it uses Vela 3.10's.
[[nodiscard]] std::unique_ptr<npu::BlockConfigSelector>
makeModelBlockConfigs(std::string_view name, const Architecture& arch, const npu::BlockConfigSelector& vela3);

} // namespace ethosu
