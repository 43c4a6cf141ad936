// SPDX-License-Identifier: Apache-2.0
// The lower bound (CostModel::bound) is a real lower bound of the cost model's own estimate: for every
// layer of the generated networks, and of the shared models when NPU_PIPELINE_MODELS is set, under every
// reference pipeline, the estimate is at least the layer's bound, and the network's estimate at least
// the network's bound.

#include "generated_networks.hpp"

#include "npu/core/diagnostics.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> referencePipelines() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(npu::test::sourceDir() / "configs" / "reference")) {
    if (entry.path().extension() == ".yaml") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<fs::path> modelsIn(const fs::path& folder) {
  std::vector<fs::path> models;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".tflite") {
      models.push_back(entry.path());
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

/// Compiles `model` with configs/reference/<pipeline>.yaml, without code generation (the bound and the
/// estimate come from the evaluation before it).
npu::Compilation compileWithoutCodegen(npu::PluginHost& host, const fs::path& model, const std::string& pipeline) {
  npu::PipelineSpec spec =
      npu::parsePipelineFile(npu::test::sourceDir() / "configs" / "reference" / (pipeline + ".yaml"));
  std::erase_if(spec.stages, [](const npu::StageSpec& stage) { return stage.kind == npu::PluginKind::Codegen; });
  const npu::ResolvedPipeline resolved = npu::resolvePipeline(spec, host, npu::defaultConfigSearchPath());
  npu::SilentProgress progress;
  return npu::compileModel(resolved, model, progress);
}

// Rounding noise of the estimate's sums, far below a cycle.
constexpr double kTolerance = 1e-6;

void requireEstimatesAboveBounds(const std::vector<fs::path>& models) {
  npu::PluginHost host;
  host.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
  const auto pipelines = referencePipelines();
  BOOST_TEST_REQUIRE(!pipelines.empty());
  for (const fs::path& model : models) {
    for (const std::string& pipeline : pipelines) {
      BOOST_TEST_CONTEXT(model.filename().string() << " with " << pipeline) {
        npu::Compilation compilation;
        try {
          compilation = compileWithoutCodegen(host, model, pipeline);
        } catch (const npu::Error& error) {
          // A model that does not compile under a configuration has no estimate to bound.
          BOOST_TEST_MESSAGE("not compiled: " << error.what());
          continue;
        }
        const npu::NetworkReport& report = *compilation.report;
        for (const npu::LayerReport& layer : report.layers) {
          BOOST_TEST_CONTEXT("layer " << layer.name << " (" << layer.irType << "), bound by "
                                      << npu::nameOf(layer.bound.boundBy())) {
            const double estimate = layer.performance.cycle(npu::CycleComponent::Total);
            BOOST_TEST(estimate + kTolerance * std::max(1.0, estimate) >= layer.bound.total());
          }
        }
        const double bound = report.bound.total();
        BOOST_TEST(report.totalCycles() + kTolerance * std::max(1.0, bound) >= bound);
        BOOST_TEST((report.layers.empty() || bound > 0.0));
      }
    }
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(lower_bound)

BOOST_AUTO_TEST_CASE(every_layer_of_the_generated_networks_is_estimated_at_or_above_its_bound) {
  requireEstimatesAboveBounds(modelsIn(npu::test::generated::folder() / "networks"));
}

BOOST_AUTO_TEST_CASE(every_layer_of_the_shared_models_is_estimated_at_or_above_its_bound_in_every_reference_config) {
  const auto models = npu::test::sharedModelsDir();
  if (!models) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set: skipped");
    return;
  }
  requireEstimatesAboveBounds(modelsIn(*models));
}

BOOST_AUTO_TEST_SUITE_END()
