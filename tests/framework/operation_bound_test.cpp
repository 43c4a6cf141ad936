// SPDX-License-Identifier: Apache-2.0
// The lower bound of the accelerator contract: an operation's bound and what bounds it, the network's
// bound over summed demands, and the generic bound a cost model without its own gets.
#include "fake_plugins.hpp"

#include "npu/conformance/accelerator_conformance.hpp"
#include "npu/ir/macs.hpp"
#include "npu/report/report.hpp"

#include <boost/test/unit_test.hpp>

namespace {

npu::OperationBound boundOf(std::initializer_list<std::pair<npu::BoundResource, double>> demands) {
  npu::OperationBound bound;
  for (const auto& [resource, cycles] : demands) {
    bound.cycles[static_cast<std::size_t>(resource)] = cycles;
  }
  return bound;
}

/// The probe graph's operation of this type.
const npu::Operation& probe(const npu::Subgraph& subgraph, npu::OpType type) {
  for (const npu::Operation& op : subgraph.operations) {
    if (op.type == type) {
      return op;
    }
  }
  throw std::logic_error("no such probe");
}

/// The fake accelerator with a cost model that gives no bound of its own.
class WithoutOwnBound final : public npu::test::ForwardingAccelerator {};

npu::PerformanceContext contextFor(const npu::Subgraph& subgraph, const npu::Operation& op) {
  npu::PerformanceContext context;
  context.query.ifm = {subgraph.ifmShape(op), npu::DataType::Int8, npu::TensorFormat::NHWC, npu::MemoryArea::Sram};
  context.query.ofm = {subgraph.ofmShape(op), npu::DataType::Int8, npu::TensorFormat::NHWC, npu::MemoryArea::Sram};
  return context;
}

} // namespace

BOOST_AUTO_TEST_SUITE(operation_bound)

BOOST_AUTO_TEST_CASE(an_operation_is_bound_by_its_largest_demand) {
  const auto bound = boundOf({{npu::BoundResource::Compute, 100.0}, {npu::BoundResource::OffChipFlash, 250.0}});
  BOOST_TEST(bound.total() == 250.0);
  BOOST_TEST(std::string(npu::nameOf(bound.boundBy())) == "off_chip_flash");
}

BOOST_AUTO_TEST_CASE(weights_streamed_under_the_previous_operation_leave_the_operation_s_own_bound) {
  auto bound = boundOf({{npu::BoundResource::Compute, 100.0}, {npu::BoundResource::WeightStreaming, 300.0}});
  bound.cyclesAhead = 250.0;
  BOOST_TEST(bound.ownCycles(npu::BoundResource::WeightStreaming) == 50.0);
  BOOST_TEST(bound.total() == 100.0);
  BOOST_TEST(std::string(npu::nameOf(bound.boundBy())) == "compute");
}

BOOST_AUTO_TEST_CASE(a_network_is_bound_by_its_busiest_resource_over_all_layers_including_prefetched_weights) {
  npu::NetworkBound network;
  auto first = boundOf({{npu::BoundResource::Compute, 100.0}, {npu::BoundResource::Sram, 10.0}});
  auto second = boundOf({{npu::BoundResource::Sram, 120.0}, {npu::BoundResource::WeightStreaming, 90.0}});
  second.cyclesAhead = 90.0;
  network += first;
  network += second;
  // Not 100 + 120: one layer's SRAM traffic may overlap another's compute.
  BOOST_TEST(network.total() == 130.0);
  BOOST_TEST(std::string(npu::nameOf(network.boundBy())) == "sram");
  BOOST_TEST(network.cycles[static_cast<std::size_t>(npu::BoundResource::WeightStreaming)] == 90.0);
}

BOOST_AUTO_TEST_CASE(the_generic_bound_counts_macs_at_the_peak_rate_and_the_bytes_each_memory_must_move) {
  const npu::Graph graph = npu::conformanceProbeGraph();
  const npu::Subgraph& subgraph = graph.subgraphs.front();
  const npu::test::FakeAccelerator accelerator(1 << 20);
  const npu::Operation& conv = probe(subgraph, npu::OpType::Conv2DBias);
  npu::PerformanceContext context = contextFor(subgraph, conv);
  context.weights.present = true;
  context.weights.encodedBytes = 1000;
  context.weights.sourceArea = accelerator.memory().constantArea;
  const npu::OperationBound bound =
      npu::genericOperationBound(accelerator.info(), accelerator.memory(), subgraph, conv, context);
  const auto& info = accelerator.info();
  const double macs = static_cast<double>(npu::countMacs(subgraph, conv));
  BOOST_TEST(bound.resource(npu::BoundResource::Compute) == macs / (info.macsPerCycle * info.cores));
  const double featureMapBytes =
      static_cast<double>(subgraph.ifmShape(conv).elements() + subgraph.ofmShape(conv).elements());
  const auto& memory = accelerator.memory();
  double sramBytes = featureMapBytes;
  if (memory.constantArea == npu::MemoryArea::Sram) {
    sramBytes += 1000.0;
  }
  BOOST_TEST(bound.resource(npu::BoundResource::Sram) ==
             sramBytes / memory.area(npu::MemoryArea::Sram).bandwidthBytesPerCycle);
  BOOST_TEST(bound.resource(npu::BoundResource::WeightStreaming) == 0.0);
}

BOOST_AUTO_TEST_CASE(a_cost_model_without_a_bound_of_its_own_gets_the_generic_one) {
  const npu::Graph graph = npu::conformanceProbeGraph();
  const npu::Subgraph& subgraph = graph.subgraphs.front();
  const WithoutOwnBound accelerator;
  const npu::Operation& add = probe(subgraph, npu::OpType::Add);
  const npu::PerformanceContext context = contextFor(subgraph, add);
  BOOST_TEST(!accelerator.costModel().bound(subgraph, add, context).has_value());
  const auto generic = npu::genericOperationBound(accelerator.info(), accelerator.memory(), subgraph, add, context);
  BOOST_TEST(npu::operationBound(accelerator, subgraph, add, context).cycles == generic.cycles,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
