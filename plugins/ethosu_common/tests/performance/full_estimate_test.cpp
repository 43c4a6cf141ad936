// SPDX-License-Identifier: Apache-2.0
// How the final estimate adds DMA to compute cycles (npu_performance.estimate_full_op_performance).
#include "reference_layers.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using npu::CycleComponent;

struct Fixture {
  const ethosu::test::ReferenceLayer& layer = ethosu::test::referenceLayers().front(); // a U55-128 convolution
  const ethosu::Accelerator& accelerator = ethosu::test::acceleratorFor(layer.system);
  ethosu::test::LayerGraph graph = ethosu::test::buildLayer(layer);
  npu::BlockConfig block =
      *accelerator.blockConfigs().choose(graph.subgraph, graph.op(), {layer.ifm.shape, std::nullopt, layer.ofm.shape});

  [[nodiscard]] double computeCycles() const {
    const auto query = ethosu::test::costQueryOf(layer, accelerator.memory(), block);
    return accelerator.costModel().cycles(graph.subgraph, graph.op(), query).cycles;
  }
  [[nodiscard]] npu::OperationPerformance estimate(const npu::PerformanceContext& context) const {
    return accelerator.costModel().estimate(graph.subgraph, graph.op(), context);
  }
  [[nodiscard]] npu::PerformanceContext bufferedContext(bool doubleBuffered) const {
    auto context = ethosu::test::contextOf(layer, accelerator, block);
    context.weights.doubleBuffered = doubleBuffered;
    context.weights.fullTransferCycles = 5000;
    context.previousSlackCycles = 100;
    context.ownSlackCycles = 300;
    return context;
  }
  // The first DMA: 768 bytes from flash at one byte per cycle after 64 cycles of latency.
  static constexpr double kFirstTransferCycles = 768 + 64;
};

} // namespace

BOOST_AUTO_TEST_SUITE(full_estimate)

BOOST_FIXTURE_TEST_CASE(a_single_weight_buffer_is_loaded_before_the_layer_runs, Fixture) {
  const auto result = estimate(bufferedContext(false));
  BOOST_TEST(result.cycle(CycleComponent::Npu) == computeCycles() + 5000 - 100);
}

BOOST_FIXTURE_TEST_CASE(double_buffered_weights_load_while_the_layer_runs, Fixture) {
  const auto result = estimate(bufferedContext(true));
  const double expected = std::max(5000.0 - 100 + 300, computeCycles() + (kFirstTransferCycles - 100));
  BOOST_TEST(result.cycle(CycleComponent::Npu) == expected);
}

BOOST_FIXTURE_TEST_CASE(weight_dma_is_counted_in_the_flash_bandwidth_but_not_in_its_access_cycles, Fixture) {
  const auto result = estimate(bufferedContext(false));
  using npu::AccessDirection;
  BOOST_TEST(result.byteCount(npu::MemoryArea::OffChipFlash, npu::TensorPurpose::Weights, AccessDirection::Read) ==
             768.0);
  BOOST_TEST(result.byteCount(npu::MemoryArea::Sram, npu::TensorPurpose::Weights, AccessDirection::Write) == 768.0);
  BOOST_TEST(result.cycle(CycleComponent::OffChipFlashAccess) == 0.0);
}

BOOST_FIXTURE_TEST_CASE(a_lut_load_hides_under_the_previous_layer, Fixture) {
  auto context = ethosu::test::contextOf(layer, accelerator, block);
  context.weights = {};
  context.lutTransfer =
      npu::ConstantTransfer{npu::MemoryArea::OffChipFlash, npu::MemoryArea::Shram, 1024, npu::TensorPurpose::Lut};
  context.previousSlackCycles = 2000;
  BOOST_TEST(estimate(context).cycle(CycleComponent::Npu) == computeCycles());
  context.previousSlackCycles = 1000;
  BOOST_TEST(estimate(context).cycle(CycleComponent::Npu) == computeCycles() + (1024 + 64 - 1000));
}

BOOST_FIXTURE_TEST_CASE(the_total_is_the_slowest_of_compute_and_memory, Fixture) {
  const auto result = estimate(ethosu::test::contextOf(layer, accelerator, block));
  double slowest = 0;
  for (int component = 0; component < npu::kCycleComponentCount - 1; ++component) {
    slowest = std::max(slowest, result.cycles[static_cast<std::size_t>(component)]);
  }
  BOOST_TEST(result.cycle(CycleComponent::Total) == slowest);
}

BOOST_AUTO_TEST_SUITE_END()
