// SPDX-License-Identifier: Apache-2.0
// The 2020 cost model against passes of Vela 2.1.1's pass-breakdown CSVs (shared/reference/vela21,
// C1: Ethos-U55-128, Ethos_U55_High_End_Embedded, Shared_Sram). Each case rebuilds one pass as Vela
// scheduled it (block config, strategy, compressed weight size) and expects its cycles, MACs and bytes.
#include "ethosu/accelerator/accelerator.hpp"
#include "ethosu/performance/cost_model.hpp"
#include "ethosu/performance_vela2/vela2_block_configs.hpp"
#include "ethosu/performance_vela2/vela2_cost_model.hpp"
#include "ethosu/performance_vela2/vela2_estimates.hpp"

#include "../support/test_graph.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using ethosu::vela2::Block;
using ethosu::vela2::BlockTraversal;
using ethosu::vela2::PassQuery;
using ethosu::vela2::PassWeights;
using npu::AccessDirection;
using npu::CycleComponent;
using npu::MemoryArea;
using npu::TensorFormat;
using npu::TensorPurpose;

std::unique_ptr<ethosu::Accelerator> u55High() {
  npu::AcceleratorConfig config;
  config.variant = "ethos-u55-128";
  config.system = "ethos_u55_high_end_embedded";
  config.memoryMode = "shared_sram";
  config.configSearchPath = {npu::test::sourceDir() / "configs"};
  config.options.set("cost_model", std::string("vela2"));
  return ethosu::makeAccelerator(config);
}

npu::FeatureMapQuery featureMap(npu::Shape4 shape, TensorFormat format = TensorFormat::NHCWB16) {
  return npu::FeatureMapQuery{shape, npu::DataType::Int8, format, MemoryArea::Sram};
}

PassQuery pass(npu::OpType type, npu::Shape4 ifm, npu::Shape4 ofm, Block block) {
  PassQuery query;
  query.traits.type = type;
  query.traits.blockType = ethosu::npuBlockTypeOf(type);
  query.ifm = featureMap(ifm);
  query.ofm = featureMap(ofm);
  query.ofmBlock = block;
  return query;
}

void withWeights(PassQuery& query, std::int64_t bytes, bool buffered) {
  query.weights = PassWeights{bytes, MemoryArea::OffChipFlash,
                              buffered ? std::optional(MemoryArea::Sram) : std::nullopt, std::nullopt, std::nullopt};
  query.hasScales = true;
  query.scaleArea = MemoryArea::OffChipFlash;
}

double bytes(const npu::OperationPerformance& p, MemoryArea area, TensorPurpose purpose, AccessDirection direction) {
  return p.byteCount(area, purpose, direction);
}

/// Vela prints cycles rounded; compare to the cycle.
void requireCycles(const npu::OperationPerformance& p, double npuCycles, double sram, double flash) {
  BOOST_TEST(p.cycle(CycleComponent::Npu) == npuCycles, boost::test_tools::tolerance(0.6 / npuCycles));
  BOOST_TEST(p.cycle(CycleComponent::SramAccess) == sram, boost::test_tools::tolerance(1.0 / std::max(sram, 1.0)));
  BOOST_TEST(p.cycle(CycleComponent::OffChipFlashAccess) == flash,
             boost::test_tools::tolerance(1.0 / std::max(flash, 1.0)));
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela2_cost_model)

BOOST_AUTO_TEST_CASE(the_accelerator_offers_the_2020_model_as_vela2) {
  const auto names = ethosu::costModelNames();
  BOOST_TEST((std::find(names.begin(), names.end(), "vela2") != names.end()));
  BOOST_TEST(names.front() == "vela3"); // the default stays first
  const auto accelerator = u55High();
  BOOST_TEST(dynamic_cast<const ethosu::Vela2CostModel*>(&accelerator->costModel()) != nullptr);
}

