// SPDX-License-Identifier: Apache-2.0
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
#include "npu/plugin/lowering.hpp"

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
  const char* variant;
  WeightEncoderConfig encoder; ///< Vela's architecture_features.py accelerator_configs
};
// C1: Ethos-U55-128 (1 core, OFM micro-block depth 8); C3: Ethos-U65-256 (1 core, depth 8).
const ReferenceConfig kConfigs[] = {{"C1", "ethos-u55-128", {1, 8, 8, 8, 8}},
                                    {"C3", "ethos-u65-256", {1, 8, 8, 8, 8}}};

struct OperationRef {
  const npu::Subgraph* subgraph = nullptr;
  const npu::Operation* op = nullptr;
};

npu::PluginHost& pluginHost() {
  static npu::PluginHost host = [] {
    npu::PluginHost loaded;
    loaded.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
    loaded.loadSearchPath(npu::PluginHost::defaultSearchPath());
    return loaded;
  }();
  return host;
}

/// The frontend plugin, loaded once from the build tree.
const npu::FrontendPlugin* tfliteFrontend() {
  return static_cast<const npu::FrontendPlugin*>(pluginHost().find(npu::PluginKind::Frontend, "frontend_tflite"));
}

std::string refusedPlugins() {
  std::string text;
  for (const npu::RefusedPlugin& refused : pluginHost().refused()) {
    text += "; refused " + refused.path.filename().string() + ": " + refused.reason;
  }
  return text;
}

/// The Ethos-U lowering plugin, when it was built: it makes the operations Vela creates by rewriting.
const npu::LoweringPlugin* ethosuLowering() {
  return static_cast<const npu::LoweringPlugin*>(pluginHost().find(npu::PluginKind::Lowering, "ethosu_lowering"));
}

/// Just enough accelerator for the lowering: it runs everything on the NPU (the operations compared
/// are the ones Vela placed there).
class LoweringOnlyAccelerator final : public npu::Accelerator {
public:
  explicit LoweringOnlyAccelerator(std::string variant) { info_.variant = std::move(variant); }
  [[nodiscard]] const npu::AcceleratorInfo& info() const override { return info_; }
  [[nodiscard]] const npu::MemorySystem& memory() const override { unavailable("memory system"); }
  [[nodiscard]] const npu::OperatorSupport& support() const override { return support_; }
  [[nodiscard]] const npu::TensorLayout& layout() const override { unavailable("tensor layout"); }
  [[nodiscard]] const npu::BlockConfigSelector& blockConfigs() const override { unavailable("block configs"); }
  [[nodiscard]] const npu::WeightEncoder& weights() const override { unavailable("weight encoder"); }
  [[nodiscard]] const npu::CostModel& costModel() const override { unavailable("cost model"); }

private:
  class EverythingSupported final : public npu::OperatorSupport {
  public:
    [[nodiscard]] npu::SupportVerdict check(const npu::Subgraph&, const npu::Operation&) const override { return {}; }
  };
  [[noreturn]] static void unavailable(const char* what) {
    npu::throwInternalError(std::string("the lowering-only test accelerator has no ") + what);
  }
  npu::AcceleratorInfo info_;
  EverythingSupported support_;
};

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
    return "no operation of that name in the graph";
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

  void print(const std::string& title) const {
    std::cout << title << ": " << matched << "/" << checked << " weight streams equal Vela's size\n";
    for (const auto& [reason, count] : notChecked) {
      std::cout << "  not checked: " << count << " x " << reason << "\n";
    }
    for (const std::string& failure : failures) {
      std::cout << "  MISMATCH " << failure << "\n";
    }
  }
};

struct ModelResult {
  std::int64_t encodedTotal = 0; ///< checked operations, shared encodings counted once
  bool complete = true;          ///< every operation with weights was checked
};

using OperationsByName = std::map<std::string, OperationRef>;

OperationsByName indexByName(const npu::Graph& graph) {
  OperationsByName byName;
  for (const npu::Subgraph& subgraph : graph.subgraphs) {
    for (const npu::Operation& op : subgraph.operations) {
      byName.emplace(op.name, OperationRef{&subgraph, &op});
    }
  }
  return byName;
}

