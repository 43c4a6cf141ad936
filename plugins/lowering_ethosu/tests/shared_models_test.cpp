// SPDX-License-Identifier: Apache-2.0
// Every shared model lowers without an error into a valid graph (skipped when NPU_PIPELINE_MODELS is
// unset). The support checks of the real accelerator are not part of this test: the fake accelerator
// accepts every operation, so this checks the rewrites on real graphs, not the placement.
#include "lowering_test_support.hpp"

#include "ethosu_lowering/lowering.hpp"
#include "frontend_tflite/model_reader.hpp"
#include "test_support.hpp"

#include "npu/ir/graph_algorithms.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace npu;
using namespace ethosu::lowering;
using namespace ethosu::lowering::test;

BOOST_AUTO_TEST_SUITE(shared_models)

BOOST_AUTO_TEST_CASE(no_shared_model_makes_the_lowering_fail_or_produce_an_invalid_graph) {
  const auto models = npu::test::sharedModelsDir();
  if (!models) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set; skipped");
    return;
  }
  int lowered = 0;
  for (const auto& entry : std::filesystem::directory_iterator(*models)) {
    if (entry.path().extension() != ".tflite") {
      continue;
    }
    BOOST_TEST_CONTEXT(entry.path().filename().string()) {
      const Graph graph = tflite_frontend::readModelFile(entry.path());
      Graph result;
      try {
        result = lowerForTest(graph, FakeAccelerator{});
      } catch (const std::exception& error) {
        BOOST_ERROR("lowering threw: " << error.what());
      }
      BOOST_TEST(verifyGraph(result).empty());
      for (const std::string& leftover : operationsTheNpuCannotRun(result)) {
        BOOST_ERROR("left on the NPU: " << leftover);
      }
      const PlacementCounts counts = countPlacements(result);
      BOOST_TEST_MESSAGE(entry.path().stem().string() << " npu_ops=" << counts.npuOperations << " cpu_ops="
                                                      << counts.cpuOperations << " npu_passes=" << counts.npuPasses);
      ++lowered;
    }
  }
  BOOST_TEST(lowered > 0);
}

BOOST_AUTO_TEST_SUITE_END()
