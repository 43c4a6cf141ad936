// Exactness against Vela 3.10: for every NPU operation with weights in the reference schedules
// (/work/shared/reference/vela310/<config>/<model>/schedule.txt), the encoded size for Vela's block
// config and depth slices equals Vela's "Encoded Weights". Operations are found by name in the graph of
// the TFLite frontend (loaded as a plugin); operations that only exist after Vela's rewrites (pooling or
// mean turned into convolutions, LSTM/SVDF internals, first-layer stride folding) are counted and
// listed as not checked. Runs only when NPU_PIPELINE_MODELS is set.

#include "vela_schedule.hpp"

#include "ethosu/weights/weight_encoder.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/plugin/frontend.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace {

using ethosu::weights::EthosUWeightEncoder;
using ethosu::weights::WeightEncoderConfig;
using ethosu::weights::test::ScheduledOperation;

struct ReferenceConfig {
  const char* name;
  WeightEncoderConfig encoder; ///< Vela's architecture_features.py accelerator_configs
};
// C1: Ethos-U55-128 (1 core, OFM micro-block depth 8); C3: Ethos-U65-256 (1 core, depth 8).
const ReferenceConfig kConfigs[] = {{"C1", {1, 8, 8, 8, 8}}, {"C3", {1, 8, 8, 8, 8}}};

struct OperationRef {
  const npu::Subgraph* subgraph = nullptr;
  const npu::Operation* op = nullptr;
};

/// The frontend plugin, loaded once from the build tree.
const npu::FrontendPlugin* tfliteFrontend() {
  static npu::PluginHost host;
  static const npu::FrontendPlugin* frontend = [] {
    host.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
    host.loadSearchPath(npu::PluginHost::defaultSearchPath());
    return static_cast<const npu::FrontendPlugin*>(host.find(npu::PluginKind::Frontend, "frontend_tflite"));
  }();
  return frontend;
}

int kernelWidthOf(const npu::Subgraph& subgraph, const npu::Operation& op) {
  const npu::Shape& shape = subgraph.tensor(op.weights()).shape;
  return shape.rank() == 4 ? shape[2] : 1;
}
int kernelHeightOf(const npu::Subgraph& subgraph, const npu::Operation& op) {
  const npu::Shape& shape = subgraph.tensor(op.weights()).shape;
  return shape.rank() == 4 ? shape[1] : 1;
}

/// Why Vela's operation is not the frontend's operation (empty when it is, 1:1).
std::string mismatch(const ScheduledOperation& scheduled, const OperationRef& found) {
  if (found.op == nullptr) {
    return "no operation of that name before Vela's rewrites";
  }
  const npu::Operation& op = *found.op;
  if (!found.subgraph->validTensorId(op.weights())) {
    return "rewritten by Vela into an operation with weights (" + scheduled.type + " from " + op.sourceType + ")";
  }
  const bool convolution = op.type == npu::OpType::Conv2DBias || op.type == npu::OpType::DepthwiseConv2DBias ||
                           op.type == npu::OpType::FullyConnected;
  if (!convolution) {
    return "a " + op.sourceType + " that Vela rewrote";
  }
  if (scheduled.type != "FullyConnected" &&
      (scheduled.kernelWidth != kernelWidthOf(*found.subgraph, op) ||
       scheduled.kernelHeight != kernelHeightOf(*found.subgraph, op))) {
    return "kernel rewritten by Vela (first-layer stride folding)";
  }
  if (op.kernel && (op.kernel->dilationX != scheduled.dilationX || op.kernel->dilationY != scheduled.dilationY)) {
    return "dilation rewritten by Vela";
  }
  return {};
}

struct Tally {
  int checked = 0;
  int matched = 0;
  std::map<std::string, int> notChecked; ///< reason -> count
  std::vector<std::string> failures;
};

struct ModelResult {
  std::int64_t encodedTotal = 0; ///< checked operations, shared encodings counted once
  bool complete = true;          ///< every operation with weights was checked
};

