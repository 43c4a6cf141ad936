// SPDX-License-Identifier: Apache-2.0
#include "ethosu/performance/cost_model.hpp"
#include "ethosu/performance_vela2/vela2_block_configs.hpp"
#include "ethosu/performance_vela2/vela2_cost_model.hpp"

#include <algorithm>
#include <array>

namespace ethosu {

namespace {

std::unique_ptr<npu::CostModel> makeVela3(const Architecture& arch) {
  return std::make_unique<Vela3CostModel>(arch);
}
std::unique_ptr<npu::CostModel> makeVela2(const Architecture& arch) {
  return std::make_unique<Vela2CostModel>(arch);
}
// The DP scheduler that goes with the 2020 model searches Vela 2.1's block configs.
std::unique_ptr<npu::BlockConfigSelector> makeVela2BlockConfigs(const Architecture& arch,
                                                                const npu::BlockConfigSelector& vela3) {
  return std::make_unique<vela2::Vela2BlockConfigSelector>(arch, vela3);
}

// To add a model: implement npu::CostModel over an Architecture and add its entry here (with its block
// configs when its scheduler searches other ones than Vela 3.10's).
constexpr std::array kCostModels{
    CostModelEntry{"vela3", "Arm Vela 3.10 performance model (npu_performance.py, measure_cycle_cost)", makeVela3},
    CostModelEntry{"vela2", "Arm Vela 2.1 performance model of 2020 (npu_performance.py, per pass)", makeVela2,
                   makeVela2BlockConfigs},
};

const CostModelEntry* findEntry(std::string_view name) {
  const auto found = std::find_if(kCostModels.begin(), kCostModels.end(),
                                  [&](const CostModelEntry& entry) { return entry.name == name; });
  return found == kCostModels.end() ? nullptr : &*found;
}

} // namespace

std::span<const CostModelEntry> costModels() {
  return kCostModels;
}

std::vector<std::string> costModelNames() {
  std::vector<std::string> names;
  for (const auto& entry : kCostModels) {
    names.emplace_back(entry.name);
  }
  return names;
}

std::unique_ptr<npu::CostModel> makeCostModel(std::string_view name, const Architecture& arch) {
  if (const CostModelEntry* entry = findEntry(name)) {
    return entry->create(arch);
  }
  std::string known;
  for (const auto& entry : kCostModels) {
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  npu::throwConfigError("unknown cost model '" + std::string(name) + "'", {}, "known cost models: " + known);
}

std::unique_ptr<npu::BlockConfigSelector> makeModelBlockConfigs(std::string_view name, const Architecture& arch,
                                                                const npu::BlockConfigSelector& vela3) {
  const CostModelEntry* entry = findEntry(name);
  if (entry == nullptr || entry->createBlockConfigs == nullptr) {
    return nullptr;
  }
  return entry->createBlockConfigs(arch, vela3);
}

} // namespace ethosu
