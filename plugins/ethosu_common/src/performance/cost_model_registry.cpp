#include "ethosu/performance/cost_model.hpp"
#include "ethosu/performance_vela2/vela2_cost_model.hpp"

#include <array>

namespace ethosu {

namespace {

std::unique_ptr<npu::CostModel> makeVela3(const Architecture& arch) {
  return std::make_unique<Vela3CostModel>(arch);
}
std::unique_ptr<npu::CostModel> makeVela2(const Architecture& arch) {
  return std::make_unique<Vela2CostModel>(arch);
}

// To add a model: implement npu::CostModel over an Architecture and add its entry here.
constexpr std::array kCostModels{
    CostModelEntry{"vela3", "Arm Vela 3.10 performance model (npu_performance.py, measure_cycle_cost)", makeVela3},
    CostModelEntry{"vela2", "Arm Vela 2.1 performance model of 2020 (npu_performance.py, per pass)", makeVela2},
};

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
  for (const auto& entry : kCostModels) {
    if (entry.name == name) {
      return entry.create(arch);
    }
  }
  std::string known;
  for (const auto& entry : kCostModels) {
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  npu::throwConfigError("unknown cost model '" + std::string(name) + "'", {}, "known cost models: " + known);
}

} // namespace ethosu