BOOST_AUTO_TEST_CASE(an_ifm_streamed_depthwise_convolution_reads_weights_once_per_ofm_block) {
  // tflm_person_detect_int8, MobilenetV1/Conv2d_1_depthwise: IfmStream, block (16, 12, 8, 8).
  const auto accelerator = u55High();
  PassQuery query = pass(npu::OpType::DepthwiseConv2DBias, {1, 48, 48, 8}, {1, 48, 48, 8}, Block{12, 16, 8});
  query.traits.kernel = npu::Kernel{3, 3, 1, 1, 1, 1};
  query.traits.activation = npu::OpType::Relu6;
  query.traversal = BlockTraversal::DepthWise;
  withWeights(query, 112, true);
  query.scaleBufferArea = MemoryArea::Sram; // IFM-streamed: scales cached in SRAM
  const auto p = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  requireCycles(p, 14592, 9418, 192);
  BOOST_TEST(p.macs == 165888);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) == 36864);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) == 36864);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::Weights, AccessDirection::Read) == 1344);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::Weights, AccessDirection::Write) == 112);
  BOOST_TEST(bytes(p, MemoryArea::OffChipFlash, TensorPurpose::Weights, AccessDirection::Read) == 112);
  BOOST_TEST(bytes(p, MemoryArea::OffChipFlash, TensorPurpose::FeatureMap, AccessDirection::Read) == 80);
}

BOOST_AUTO_TEST_CASE(an_ifm_streamed_pointwise_convolution_counts_every_mac) {
  // tflm_person_detect_int8, MobilenetV1/Conv2d_1_pointwise: IfmStream, block (16, 8, 8, 16).
  const auto accelerator = u55High();
  PassQuery query = pass(npu::OpType::Conv2DBias, {1, 48, 48, 8}, {1, 48, 48, 16}, Block{8, 16, 16});
  query.traits.activation = npu::OpType::Relu6;
  query.traversal = BlockTraversal::PartKernelFirst;
  withWeights(query, 208, true);
  query.scaleBufferArea = MemoryArea::Sram;
  const auto p = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  requireCycles(p, 18944, 9750, 368);
  BOOST_TEST(p.macs == 294912);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::Weights, AccessDirection::Read) == 3744);
}

BOOST_AUTO_TEST_CASE(a_weight_streamed_convolution_rereads_its_ifm_per_ofm_depth_block) {
  // tflm_person_detect_int8, MobilenetV1/Conv2d_2_pointwise: WeightStream, block (5, 24, 16, 16).
  const auto accelerator = u55High();
  PassQuery query = pass(npu::OpType::Conv2DBias, {1, 24, 24, 16}, {1, 24, 24, 32}, Block{24, 5, 16});
  query.traits.activation = npu::OpType::Relu6;
  query.traversal = BlockTraversal::DepthFirst;
  withWeights(query, 672, true);
  const auto p = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  requireCycles(p, 10096, 5112, 992);
  BOOST_TEST(p.macs == 294912);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) == 18432);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::Weights, AccessDirection::Read) == 3360);
}

BOOST_AUTO_TEST_CASE(average_pooling_counts_no_macs) {
  // tflm_person_detect_int8, MobilenetV1/Logits/AvgPool_1a: block (1, 2, 64, 64).
  const auto accelerator = u55High();
  PassQuery query = pass(npu::OpType::AvgPool, {1, 3, 3, 256}, {1, 1, 1, 256}, Block{2, 1, 64});
  query.traits.kernel = npu::Kernel{3, 3, 1, 1, 1, 1};
  const auto p = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  requireCycles(p, 350, 352, 0);
  BOOST_TEST(p.macs == 0);
  BOOST_TEST(p.cycle(CycleComponent::Total) == 352, boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(a_fully_connected_layer_reads_its_weights_from_flash) {
  // tflm_person_detect_int8, MobilenetV1/Logits/Conv2d_1c_1x1/BiasAdd_fc: block (1, 2, 32, 8); the
  // OFM feeds a reshape and stays linear.
  const auto accelerator = u55High();
  PassQuery query = pass(npu::OpType::FullyConnected, {1, 1, 1, 256}, {1, 1, 1, 2}, Block{2, 1, 8});
  query.ofm.format = TensorFormat::NHWC;
  withWeights(query, 752, false);
  const auto p = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  requireCycles(p, 37, 68, 792);
  BOOST_TEST(p.macs == 512);
  BOOST_TEST(bytes(p, MemoryArea::OffChipFlash, TensorPurpose::Weights, AccessDirection::Read) == 752);
  BOOST_TEST(bytes(p, MemoryArea::OffChipFlash, TensorPurpose::FeatureMap, AccessDirection::Read) == 20);
}

BOOST_AUTO_TEST_CASE(an_elementwise_add_costs_its_output_elements) {
  // mlperf_tiny_ic_resnet8_int8, model/add/add with a fused ReLU: block (32, 8, 16, 16).
  const auto accelerator = u55High();
  PassQuery query = pass(npu::OpType::Add, {1, 32, 32, 16}, {1, 32, 32, 16}, Block{8, 32, 16});
  query.ifm2 = featureMap({1, 32, 32, 16});
  query.traits.activation = npu::OpType::Relu;
  query.advancedAddSub = true; // the two inputs have different scales
  const auto p = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  requireCycles(p, 24576, 6144, 0);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) == 32768);
  BOOST_TEST(bytes(p, MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) == 16384);
}

