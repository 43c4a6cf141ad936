// SPDX-License-Identifier: Apache-2.0
// Agreement with Vela 3.10 on real models: for every model in NPU_PIPELINE_MODELS, the operators the
// checks place on the CPU, and the lines they log for it, equal what Vela logged when it compiled the
// model (/work/shared/reference/vela310/<config>/<model>/log.txt): "Warning: ... Placing on CPU
// instead" with its constraint and detail lines, "Info: ... is a CPU only op", "... has asymmetric
// weights". The graph comes straight from the TFLite frontend (loaded as a plugin), as the checks
// expect. Skipped when NPU_PIPELINE_MODELS is unset or the frontend plugin has not been built.

#include "test_graph.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/plugin/frontend.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace ethosu::test {
namespace {

/// One CPU placement as logged: the operator's TFLite type and name, and the full text of the entry.
struct Placement {
  std::string type;
  std::string name;
  std::string text;
};

const npu::FrontendPlugin* tfliteFrontend() {
  static npu::PluginHost host = [] {
    npu::PluginHost loaded;
    loaded.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
    return loaded;
  }();
  return static_cast<const npu::FrontendPlugin*>(host.find(npu::PluginKind::Frontend, "frontend_tflite"));
}

/// The CPU placements of a Vela log: each header line with the indented lines that follow it.
std::vector<Placement> placementsInLog(const std::filesystem::path& log) {
  static const std::regex semantic(
      R"(^Warning: Unsupported TensorFlow Lite semantics for (\S+) '(.*)'\. Placing on CPU instead$)");
  static const std::regex constraint(R"(^Warning: (\S+) '(.*)' is not supported on the NPU\. Placing on CPU instead$)");
  static const std::regex cpuOnly(R"(^Info: (\S+) '(.*)' is a CPU only op$)");
  static const std::regex asymmetric(R"(^Warning: Op (\S+) '(.*)' has asymmetric weights\..*$)");
  std::vector<Placement> placements;
  bool entryOpen = false; // indented lines right after a warning are its constraint and detail
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (std::regex_match(line, match, semantic) || std::regex_match(line, match, constraint) ||
        std::regex_match(line, match, cpuOnly) || std::regex_match(line, match, asymmetric)) {
      placements.push_back({match[1], match[2], line + "\n"});
      entryOpen = line.starts_with("Warning: ") && !line.starts_with("Warning: Op ");
    } else if (entryOpen && line.starts_with(" ")) {
      placements.back().text += line + "\n";
    } else {
      entryOpen = false;
    }
  }
  return placements;
}

/// The graph with Vela's names: the frontend names an unnamed tensor "tensor_<index>", Vela leaves it
/// (and the operation named after it) empty.
npu::Graph withVelaNames(npu::Graph graph) {
  for (npu::Subgraph& subgraph : graph.subgraphs) {
    for (std::size_t index = 0; index < subgraph.tensors.size(); ++index) {
      if (subgraph.tensors[index].name == "tensor_" + std::to_string(index)) {
        subgraph.tensors[index].name.clear();
      }
    }
    for (npu::Operation& op : subgraph.operations) {
      if (!op.outputs.empty() && subgraph.tensor(op.outputs.front()).name.empty()) {
        op.name.clear();
      }
    }
  }
  return graph;
}

/// The CPU placements our checks make on the frontend's graph, worded like Vela's log.
std::vector<Placement> placementsOfChecks(const npu::Graph& graph) {
  const OperatorSupportChecker checker;
  std::vector<Placement> placements;
  for (const npu::Subgraph& subgraph : graph.subgraphs) {
    for (const npu::Operation& op : subgraph.operations) {
      const SupportDiagnosis diagnosis = checker.diagnose(subgraph, op);
      if (!diagnosis.supported) {
        const std::string type = diagnosis.stage == SupportStage::AsymmetricWeights ? std::string(npu::nameOf(op.type))
                                                                                    : tfliteOperatorName(op);
        placements.push_back({type, op.name, velaLogText(diagnosis, op)});
      }
    }
  }
  return placements;
}

struct Comparison {
  int logged = 0;   ///< CPU placements in Vela's log
  int placed = 0;   ///< of which our checks also place on the CPU
  int sameText = 0; ///< of which our log text is Vela's, character for character
  std::vector<std::string> differences;
};

void compare(const std::string& model, std::vector<Placement> vela, std::vector<Placement> ours, Comparison& result) {
  result.logged += static_cast<int>(vela.size());
  for (const Placement& logged : vela) {
    const auto sameOperator = [&](const Placement& p) { return p.type == logged.type && p.name == logged.name; };
    auto found = std::find_if(ours.begin(), ours.end(),
                              [&](const Placement& p) { return sameOperator(p) && p.text == logged.text; });
    if (found != ours.end()) {
      ++result.placed;
      ++result.sameText;
    } else if ((found = std::find_if(ours.begin(), ours.end(), sameOperator)) != ours.end()) {
      ++result.placed;
      result.differences.push_back(model + ": other reason for " + logged.type + " '" + logged.name + "'\n  Vela:\n" +
                                   logged.text + "  ours:\n" + found->text);
    } else {
      result.differences.push_back(model + ": not placed on the CPU: " + logged.text);
      continue;
    }
    ours.erase(found);
  }
  for (const Placement& extra : ours) {
    result.differences.push_back(model + ": placed on the CPU but not by Vela: " + extra.text);
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_reference)

BOOST_AUTO_TEST_CASE(cpu_placements_and_their_reasons_equal_vela_on_every_shared_model) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set: skipping the comparison with Vela's logs");
    return;
  }
  BOOST_TEST_REQUIRE(
      tfliteFrontend() != nullptr,
      "the frontend_tflite plugin was not found or was refused (stale ABI); build the frontend_tflite target");
  // the checks take no configuration, so each model is read and checked once for every Vela config
  std::map<std::string, std::vector<Placement>> ours;
  for (const auto& entry : std::filesystem::directory_iterator(*models)) {
    if (entry.path().extension() == ".tflite") {
      ours[entry.path().stem().string()] = placementsOfChecks(withVelaNames(tfliteFrontend()->read(entry.path(), {})));
    }
  }
  std::set<std::filesystem::path> configDirs;
  for (const auto& entry : std::filesystem::directory_iterator(*reference / "vela310")) {
    configDirs.insert(entry.path());
  }
  for (const std::filesystem::path& configDir : configDirs) {
    Comparison result;
    int modelCount = 0;
    for (const auto& [model, placements] : ours) {
      const std::filesystem::path log = configDir / model / "log.txt";
      if (std::filesystem::exists(log)) {
        ++modelCount;
        compare(model, placementsInLog(log), placements, result);
      }
    }
    const std::string config = configDir.filename().string();
    std::cout << config << ": " << modelCount << " models, " << result.placed << "/" << result.logged
              << " logged CPU placements reproduced, " << result.sameText << "/" << result.logged
              << " with Vela's exact text\n";
    for (const std::string& difference : result.differences) {
      std::cout << "  " << difference;
    }
    BOOST_TEST(result.differences.empty(), config);
    BOOST_TEST(result.logged > 0, config);
  }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace ethosu::test
