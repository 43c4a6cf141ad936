// SPDX-License-Identifier: Apache-2.0
#include "ethosu/config/system_config.hpp"
#include "ethosu/performance/vela3_estimates.hpp"
#include "npu/plugin/accelerator.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using npu::MemoryArea;
using npu::Shape4;
using npu::TensorFormat;

ethosu::Architecture u55HighEnd() {
  const auto& variant = *ethosu::findVariant("ethos-u55-128");
  return {variant, ethosu::buildMemorySystem(variant, ethosu::internalDefaultSystemConfig(variant),
                                             ethosu::internalDefaultMemoryMode(variant), std::nullopt)};
}

ethosu::PerformanceQuery elementwiseAdd(Shape4 shape, npu::DataType type = npu::DataType::Int8) {
  ethosu::PerformanceQuery query;
  query.blockType = ethosu::NpuBlockType::ElementWise;
  query.opType = npu::OpType::Add;
  query.ifm = {shape, type, TensorFormat::NHWC, MemoryArea::Sram};
  query.ifm2 = query.ifm;
  query.ofm = query.ifm;
  query.config.ofmBlock = {1, 8, 8, 16};
  query.config.ifmBlock = {1, 8, 8, 16};
  return query;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela3_estimates)

BOOST_AUTO_TEST_CASE(floor_division_behaves_like_python_s) {
  BOOST_TEST(ethosu::pythonFloorDivide(10.0, 3.75) == 2.0);
  BOOST_TEST(ethosu::pythonFloorDivide(15.0, 3.75) == 4.0);
  BOOST_TEST(ethosu::pythonFloorDivide(-7.0, 2.0) == -4.0);
  BOOST_TEST(ethosu::pythonFloorDivide(768.0, 0.5) == 1536.0);
}

BOOST_AUTO_TEST_CASE(a_dma_takes_the_slower_side_plus_the_read_latency) {
  const auto arch = u55HighEnd();
  // 768 bytes from flash (1 byte per cycle, latency 64) into SRAM (8 bytes per cycle).
  BOOST_TEST(ethosu::memoryToMemoryCycles(arch, MemoryArea::OffChipFlash, MemoryArea::Sram, 768) == 832.0);
  BOOST_TEST(ethosu::memoryToMemoryCycles(arch, MemoryArea::Sram, MemoryArea::Sram, 768) == 128.0);
}

BOOST_AUTO_TEST_CASE(short_bursts_cost_as_much_as_full_ones) {
  const auto arch = u55HighEnd();
  // Linear 8-bit reads of a 16-deep block fetch 16 bytes per burst of SRAM's 32.
  BOOST_TEST(ethosu::memoryTransferEfficiency(arch, true, MemoryArea::Sram, TensorFormat::NHWC, 8, {1, 8, 8, 16},
                                              {1, 32, 32, 32}, 1000.0) == 2000.0);
  // Bricks as wide as the block are read whole.
  BOOST_TEST(ethosu::memoryTransferEfficiency(arch, true, MemoryArea::Sram, TensorFormat::NHCWB16, 8, {1, 8, 8, 16},
                                              {1, 32, 32, 32}, 1000.0) == 1000.0);
  // Flash bursts are 128 bytes.
  BOOST_TEST(ethosu::memoryTransferEfficiency(arch, true, MemoryArea::OffChipFlash, TensorFormat::NHCWB16, 8,
                                              {1, 8, 8, 16}, {1, 32, 32, 32}, 1000.0) == 1000.0);
}

BOOST_AUTO_TEST_CASE(elementwise_operations_have_no_macs_and_read_both_inputs) {
  const auto arch = u55HighEnd();
  const auto query = elementwiseAdd({1, 16, 16, 16});
  const auto cost = ethosu::measureCycleCost(arch, query);
  BOOST_TEST(cost.macs == 0);
  BOOST_TEST(cost.cycles == 16 * 16 * 16 * 1.5); // U55-128 advanced add: 1.5 cycles per element
  const auto access = ethosu::measureElementAccess(arch, query);
  BOOST_TEST(access.ifmRead[0] == 4096.0);
  BOOST_TEST(access.ifmRead[1] == 4096.0);
  BOOST_TEST(access.ofmWrite == 4096.0);
}

