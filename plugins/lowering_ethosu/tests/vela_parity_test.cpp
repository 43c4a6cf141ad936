// SPDX-License-Identifier: Apache-2.0
// Parity with Arm Vela 3.10 on the shared models (skipped when NPU_PIPELINE_MODELS is unset): for every
// model and every configuration of the reference INDEX.tsv (release vela310), the lowering with the real
// Ethos-U accelerator of that configuration must place as many operations on the NPU and the CPU as Vela
// did, and schedule as many NPU operations as Vela's per-layer CSV has rows. For C1 the sequence of NPU
// operations (TFLite operator, NNG operator, name) is compared with the per-layer CSV row by row.
#include "lowering_test_support.hpp"
#include "reference_accelerator.hpp"

#include "ethosu_lowering/lowering.hpp"
#include "frontend_tflite/model_reader.hpp"
#include "test_support.hpp"

#include "npu/ir/graph_algorithms.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace npu;
using namespace ethosu::lowering;
using ethosu::lowering::test::makeReferenceAccelerator;

namespace {

/// One row of INDEX.tsv.
struct ReferenceRow {
  std::string config;
  std::string model;
  int npuOperations = 0;
  int cpuOperations = 0;
  int npuLayers = 0;
};

/// Fields of a line, keeping empty ones (also a trailing empty field).
std::vector<std::string> splitLine(const std::string& line, char separator) {
  std::vector<std::string> fields{""};
  for (const char c : line) {
    if (c == separator) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<ReferenceRow> readIndex(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = splitLine(line, '\t');
  const auto column = [&](std::string_view name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  std::vector<ReferenceRow> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = splitLine(line, '\t');
    if (fields.size() <= column("npu_layers") || fields[column("version")] != "vela310" ||
        fields[column("status")] != "ok") {
      continue;
    }
    rows.push_back({fields[column("config")], fields[column("model")], std::stoi(fields[column("npu_ops")]),
                    std::stoi(fields[column("cpu_ops")]), std::stoi(fields[column("npu_layers")])});
  }
  return rows;
}

/// Our NPU operations as rows of Vela's per-layer CSV: "TFLite operator,NNG operator,name".
std::vector<std::string> npuOperationRows(const Graph& graph) {
  std::vector<std::string> rows;
  for (const Subgraph& subgraph : graph.subgraphs) {
    for (const Operation& op : subgraph.operations) {
      if (op.placement == Placement::Npu) {
        rows.push_back(op.sourceType + "," + std::string(nameOf(op.type)) + "," + op.name);
      }
    }
  }
  return rows;
}

/// The data rows of a Vela 3.10 per-layer CSV (the header is repeated before every further NPU subgraph).
std::vector<std::string> perLayerRows(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> rows;
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = splitLine(line, ',');
    if (fields.size() < 15 || fields[0] == "TFLite_operator") {
      continue;
    }
    std::string name = fields[14];
    for (std::size_t i = 15; i < fields.size(); ++i) {
      name += "," + fields[i];
    }
    rows.push_back(fields[0] + "," + fields[1] + "," + name);
  }
  return rows;
}

/// A row of ours matches Vela's when all three fields are equal. Vela prints an empty name for an operation
/// whose output tensor has no name in the model, where our frontend names the tensor "tensor_<index>"; then
/// only the operator columns are compared.
bool sameRow(const std::string& ours, const std::string& vela) {
  if (!vela.empty() && vela.back() == ',') {
    return ours.compare(0, vela.size(), vela) == 0;
  }
  return ours == vela;
}

/// One operation of Vela's schedule.txt: name, type, OFM shape and kernel as Vela prints them.
struct ScheduledOperation {
  std::string name;
  std::string type;
  std::string ofm;    ///< "[1, 49, 40, 1]"
  std::string kernel; ///< "w=8, h=10, stride=(2, 2), dilation=(1, 1)"
  friend bool operator==(const ScheduledOperation&, const ScheduledOperation&) = default;
};

std::ostream& operator<<(std::ostream& out, const ScheduledOperation& op) {
  return out << op.name << " " << op.type << " OFM " << op.ofm << " " << op.kernel;
}

/// The operations of every schedule in Vela's schedule.txt (one per NPU subgraph, in order).
std::vector<ScheduledOperation> scheduledOperations(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<ScheduledOperation> result;
  std::string line;
  const std::string operation = ": Operation ";
  const std::string ofm = "  - OFM <Shape4D ";
  while (std::getline(in, line)) {
    const std::size_t at = line.find(operation);
    const std::size_t ofmAt = line.rfind(ofm);
    if (line.rfind("\t", 0) == 0 && at != std::string::npos && ofmAt != std::string::npos) {
      const std::size_t nameStart = at + operation.size();
      result.push_back({line.substr(nameStart, ofmAt - nameStart),
                        {},
                        line.substr(ofmAt + ofm.size(), line.size() - ofmAt - ofm.size() - 1),
                        {}});
    } else if (!result.empty() && line.rfind("\t\tType: ", 0) == 0) {
      result.back().type = line.substr(8);
    } else if (!result.empty() && line.rfind("\t\tKernel: ", 0) == 0) {
      result.back().kernel = line.substr(10);
    }
  }
  return result;
}

/// Our NPU operations as Vela's schedule.txt describes them.
std::vector<ScheduledOperation> ourScheduledOperations(const Graph& graph) {
  std::vector<ScheduledOperation> result;
  for (const Subgraph& subgraph : graph.subgraphs) {
    for (const Operation& op : subgraph.operations) {
      if (op.placement != Placement::Npu) {
        continue;
      }
      const Shape4 shape = op.ofmShapes.empty() ? Shape4::fromShape(subgraph.tensor(op.ofm()).shape) : op.ofmShapes[0];
      const Kernel kernel = op.kernel.value_or(Kernel{});
      std::ostringstream ofm;
      ofm << "[" << shape.batch << ", " << shape.height << ", " << shape.width << ", " << shape.depth << "]";
      std::ostringstream text;
      text << "w=" << kernel.width << ", h=" << kernel.height << ", stride=(" << kernel.strideX << ", "
           << kernel.strideY << "), dilation=(" << kernel.dilationX << ", " << kernel.dilationY << ")";
      result.push_back({op.name, std::string(nameOf(op.type)), ofm.str(), text.str()});
    }
  }
  return result;
}

/// Names of the operations Vela's log.txt says it placed on the CPU ("... 'name'. Placing on CPU instead").
std::set<std::string> velaCpuPlacements(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::set<std::string> names;
  std::string line;
  const std::string suffix = "'. Placing on CPU instead";
  while (std::getline(in, line)) {
    const std::size_t end = line.rfind(suffix);
    const std::size_t begin = end == std::string::npos ? end : line.rfind(" '", end);
    if (begin != std::string::npos && end > begin + 2) {
      names.insert(line.substr(begin + 2, end - begin - 2));
    }
  }
  return names;
}

std::set<std::string> cpuOperationNames(const Graph& graph) {
  std::set<std::string> names;
  for (const Subgraph& subgraph : graph.subgraphs) {
    for (const Operation& op : subgraph.operations) {
      if (op.placement == Placement::Cpu) {
        names.insert(op.name);
      }
    }
  }
  return names;
}

/// Length of the longest common subsequence: how many rows match in order.
std::size_t matchingRows(const std::vector<std::string>& ours, const std::vector<std::string>& vela) {
  std::vector<std::size_t> previous(vela.size() + 1, 0);
  std::vector<std::size_t> current(vela.size() + 1, 0);
  for (const std::string& row : ours) {
    for (std::size_t j = 0; j < vela.size(); ++j) {
      current[j + 1] = sameRow(row, vela[j]) ? previous[j] + 1 : std::max(previous[j + 1], current[j]);
    }
    std::swap(previous, current);
  }
  return previous.back();
}

/// Differences to Vela 3.10 we know of and accept, by "config/model", with the reason.
const std::map<std::string, std::string>& knownDifferences() {
  static const std::map<std::string, std::string> differences{};
  return differences;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_parity)

BOOST_AUTO_TEST_CASE(every_shared_model_places_and_schedules_as_many_operations_as_vela_in_every_configuration) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set; skipped");
    return;
  }
  std::map<std::string, std::unique_ptr<ethosu::Accelerator>> accelerators;
  std::map<std::string, Graph> inputs;
  int compared = 0;
  int matched = 0;
  for (const ReferenceRow& row : readIndex(*reference / "INDEX.tsv")) {
    auto& accelerator = accelerators[row.config];
    if (!accelerator) {
      accelerator = makeReferenceAccelerator(row.config);
    }
    auto input = inputs.find(row.model);
    if (input == inputs.end()) {
      input = inputs.emplace(row.model, tflite_frontend::readModelFile(*models / (row.model + ".tflite"))).first;
    }
    const std::string key = row.config + "/" + row.model;
    BOOST_TEST_CONTEXT(key) {
      Graph lowered;
      BOOST_REQUIRE_NO_THROW(lowered = lowerGraph(input->second, *accelerator, LoweringOptions{true}));
      const PlacementCounts counts = countPlacements(lowered);
      // Vela writes one header row before the rows of every NPU subgraph, and its npu_layers counts the
      // rows of the file without the first header: NPU passes + NPU subgraphs - 1.
      const int velaPasses = row.npuLayers - std::max(counts.npuSubgraphs - 1, 0);
      const bool same = counts.npuOperations == row.npuOperations && counts.cpuOperations == row.cpuOperations &&
                        counts.npuPasses == velaPasses;
      ++compared;
      matched += same ? 1 : 0;
      BOOST_TEST_MESSAGE(key << ": npu_ops " << counts.npuOperations << "/" << row.npuOperations << ", cpu_ops "
                             << counts.cpuOperations << "/" << row.cpuOperations << ", npu passes " << counts.npuPasses
                             << "/" << velaPasses << (same ? "" : "  MISMATCH"));
      // Every operation Vela names in its log as placed on the CPU is on the CPU here too.
      const std::set<std::string> ourCpuOperations = cpuOperationNames(lowered);
      for (const std::string& name : velaCpuPlacements(*reference / "vela310" / row.config / row.model / "log.txt")) {
        BOOST_TEST(ourCpuOperations.count(name) == 1U, "Vela placed '" << name << "' on the CPU");
      }
      if (knownDifferences().count(key) == 0) {
        BOOST_TEST(counts.npuOperations == row.npuOperations);
        BOOST_TEST(counts.cpuOperations == row.cpuOperations);
        BOOST_TEST(counts.npuPasses == velaPasses);
      }
    }
  }
  BOOST_TEST_MESSAGE("counts equal Vela's for " << matched << "/" << compared << " model/config pairs");
  BOOST_TEST(compared > 0);
}