BOOST_AUTO_TEST_CASE(a_linearly_stored_ifm_moves_its_own_bytes_with_the_bursts_of_the_brick_format_it_may_take) {
  // Ethos-U65-256 with the IFM in DRAM (bursts of 128 bytes), as a scheduler asks before it has
  // chosen formats: Vela 2.1 counts the linear tensor's bytes but judges its bursts as brick format.
  npu::AcceleratorConfig config;
  config.variant = "ethos-u65-256";
  config.system = "ethos_u65_high_end";
  config.memoryMode = "dedicated_sram";
  config.configSearchPath = {npu::test::sourceDir() / "configs"};
  config.options.set("cost_model", std::string("vela2"));
  const auto accelerator = ethosu::makeAccelerator(config);
  PassQuery query = pass(npu::OpType::Conv2DBias, {1, 3, 12, 8}, {1, 3, 12, 64}, Block{6, 2, 32});
  query.ifm.type = npu::DataType::Int16;
  query.ifm.format = TensorFormat::NHWC;
  query.ifm.area = MemoryArea::Dram;
  query.traversal = BlockTraversal::DepthFirst;
  const auto linear = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  query.ifmBurstFormat = TensorFormat::NHCWB16;
  const auto brickBursts = ethosu::vela2::estimatePass(accelerator->architecture(), query);
  // 3x12x8 int16 read once per OFM depth block of 32: unrounded bytes either way.
  const double readBytes = 2 * 3 * 12 * 8 * 2;
  BOOST_TEST(bytes(brickBursts, MemoryArea::Dram, TensorPurpose::FeatureMap, AccessDirection::Read) == readBytes);
  const double dramBandwidth = accelerator->architecture().bandwidthPerCycle(MemoryArea::Dram);
  BOOST_TEST(brickBursts.cycle(CycleComponent::DramAccess) == readBytes / dramBandwidth,
             boost::test_tools::tolerance(1e-9));
  // Read linearly, 16-byte bursts of the 8 channels cost 8 times as much.
  BOOST_TEST(linear.cycle(CycleComponent::DramAccess) == 8 * readBytes / dramBandwidth,
             boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_cpu_pass_counts_its_reads_and_writes_with_the_bursts_of_a_one_element_block) {
  // mlperf_tiny_kws_dscnn's AVERAGE_POOL_2D, which Vela 2.1.1 put on the CPU: 2016 SRAM cycles, 8000
  // bytes read and 64 written (its pass-breakdown CSV); brick bursts of 16 bytes in 32-byte SRAM bursts.
  const auto accelerator = u55High();
  ethosu::test::TestGraph graph;
  const npu::TensorId ifm = graph.featureMap("ifm", {1, 25, 5, 64});
  const npu::TensorId ofm = graph.featureMap("ofm", {1, 1, 1, 64});
  graph.operation(npu::OpType::AvgPool, "AVERAGE_POOL_2D", {ifm}, {ofm}).placement = npu::Placement::Cpu;
  const auto p = accelerator->costModel().cpuOperation(graph.subgraph, graph.the());
  BOOST_TEST_REQUIRE(p.has_value());
  BOOST_TEST(p->cycle(CycleComponent::Total) == 2016.0);
  BOOST_TEST(p->cycle(CycleComponent::SramAccess) == 2016.0);
  BOOST_TEST(p->cycle(CycleComponent::Npu) == 0.0);
  BOOST_TEST(bytes(*p, MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) == 8000);
  BOOST_TEST(bytes(*p, MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) == 64);
}

BOOST_AUTO_TEST_CASE(a_reshape_on_the_cpu_moves_nothing) {
  const auto accelerator = u55High();
  ethosu::test::TestGraph graph;
  const npu::TensorId ifm = graph.featureMap("ifm", {1, 25, 5, 64});
  const npu::TensorId ofm = graph.featureMap("ofm", {1, 8000});
  graph.operation(npu::OpType::Reshape, "RESHAPE", {ifm}, {ofm}).placement = npu::Placement::Cpu;
  BOOST_TEST(!accelerator->costModel().cpuOperation(graph.subgraph, graph.the()).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------------------------------
// Vela 2.1's block configs (shared_buffer_allocation.py): the blocks its scheduler chose for
// tflm_person_detect_int8 on Ethos-U55-128 are among the candidates, and the OFM depth rule holds.
namespace {

bool hasBlock(const std::vector<npu::BlockConfig>& configs, int height, int width, int depth) {
  return std::any_of(configs.begin(), configs.end(), [&](const npu::BlockConfig& c) {
    return c.ofmBlock.height == height && c.ofmBlock.width == width && c.ofmBlock.depth == depth;
  });
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela2_block_configs)

BOOST_AUTO_TEST_CASE(a_strided_depthwise_convolution_offers_the_block_vela_2_1_chose) {
  const auto accelerator = u55High();
  ethosu::test::TestGraph graph;
  const auto ifm = graph.featureMap("ifm", npu::Shape{1, 48, 48, 16});
  const auto weights = graph.filled("weights", npu::Shape{1, 3, 3, 16}, npu::DataType::Int8, 1);
  const auto bias = graph.filled("bias", npu::Shape{16}, npu::DataType::Int32, 0);
  const auto ofm = graph.featureMap("ofm", npu::Shape{1, 24, 24, 16});
  npu::Operation& op =
      graph.operation(npu::OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D", {ifm, weights, bias}, {ofm});
  op.kernel = ethosu::test::kernelOf(3, 3, 2, 2);
  const npu::OperationShapes shapes{{1, 48, 48, 16}, std::nullopt, {1, 24, 24, 16}};
  const auto configs = ethosu::vela2::blockConfigCandidates(accelerator->architecture(), graph.subgraph, op, shapes);
  BOOST_TEST(!configs.empty());
  BOOST_TEST(hasBlock(configs, 12, 4, 16)); // Conv2d_2_depthwise in Vela 2.1.1's pass breakdown
  for (const auto& config : configs) {
    BOOST_TEST(config.ofmBlock.depth == 16);                    // the OFM depth is one split: no smaller blocks
    BOOST_TEST(config.ifmBlock.depth == config.ofmBlock.depth); // depthwise reads as deep as it writes
  }
}

BOOST_AUTO_TEST_CASE(a_pointwise_convolution_splits_its_ofm_depth_in_multiples_of_16) {
  const auto accelerator = u55High();
  ethosu::test::TestGraph graph;
  const auto ifm = graph.featureMap("ifm", npu::Shape{1, 24, 24, 16});
  const auto weights = graph.filled("weights", npu::Shape{32, 1, 1, 16}, npu::DataType::Int8, 1);
  const auto bias = graph.filled("bias", npu::Shape{32}, npu::DataType::Int32, 0);
  const auto ofm = graph.featureMap("ofm", npu::Shape{1, 24, 24, 32});
  npu::Operation& op = graph.operation(npu::OpType::Conv2DBias, "CONV_2D", {ifm, weights, bias}, {ofm});
  op.kernel = ethosu::test::kernelOf(1, 1);
  const npu::OperationShapes shapes{{1, 24, 24, 16}, std::nullopt, {1, 24, 24, 32}};
  const auto configs = ethosu::vela2::blockConfigCandidates(accelerator->architecture(), graph.subgraph, op, shapes);
  BOOST_TEST(hasBlock(configs, 5, 24, 16)); // Conv2d_2_pointwise in Vela 2.1.1's pass breakdown
  for (const auto& config : configs) {
    BOOST_TEST((config.ofmBlock.depth == 16 || config.ofmBlock.depth == 32));
  }
}

BOOST_AUTO_TEST_SUITE_END()