ModelResult checkModel(const ReferenceConfig& config, const std::filesystem::path& referenceDir,
                       const std::filesystem::path& modelFile, Tally& tally) {
  const npu::Graph graph = tfliteFrontend()->read(modelFile, {});
  std::map<std::string, OperationRef> byName;
  for (const npu::Subgraph& subgraph : graph.subgraphs) {
    for (const npu::Operation& op : subgraph.operations) {
      byName.emplace(op.name, OperationRef{&subgraph, &op});
    }
  }
  const EthosUWeightEncoder encoder(config.encoder);
  ModelResult result;
  // Vela caches encodings by weights, block depth and slicing, and counts each cached one once.
  std::set<std::tuple<const npu::Tensor*, int, std::vector<int>>> counted;
  for (const ScheduledOperation& scheduled : ethosu::weights::test::readSchedule(referenceDir / "schedule.txt")) {
    if (!scheduled.encodedWeights) {
      continue;
    }
    std::string name = scheduled.name;
    if (scheduled.type == "FullyConnected" && !byName.contains(name) && name.ends_with("_fc")) {
      name.resize(name.size() - 3); // a 1x1 convolution over a 1x1 IFM that Vela made fully connected
    }
    const auto it = byName.find(name);
    const OperationRef found = it == byName.end() ? OperationRef{} : it->second;
    if (const std::string reason = mismatch(scheduled, found); !reason.empty()) {
      ++tally.notChecked[scheduled.type + ": " + reason];
      result.complete = false;
      continue;
    }
    npu::BlockConfig block;
    block.ofmBlock = npu::Shape4(1, scheduled.blockConfig[0], scheduled.blockConfig[1], scheduled.blockConfig[3]);
    const npu::EncodedWeights encoded =
        encoder.encode(*found.subgraph, *found.op, block, scheduled.depthSlices, false);
    ++tally.checked;
    if (encoded.totalBytes == *scheduled.encodedWeights) {
      ++tally.matched;
    } else {
      std::ostringstream failure;
      failure << config.name << " " << modelFile.stem().string() << " '" << scheduled.name << "': " << encoded.totalBytes
              << " bytes, Vela " << *scheduled.encodedWeights;
      tally.failures.push_back(failure.str());
    }
    const npu::Tensor* weights = &found.subgraph->tensor(found.op->weights());
    const int blockDepth = std::min(scheduled.blockConfig[3], weights->shape[0]);
    if (counted.emplace(weights, blockDepth, scheduled.depthSlices).second) {
      result.encodedTotal += encoded.totalBytes;
    }
  }
  return result;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_reference)

BOOST_AUTO_TEST_CASE(encoded_weight_sizes_equal_vela_for_every_operation_that_maps_one_to_one) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set: skipping the comparison with Vela");
    return;
  }
  BOOST_REQUIRE_MESSAGE(tfliteFrontend() != nullptr,
                        "the frontend_tflite plugin was not found under the build tree; build it first");
  for (const ReferenceConfig& config : kConfigs) {
    Tally tally;
    const std::filesystem::path configDir = *reference / "vela310" / config.name;
    std::vector<std::filesystem::path> modelDirs;
    for (const auto& entry : std::filesystem::directory_iterator(configDir)) {
      modelDirs.push_back(entry.path());
    }
    std::sort(modelDirs.begin(), modelDirs.end());
    for (const std::filesystem::path& modelDir : modelDirs) {
      const std::filesystem::path modelFile = *models / (modelDir.filename().string() + ".tflite");
      if (!std::filesystem::exists(modelDir / "schedule.txt") || !std::filesystem::exists(modelFile)) {
        continue;
      }
      const ModelResult result = checkModel(config, modelDir, modelFile, tally);
      std::string summary;
      for (const auto& entry : std::filesystem::directory_iterator(modelDir)) {
        if (entry.path().filename().string().find("_summary_") != std::string::npos) {
          summary = ethosu::weights::test::summaryValue(entry.path(), "total_npu_encoded_weights").value_or("");
        }
      }
      std::cout << config.name << " " << modelDir.filename().string() << ": encoded " << result.encodedTotal
                << (result.complete ? "" : " (checked operations only)") << ", Vela total " << summary << "\n";
      if (result.complete && !summary.empty()) {
        BOOST_TEST(std::to_string(result.encodedTotal) == summary, config.name << " " << modelDir.filename().string());
      }
    }
    std::cout << config.name << ": " << tally.matched << "/" << tally.checked << " weight streams equal Vela's size\n";
    for (const auto& [reason, count] : tally.notChecked) {
      std::cout << "  not checked: " << count << " x " << reason << "\n";
    }
    for (const std::string& failure : tally.failures) {
      std::cout << "  MISMATCH " << failure << "\n";
    }
    BOOST_TEST(tally.failures.empty());
    BOOST_TEST(tally.checked > 0);
  }
}

BOOST_AUTO_TEST_SUITE_END()
