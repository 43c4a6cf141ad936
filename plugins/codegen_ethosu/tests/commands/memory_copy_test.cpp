// SPDX-License-Identifier: Apache-2.0
// A MEMCPY's DMA copies the part of its IFM the operation reads, and a copy that would read or write
// outside its tensors is refused: Vela 3.10 copies a SPLIT's whole [1, 36, 1, 30] input (1088 bytes) into
// the 544-byte OFM of its [1, 36, 1, 15] part (random_485), which no check of the command stream sees.
#include "operations/npu_operation_builder.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

using namespace ethosu::codegen;

namespace {

OperationInfo copyOf(const npu::Shape4& source, const npu::Shape4& ofm) {
  OperationInfo info;
  info.name = "mean_5";
  info.blockType = ethosu::NpuBlockType::Dma;
  info.memoryCopy = true;
  info.ifm.storage.name = "split_input";
  info.ifm.storage.address = 0;
  info.ifm.shape = source;
  info.ofm.storage.name = "reshape_6";
  info.ofm.storage.region = 2;
  info.ofm.storage.address = 4096;
  info.ofm.shape = ofm;
  return info;
}

std::vector<NpuOperation> build(const OperationInfo& info) {
  const DmaCommand dma{DmaCommand::Source::FeatureMap, 0, Box::whole(info.ifm.shape), 0};
  const std::vector<OperationInfo> operations{info};
  const std::vector<LookupTablePlacement> tables(1);
  std::vector<NpuOperation> built;
  appendNpuOperations(dma, operations, tables, 1, built);
  return built;
}

} // namespace

BOOST_AUTO_TEST_SUITE(memory_copy)

BOOST_AUTO_TEST_CASE(a_copy_of_a_part_copies_the_part_from_its_first_byte) {
  // The second half in height of [1, 36, 1, 32]: one run of 576 bytes from byte 576.
  OperationInfo info = copyOf({1, 36, 1, 32}, {1, 1, 18, 32});
  info.ifmReadOffset = npu::Shape4{0, 18, 0, 0};
  info.ifmReadShape = npu::Shape4{1, 18, 1, 32};
  const std::vector<NpuOperation> built = build(info);
  BOOST_TEST_REQUIRE(built.size() == 1U);
  const auto& copy = std::get<DmaOperation>(built.front());
  BOOST_TEST(copy.source.address == 576);
  BOOST_TEST(copy.source.length == 576);
  BOOST_TEST(copy.destination.region == 2);
  BOOST_TEST(copy.destination.address == 4096);
  BOOST_TEST(copy.destination.length == 576);
}

BOOST_AUTO_TEST_CASE(a_copy_that_writes_past_its_ofm_is_an_internal_error) {
  // Vela's copy of random_485: the whole source into the part's OFM.
  const OperationInfo info = copyOf({1, 36, 1, 30}, {1, 1, 36, 15});
  BOOST_CHECK_EXCEPTION((void)build(info), npu::Error, [](const npu::Error& error) {
    return error.kind() == npu::ErrorKind::Internal &&
           error.message().find("writes region 2 at [4096, 5184), outside tensor 'reshape_6' at [4096, 4640)") !=
               std::string::npos;
  });
}

BOOST_AUTO_TEST_SUITE_END()
