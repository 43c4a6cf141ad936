// SPDX-License-Identifier: Apache-2.0
// The cost model and the block config search are pure: many TBB tasks asking at once get exactly the
// answers one thread gets.
#include "reference_layers.hpp"

#include <boost/test/unit_test.hpp>

#include <tbb/parallel_for.h>

#include <atomic>

namespace {

using ethosu::test::ReferenceLayer;

/// One question to the accelerator and everything it answered.
struct Answer {
  std::optional<npu::BlockConfig> chosen;
  std::size_t candidateCount = 0;
  npu::Shape4 ifmArea;
  double cycles = 0;
  std::int64_t macs = 0;
  npu::ElementAccess access;
  npu::OperationPerformance performance;

  [[nodiscard]] bool operator==(const Answer& other) const {
    return chosen == other.chosen && candidateCount == other.candidateCount && ifmArea == other.ifmArea &&
           cycles == other.cycles && macs == other.macs && access.ifmRead == other.access.ifmRead &&
           access.ofmWrite == other.access.ofmWrite && access.constantRead == other.access.constantRead &&
           access.weightsRefetch == other.access.weightsRefetch && performance.cycles == other.performance.cycles &&
           performance.macs == other.performance.macs && performance.bytes == other.performance.bytes;
  }
};

struct Question {
  const ReferenceLayer* layer;
  std::shared_ptr<const ethosu::test::LayerGraph> graph;
  npu::BlockConfig block; ///< one of the layer's candidates
};

Answer ask(const Question& question) {
  const auto& layer = *question.layer;
  const auto& accelerator = ethosu::test::acceleratorFor(layer.system);
  const auto& subgraph = question.graph->subgraph;
  const auto& op = question.graph->op();
  const npu::OperationShapes shapes{layer.ifm.shape, layer.ifm2 ? std::optional(layer.ifm2->shape) : std::nullopt,
                                    layer.ofm.shape};
  Answer answer;
  answer.chosen = accelerator.blockConfigs().choose(subgraph, op, shapes);
  answer.candidateCount = accelerator.blockConfigs().candidates(subgraph, op, shapes).size();
  answer.ifmArea = accelerator.blockConfigs().requiredIfmArea(subgraph, op, layer.ofm.shape.withHeight(3));
  const auto query = ethosu::test::costQueryOf(layer, accelerator.memory(), question.block);
  const auto cost = accelerator.costModel().cycles(subgraph, op, query);
  answer.cycles = cost.cycles;
  answer.macs = cost.macs;
  answer.access = accelerator.costModel().elementAccess(subgraph, op, query);
  answer.performance =
      accelerator.costModel().estimate(subgraph, op, ethosu::test::contextOf(layer, accelerator, question.block));
  return answer;
}

std::vector<Question> questions() {
  std::vector<Question> result;
  for (const auto& layer : ethosu::test::referenceLayers()) {
    const auto graph = std::make_shared<const ethosu::test::LayerGraph>(ethosu::test::buildLayer(layer));
    const auto& accelerator = ethosu::test::acceleratorFor(layer.system);
    const npu::OperationShapes shapes{layer.ifm.shape, layer.ifm2 ? std::optional(layer.ifm2->shape) : std::nullopt,
                                      layer.ofm.shape};
    const auto candidates = accelerator.blockConfigs().candidates(graph->subgraph, graph->op(), shapes);
    // A spread of candidates per layer keeps the test quick while covering many block shapes.
    for (std::size_t i = 0; i < candidates.size(); i += 1 + candidates.size() / 8) {
      result.push_back({&layer, graph, candidates[i]});
    }
  }
  return result;
}

} // namespace

BOOST_AUTO_TEST_SUITE(concurrency)

BOOST_AUTO_TEST_CASE(many_tbb_tasks_get_the_answers_one_thread_gets) {
  const auto all = questions();
  BOOST_REQUIRE(all.size() > 100U);
  std::vector<Answer> serial;
  serial.reserve(all.size());
  for (const auto& question : all) {
    serial.push_back(ask(question));
  }
  constexpr std::size_t kRepeats = 8;
  std::vector<Answer> parallel(all.size() * kRepeats);
  tbb::parallel_for(std::size_t{0}, parallel.size(),
                    [&](std::size_t index) { parallel[index] = ask(all[index % all.size()]); });
  std::size_t differing = 0;
  for (std::size_t index = 0; index < parallel.size(); ++index) {
    differing += parallel[index] == serial[index % all.size()] ? 0 : 1;
  }
  BOOST_TEST(differing == 0U);
  BOOST_TEST_MESSAGE(parallel.size() << " concurrent queries over " << all.size() << " (layer, block config) pairs");
}

BOOST_AUTO_TEST_SUITE_END()
