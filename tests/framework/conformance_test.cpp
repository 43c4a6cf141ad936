// SPDX-License-Identifier: Apache-2.0
#include "fake_plugins.hpp"

#include "npu/conformance/accelerator_conformance.hpp"
#include "npu/ir/graph_algorithms.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>

namespace {

/// An accelerator that breaks the contract: its cycle counts change from call to call (hidden state)
/// and one of its estimates is not a number.
class DriftingAccelerator final : public npu::Accelerator, npu::CostModel {
public:
  DriftingAccelerator() : base_(1 << 20) {}
  const npu::AcceleratorInfo& info() const override { return base_.info(); }
  const npu::MemorySystem& memory() const override { return base_.memory(); }
  const npu::OperatorSupport& support() const override { return base_.support(); }
  const npu::TensorLayout& layout() const override { return base_.layout(); }
  const npu::BlockConfigSelector& blockConfigs() const override { return base_.blockConfigs(); }
  const npu::WeightEncoder& weights() const override { return base_.weights(); }
  const npu::CostModel& costModel() const override { return *this; }

  npu::CycleCost cycles(const npu::Subgraph& s, const npu::Operation& op, const npu::CostQuery& q) const override {
    auto cost = base_.costModel().cycles(s, op, q);
    cost.cycles += static_cast<double>(calls_++);
    return cost;
  }
  npu::ElementAccess elementAccess(const npu::Subgraph& s, const npu::Operation& op,
                                   const npu::CostQuery& q) const override {
    return base_.costModel().elementAccess(s, op, q);
  }
  double transferCycles(npu::MemoryArea from, npu::MemoryArea to, std::int64_t bytes) const override {
    return base_.costModel().transferCycles(from, to, bytes);
  }
  npu::OperationPerformance estimate(const npu::Subgraph& s, const npu::Operation& op,
                                     const npu::PerformanceContext& c) const override {
    auto performance = base_.costModel().estimate(s, op, c);
    performance.cycles[0] = std::numeric_limits<double>::quiet_NaN();
    return performance;
  }

private:
  npu::test::FakeAccelerator base_;
  mutable std::atomic<int> calls_{0};
};

bool failed(const npu::ConformanceReport& report, const std::string& fragment) {
  return std::any_of(report.checks.begin(), report.checks.end(), [&](const npu::ConformanceCheck& check) {
    return !check.passed && check.name.find(fragment) != std::string::npos;
  });
}

} // namespace

BOOST_AUTO_TEST_SUITE(accelerator_conformance)

BOOST_AUTO_TEST_CASE(the_probe_graph_is_a_valid_graph) {
  const npu::Graph graph = npu::conformanceProbeGraph();
  BOOST_TEST(npu::verifyGraph(graph).empty());
  BOOST_TEST(graph.subgraphs.front().operations.size() == 6U);
}

BOOST_AUTO_TEST_CASE(a_well_behaved_accelerator_passes_every_check) {
  const npu::test::FakeAccelerator accelerator(1 << 20);
  const auto report = npu::checkAccelerator(accelerator);
  BOOST_TEST(report.passed(), report.render());
  BOOST_TEST(report.checks.size() > 10U);
}

BOOST_AUTO_TEST_CASE(an_accelerator_with_hidden_state_and_nan_costs_fails_clearly) {
  const DriftingAccelerator accelerator;
  const auto report = npu::checkAccelerator(accelerator);
  BOOST_TEST(!report.passed());
  BOOST_TEST(failed(report, "identical questions get identical answers"));
  BOOST_TEST(failed(report, "full estimate is finite"));
  BOOST_TEST(report.render().find("FAILED") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_plugin_must_refuse_unknown_variants) {
  const npu::test::FakeAcceleratorPlugin plugin; // accepts any variant name: a contract violation
  const auto reports = npu::checkAcceleratorPlugin(plugin, "fake", {});
  BOOST_REQUIRE_EQUAL(reports.size(), 2U);
  BOOST_TEST(failed(reports[0], "unknown variant is refused"));
  BOOST_TEST(reports[1].passed(), reports[1].render());
}

BOOST_AUTO_TEST_SUITE_END()