BOOST_AUTO_TEST_CASE(the_npu_operations_follow_the_sequence_of_velas_per_layer_csv) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set; skipped");
    return;
  }
  const auto accelerator = makeReferenceAccelerator("C1");
  std::size_t totalRows = 0;
  std::size_t totalMatching = 0;
  for (const ReferenceRow& row : readIndex(*reference / "INDEX.tsv")) {
    if (row.config != "C1") {
      continue;
    }
    const auto csv = *reference / "vela310" / "C1" / row.model / (row.model + "_per-layer.csv");
    const std::vector<std::string> vela = perLayerRows(csv);
    const Graph lowered = lowerGraph(tflite_frontend::readModelFile(*models / (row.model + ".tflite")), *accelerator);
    const std::vector<std::string> ours = npuOperationRows(lowered);
    const std::size_t matching = matchingRows(ours, vela);
    totalRows += std::max(ours.size(), vela.size());
    totalMatching += matching;
    BOOST_TEST_MESSAGE(row.model << ": " << matching << "/" << std::max(ours.size(), vela.size())
                                 << " rows match in sequence");
    BOOST_TEST(matching == std::max(ours.size(), vela.size()), row.model << ": the NPU operations differ from Vela's");
    if (matching != std::max(ours.size(), vela.size())) {
      for (std::size_t i = 0; i < std::max(ours.size(), vela.size()); ++i) {
        const std::string mine = i < ours.size() ? ours[i] : "-";
        const std::string theirs = i < vela.size() ? vela[i] : "-";
        if (!sameRow(mine, theirs)) {
          BOOST_TEST_MESSAGE("  row " << i << ": ours " << mine << " | vela " << theirs);
        }
      }
    }
  }
  BOOST_TEST_MESSAGE("sequence match: " << totalMatching << "/" << totalRows << " rows");
  BOOST_TEST(totalRows > 0);
}

