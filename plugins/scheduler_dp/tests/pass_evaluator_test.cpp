// SPDX-License-Identifier: Apache-2.0
// Block config candidates and figures of passes as the DP search sees them.
#include "pass_evaluator.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::dp;

namespace {

BlockConfig block(int height, int width, int depth) {
  BlockConfig config;
  config.ofmBlock = Shape4{1, height, width, depth};
  return config;
}

} // namespace

BOOST_AUTO_TEST_SUITE(dp_pass_evaluator)

BOOST_AUTO_TEST_CASE(the_block_config_limit_takes_the_largest_and_the_smallest_blocks) {
  std::vector<BlockConfig> configs;
  for (int height = 1; height <= 4; ++height) {
    for (int depth : {8, 16}) {
      configs.push_back(block(height, 2, depth));
    }
  }
  const auto limited = limitBlockConfigs(configs, 2);
  BOOST_REQUIRE(limited.size() == 4);
  BOOST_TEST(limited[0].ofmBlock.height == 4);
  BOOST_TEST(limited[0].ofmBlock.depth == 16);
  BOOST_TEST(limited[1].ofmBlock.height == 4);
  BOOST_TEST(limited[1].ofmBlock.depth == 8);
  BOOST_TEST(limited[3].ofmBlock.height == 1);
  BOOST_TEST(limited[3].ofmBlock.depth == 8);
  BOOST_TEST(limitBlockConfigs(configs, 0).size() == configs.size());
}

BOOST_AUTO_TEST_CASE(an_output_moved_to_fast_storage_moves_its_bandwidth_but_keeps_the_npu_cycles_of_its_own_memory) {
  const auto set = [](Metrics& m, CycleComponent component, double cycles) {
    m.cycles[static_cast<std::size_t>(component)] = cycles;
  };
  Metrics inPlace; // OFM in DRAM: slow command overhead, DRAM-bound
  set(inPlace, CycleComponent::Npu, 3000.0);
  set(inPlace, CycleComponent::DramAccess, 5000.0);
  set(inPlace, CycleComponent::Total, 5000.0);
  Metrics inFastStorage; // OFM in SRAM: the cost model's cycles assume SRAM latency too
  set(inFastStorage, CycleComponent::Npu, 2500.0);
  set(inFastStorage, CycleComponent::SramAccess, 1000.0);
  set(inFastStorage, CycleComponent::DramAccess, 2000.0);
  set(inFastStorage, CycleComponent::Total, 2500.0);
  inFastStorage.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) = 4096.0;
  const Metrics merged = withOutputBandwidthInFastStorage(inPlace, inFastStorage);
  BOOST_TEST(merged.cycle(CycleComponent::Npu) == 3000.0);
  BOOST_TEST(merged.cycle(CycleComponent::SramAccess) == 1000.0);
  BOOST_TEST(merged.cycle(CycleComponent::DramAccess) == 2000.0);
  BOOST_TEST(merged.cycle(CycleComponent::Total) == 3000.0);
  BOOST_TEST(merged.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) == 4096.0);
}

BOOST_AUTO_TEST_SUITE_END()