/// Compares the encoded size of every scheduled operation found in `operations` with Vela's.
ModelResult compareWithSchedule(const ReferenceConfig& config, const std::vector<ScheduledOperation>& schedule,
                                const OperationsByName& operations, const std::string& model, Tally& tally) {
  const EthosUWeightEncoder encoder(config.encoder);
  ModelResult result;
  // Vela caches encodings by weights, block depth and slicing, and counts each cached one once.
  std::set<std::tuple<const npu::Tensor*, int, std::vector<int>>> counted;
  for (const ScheduledOperation& scheduled : schedule) {
    if (!scheduled.encodedWeights) {
      continue;
    }
    std::string name = scheduled.name;
    if (scheduled.type == "FullyConnected" && !operations.contains(name) && name.ends_with("_fc")) {
      name.resize(name.size() - 3); // a 1x1 convolution over a 1x1 IFM that Vela made fully connected
    }
    const auto it = operations.find(name);
    const OperationRef found = it == operations.end() ? OperationRef{} : it->second;
    if (const std::string reason = mismatch(scheduled, found); !reason.empty()) {
      ++tally.notChecked[scheduled.type + ": " + reason];
      result.complete = false;
      continue;
    }
    npu::BlockConfig block;
    block.ofmBlock = npu::Shape4(1, scheduled.blockConfig[0], scheduled.blockConfig[1], scheduled.blockConfig[3]);
    npu::EncodedWeights encoded;
    try {
      encoded = encoder.encode(*found.subgraph, *found.op, block, scheduled.depthSlices, false);
    } catch (const npu::Error& error) {
      encoded.totalBytes = -1;
      tally.failures.push_back(model + " '" + scheduled.name + "': " + error.render());
    }
    ++tally.checked;
    if (encoded.totalBytes == *scheduled.encodedWeights) {
      ++tally.matched;
    } else if (encoded.totalBytes >= 0) {
      std::ostringstream failure;
      failure << config.name << " " << model << " '" << scheduled.name << "': " << encoded.totalBytes << " bytes, Vela "
              << *scheduled.encodedWeights;
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

std::string velaTotal(const std::filesystem::path& modelDir) {
  for (const auto& entry : std::filesystem::directory_iterator(modelDir)) {
    if (entry.path().filename().string().find("_summary_") != std::string::npos) {
      return ethosu::weights::test::summaryValue(entry.path(), "total_npu_encoded_weights").value_or("");
    }
  }
  return {};
}

std::vector<std::filesystem::path> modelDirectories(const std::filesystem::path& configDir) {
  std::vector<std::filesystem::path> modelDirs;
  for (const auto& entry : std::filesystem::directory_iterator(configDir)) {
    if (std::filesystem::exists(entry.path() / "schedule.txt")) {
      modelDirs.push_back(entry.path());
    }
  }
  std::sort(modelDirs.begin(), modelDirs.end());
  return modelDirs;
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
                        "the frontend_tflite plugin was not found or refused under the build tree (build it with "
                        "the current headers first)" << refusedPlugins());
  for (const ReferenceConfig& config : kConfigs) {
    Tally tally;
    for (const std::filesystem::path& modelDir : modelDirectories(*reference / "vela310" / config.name)) {
      const std::string model = modelDir.filename().string();
      const std::filesystem::path modelFile = *models / (model + ".tflite");
      if (!std::filesystem::exists(modelFile)) {
        continue;
      }
      const npu::Graph graph = tfliteFrontend()->read(modelFile, {});
      const ModelResult result = compareWithSchedule(config, ethosu::weights::test::readSchedule(modelDir / "schedule.txt"),
                                                     indexByName(graph), model, tally);
      const std::string total = velaTotal(modelDir);
      std::cout << config.name << " " << model << ": encoded " << result.encodedTotal
                << (result.complete ? "" : " (checked operations only)") << ", Vela total " << total << "\n";
      if (result.complete && !total.empty()) {
        BOOST_TEST(std::to_string(result.encodedTotal) == total, config.name << " " << model);
      }
    }
    tally.print(config.name);
    BOOST_TEST(tally.failures.empty());
    BOOST_TEST(tally.checked > 0);
  }
}

// The graph the schedulers will see is the lowered one: there, the operations Vela creates by
// rewriting (stride folding, pooling as convolution, ...) exist too, and must encode exactly as well.
BOOST_AUTO_TEST_CASE(encoded_weight_sizes_of_the_lowered_graph_equal_vela) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference || tfliteFrontend() == nullptr || ethosuLowering() == nullptr) {
    BOOST_TEST_MESSAGE("models or the frontend/lowering plugins are missing: skipping the lowered comparison"
                       << refusedPlugins());
    return;
  }
  for (const ReferenceConfig& config : kConfigs) {
    const LoweringOnlyAccelerator accelerator(config.variant);
    Tally tally;
    std::int64_t totalEncoded = 0;
    std::int64_t totalVela = 0;
    int completeModels = 0;
    for (const std::filesystem::path& modelDir : modelDirectories(*reference / "vela310" / config.name)) {
      const std::string model = modelDir.filename().string();
      const std::filesystem::path modelFile = *models / (model + ".tflite");
      if (!std::filesystem::exists(modelFile)) {
        continue;
      }
      npu::Graph lowered;
      try {
        lowered = ethosuLowering()->lower(tfliteFrontend()->read(modelFile, {}), accelerator, {});
      } catch (const npu::Error& error) {
        ++tally.notChecked["lowering failed for " + model + ": " + error.message()];
        continue;
      }
      const ModelResult result = compareWithSchedule(config, ethosu::weights::test::readSchedule(modelDir / "schedule.txt"),
                                                     indexByName(lowered), model, tally);
      const std::string total = velaTotal(modelDir);
      std::cout << config.name << " lowered " << model << ": encoded " << result.encodedTotal
                << (result.complete ? "" : " (checked operations only)") << ", Vela total " << total << "\n";
      if (result.complete && !total.empty()) {
        ++completeModels;
        totalEncoded += result.encodedTotal;
        totalVela += std::stoll(total);
      }
    }
    tally.print(std::string(config.name) + " lowered");
    std::cout << config.name << " lowered: " << completeModels << " models fully checked, encoded " << totalEncoded
              << " bytes, Vela " << totalVela << "\n";
    BOOST_TEST(tally.failures.empty());
    BOOST_TEST(totalEncoded == totalVela);
  }
}

BOOST_AUTO_TEST_SUITE_END()
