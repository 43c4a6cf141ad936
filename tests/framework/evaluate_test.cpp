// SPDX-License-Identifier: Apache-2.0
// The final evaluation (evaluateNetwork): what it tells the accelerator's cost model about each
// scheduled operation.
#include "fake_plugins.hpp"

#include "npu/core/progress.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/report/report.hpp"

#include <boost/test/unit_test.hpp>

#include <mutex>
#include <set>

namespace {

/// The fake accelerator with a cost model that notes the operations it was told start their region.
class RegionStartRecorder final : public npu::test::ForwardingAccelerator {
public:
  npu::OperationPerformance estimate(const npu::Subgraph& s, const npu::Operation& op,
                                     const npu::PerformanceContext& context) const override {
    if (context.startsRegion) {
      const std::scoped_lock lock(mutex_);
      startingOperations_.insert(op.name);
    }
    return ForwardingAccelerator::estimate(s, op, context);
  }

  [[nodiscard]] std::set<std::string> startingOperations() const {
    const std::scoped_lock lock(mutex_);
    return startingOperations_;
  }

private:
  mutable std::mutex mutex_;
  mutable std::set<std::string> startingOperations_;
};

} // namespace

BOOST_AUTO_TEST_SUITE(evaluation)

BOOST_AUTO_TEST_CASE(only_operations_no_earlier_operation_of_their_region_feeds_are_said_to_start_it) {
  npu::Graph graph = npu::test::makeChainGraph();
  auto& operations = graph.subgraphs[0].operations;
  // Name each operation after its position; the CUSTOM one splits the chain into two regions.
  for (std::size_t i = 0; i < operations.size(); ++i) {
    operations[i].name = "op" + std::to_string(i);
    operations[i].placement = operations[i].type == npu::OpType::Custom ? npu::Placement::Cpu : npu::Placement::Npu;
  }
  const RegionStartRecorder accelerator;
  const npu::test::FakeScheduler scheduler;
  const npu::OptionValues options;
  npu::SilentProgress progress;
  std::vector<npu::Schedule> schedules;
  std::vector<npu::Allocation> allocations;
  for (const npu::NpuRegion& region : npu::findNpuRegions(graph)) {
    schedules.push_back(scheduler.schedule(npu::ScheduleRequest{graph, region, accelerator, options, progress}));
    allocations.emplace_back();
  }
  BOOST_REQUIRE_EQUAL(schedules.size(), 2U);
  static_cast<void>(npu::evaluateNetwork(graph, schedules, allocations, accelerator));
  // op0 reads the network input, op2 the CPU operation's output; op3 reads op2's output.
  BOOST_TEST(accelerator.startingOperations() == std::set<std::string>({"op0", "op2"}));
}

BOOST_AUTO_TEST_SUITE_END()