BOOST_AUTO_TEST_CASE(eight_bit_scalars_travel_in_the_command_stream) {
  const auto arch = u55HighEnd();
  auto query = elementwiseAdd({1, 4, 4, 16});
  query.ifm2->shape = {1, 1, 1, 1};
  BOOST_TEST(ethosu::measureElementAccess(arch, query).ifmRead[1] == 0.0);
  query.ifm2->type = npu::DataType::Int32;
  BOOST_TEST(ethosu::measureElementAccess(arch, query).ifmRead[1] == 1.0);
}

BOOST_AUTO_TEST_CASE(depthwise_macs_count_one_input_channel_per_output) {
  const auto arch = u55HighEnd();
  ethosu::PerformanceQuery query;
  query.blockType = ethosu::NpuBlockType::ConvolutionDepthWise;
  query.opType = npu::OpType::DepthwiseConv2DBias;
  query.kernel = npu::Kernel{3, 3};
  query.ifm = {{1, 10, 10, 32}, npu::DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram};
  query.ofm = {{1, 8, 8, 32}, npu::DataType::Int8, TensorFormat::NHCWB16, MemoryArea::Sram};
  query.config.ofmBlock = {1, 8, 8, 32};
  query.config.ifmBlock = {1, 10, 10, 32};
  BOOST_TEST(ethosu::measureCycleCost(arch, query).macs == 9 * 8 * 8 * 32);
  query.blockType = ethosu::NpuBlockType::ConvolutionMxN;
  BOOST_TEST(ethosu::measureCycleCost(arch, query).macs == 9 * 32 * 8 * 8 * 32);
}

BOOST_AUTO_TEST_CASE(a_memory_copy_costs_dma_not_npu_cycles) {
  const auto arch = u55HighEnd();
  ethosu::PerformanceQuery query;
  query.blockType = ethosu::NpuBlockType::Dma;
  query.opType = npu::OpType::Memcpy;
  BOOST_TEST(ethosu::measureCycleCost(arch, query).cycles == 0.0);
  BOOST_TEST(ethosu::measureElementAccess(arch, query).ofmWrite == 0.0);
}

BOOST_AUTO_TEST_CASE(a_memory_copy_of_a_split_part_moves_only_the_part) {
  // Code generation copies the part a MEMCPY reads (one run of bytes), [1, 18, 1, 30] of [1, 36, 1, 30]
  // int8: 540 bytes, 544 stored and copied (16-byte units), where Vela costs and copies the whole input's 1088.
  const auto arch = u55HighEnd();
  ethosu::OperationTraits traits;
  traits.type = npu::OpType::Memcpy;
  traits.blockType = ethosu::NpuBlockType::Dma;
  const npu::BlockConfig block;
  npu::PerformanceContext context;
  context.query.ifm = {{1, 18, 1, 30}, npu::DataType::Int8, TensorFormat::NHWC, MemoryArea::Dram};
  context.query.ofm = {{1, 1, 18, 30}, npu::DataType::Int8, TensorFormat::NHWC, MemoryArea::Sram};
  context.query.block = &block;
  const npu::OperationPerformance copy = ethosu::estimateFullPerformance(arch, traits, context);
  BOOST_TEST(copy.byteCount(MemoryArea::Dram, npu::TensorPurpose::FeatureMap, npu::AccessDirection::Read) == 544.0);
  BOOST_TEST(copy.cycle(npu::CycleComponent::Npu) ==
             ethosu::memoryToMemoryCycles(arch, MemoryArea::Dram, MemoryArea::Sram, 544.0));
}

BOOST_AUTO_TEST_SUITE_END()