BOOST_AUTO_TEST_CASE(the_npu_operations_have_velas_ofm_shapes_and_kernels) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set; skipped");
    return;
  }
  for (const std::string config : {"C1", "C3"}) {
    const auto accelerator = makeReferenceAccelerator(config);
    std::size_t total = 0;
    std::size_t same = 0;
    for (const ReferenceRow& row : readIndex(*reference / "INDEX.tsv")) {
      const auto schedule = *reference / "vela310" / config / row.model / "schedule.txt";
      if (row.config != config || !std::filesystem::exists(schedule)) {
        continue;
      }
      BOOST_TEST_CONTEXT(config << "/" << row.model) {
        const std::vector<ScheduledOperation> vela = scheduledOperations(schedule);
        const std::vector<ScheduledOperation> ours = ourScheduledOperations(
            lowerGraph(tflite_frontend::readModelFile(*models / (row.model + ".tflite")), *accelerator));
        BOOST_TEST(ours.size() == vela.size());
        for (std::size_t i = 0; i < std::min(ours.size(), vela.size()); ++i) {
          ++total;
          // Vela prints an empty name where the model's tensor has none (see sameRow).
          const bool match = ours[i].type == vela[i].type && ours[i].ofm == vela[i].ofm &&
                             ours[i].kernel == vela[i].kernel && (vela[i].name.empty() || ours[i].name == vela[i].name);
          same += match ? 1 : 0;
          BOOST_TEST(match, "operation " << i << ": ours " << ours[i] << " | vela " << vela[i]);
        }
      }
    }
    BOOST_TEST_MESSAGE(config << ": " << same << "/" << total
                              << " scheduled operations have Vela's OFM shape and kernel");
  }
}

BOOST_AUTO_TEST_SUITE_END()
