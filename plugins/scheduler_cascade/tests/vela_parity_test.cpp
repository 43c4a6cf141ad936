// SPDX-License-Identifier: Apache-2.0
// The cascade scheduler on the shared real models through the whole pipeline (frontend, Ethos-U
// lowering and accelerator, hill-climb allocator), against what Vela 3.10 reported: total cycles and
// SRAM peak (INDEX.tsv) and, per operation, block config, stripes, cascades and weight buffers
// (schedule.txt). Skipped when NPU_PIPELINE_MODELS is unset.

#include "test_support.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/pipeline/pipeline.hpp"
#include "npu/report/writers.hpp"

#include <tbb/global_control.h>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace {

namespace fs = std::filesystem;

/// Models and configurations checked: cascading (C5, C3), weight buffering and spilling (C3), LSTM
/// state (C3), CPU operators between NPU regions (svdf), a CPU-only model, an ARG_MAX over a 513x513
/// map whose flattened intermediates must stay in the linear format (deeplab).
const std::vector<std::pair<std::string, std::string>> kCases = {
    {"C1", "mlperf_tiny_ic_resnet8_int8"},      {"C2", "mlperf_tiny_ic_resnet8_int8"},
    {"C3", "mlperf_tiny_ic_resnet8_int8"},      {"C4", "mlperf_tiny_kws_dscnn_int8"},
    {"C5", "nc_mobilenet_v2_224_int8"},         {"C3", "nc_mobilenet_v2_224_int8"},
    {"C5", "coral_mobilenet_v1_075_192_uint8"}, {"C3", "tflm_mnist_lstm_int8"},
    {"C1", "tflm_keyword_scrambled_svdf_int8"}, {"C1", "mlperf_mobile_mobilenet_edgetpu_224_uint8"},
    {"C1", "tflm_person_detect_int8"},          {"C1", "coral_deeplabv3_mnv2_dm05_pascal_uint8"},
};

struct Reference {
  double cycles = 0.0;
  double sramPeak = 0.0;
};

std::map<std::pair<std::string, std::string>, Reference> readIndex(const fs::path& file) {
  std::map<std::pair<std::string, std::string>, Reference> index;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::stringstream s(line); std::getline(s, line, '\t');) {
    header.push_back(line);
  }
  std::string row;
  while (std::getline(in, row)) {
    std::vector<std::string> cells;
    std::stringstream s(row);
    for (std::string cell; std::getline(s, cell, '\t');) {
      cells.push_back(cell);
    }
    std::map<std::string, std::string> fields;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) {
      fields[header[i]] = cells[i];
    }
    if (fields["version"] == "vela310" && fields["status"] == "ok") {
      index[{fields["config"], fields["model"]}] =
          Reference{std::stod(fields["total_cycles"]), std::stod(fields["sram_peak_bytes"])};
    }
  }
  return index;
}

/// Vela's per-operation decisions from its --verbose-schedule output.
struct VelaOperation {
  std::string ofmBlock;
  std::string ofmStripe;
  std::string ifmStripe;
  std::vector<std::int64_t> buffers;
  std::pair<int, int> cascade; ///< (schedule, Vela's cascade id)
};

std::vector<VelaOperation> readSchedule(const fs::path& file) {
  std::vector<VelaOperation> ops;
  std::ifstream in(file);
  const std::regex shape(R"(\[([\d, ]+)\])");
  int schedule = 0;
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    const auto valueOf = [&](const std::string& text) {
      return std::regex_search(text, match, shape) ? match[1].str() : std::string();
    };
    if (line.starts_with("Schedule:")) {
      ++schedule;
    } else if (line.find(": Operation ") != std::string::npos && line.starts_with("\t")) {
      ops.emplace_back();
    } else if (!ops.empty() && line.find("OFM Block") != std::string::npos) {
      ops.back().ofmBlock = valueOf(line);
    } else if (!ops.empty() && line.find("IFM Stripe") != std::string::npos) {
      ops.back().ifmStripe = valueOf(line);
    } else if (!ops.empty() && line.find("OFM Stripe") != std::string::npos) {
      ops.back().ofmStripe = valueOf(line);
    } else if (!ops.empty() && line.find("Weight buffer") != std::string::npos) {
      ops.back().buffers.push_back(std::stoll(line.substr(line.find('=') + 1)));
    } else if (!ops.empty() && line.find("Assigned Cascade") != std::string::npos) {
      ops.back().cascade = {schedule, std::stoi(line.substr(line.find('=') + 1))};
    }
  }
  return ops;
}

std::string shapeText(const npu::Shape4& shape) {
  return std::to_string(shape.batch) + ", " + std::to_string(shape.height) + ", " + std::to_string(shape.width) + ", " +
         std::to_string(shape.depth);
}

class Pipelines {
public:
  Pipelines() { host_.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins"); }

  npu::Compilation compile(const std::string& config, const fs::path& model) {
    const npu::PipelineSpec spec =
        npu::parsePipelineFile(npu::test::sourceDir() / "configs" / "reference" / (config + "-cascade.yaml"));
    const npu::ResolvedPipeline pipeline = npu::resolvePipeline(spec, host_, npu::defaultConfigSearchPath());
    npu::SilentProgress progress;
    return npu::compileModel(pipeline, model, progress);
  }

private:
  npu::PluginHost host_;
};

double relativeError(double ours, double vela) {
  return vela == 0.0 ? (ours == 0.0 ? 0.0 : 1.0) : std::abs(ours - vela) / vela;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_parity)

BOOST_AUTO_TEST_CASE(total_cycles_sram_peaks_and_per_operation_decisions_match_vela) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set: skipping the comparison with Vela");
    return;
  }
  const auto index = readIndex(*reference / "INDEX.tsv");
  Pipelines pipelines;
  for (const auto& [config, model] : kCases) {
    const auto expected = index.find({config, model});
    BOOST_REQUIRE(expected != index.end());
    const npu::Compilation compilation = pipelines.compile(config, *models / (model + ".tflite"));
    const npu::NetworkReport& report = *compilation.report;
    const double sram = static_cast<double>(report.memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)]);
    BOOST_TEST_MESSAGE(config << " " << model << ": cycles " << report.totalCycles() << " (Vela "
                              << expected->second.cycles << "), SRAM " << sram << " (Vela " << expected->second.sramPeak
                              << ")");
    BOOST_TEST(relativeError(report.totalCycles(), expected->second.cycles) <= 0.02, config << " " << model);
    BOOST_TEST(relativeError(sram, expected->second.sramPeak) <= 0.02, config << " " << model);

    const fs::path schedule = *reference / "vela310" / config / model / "schedule.txt";
    if (!fs::exists(schedule)) {
      continue;
    }
    const auto vela = readSchedule(schedule);
    BOOST_REQUIRE_EQUAL(vela.size(), report.layers.size());
    std::map<std::pair<int, int>, std::size_t> velaCascadeStart;
    std::map<std::pair<std::string, int>, std::size_t> ourCascadeStart;
    for (std::size_t i = 0; i < vela.size(); ++i) {
      const npu::LayerReport& layer = report.layers[i];
      const npu::ScheduledOperation& op = layer.schedule;
      BOOST_TEST(vela[i].ofmBlock == shapeText(op.blockConfig.ofmBlock), config << " " << model << " op " << i);
      BOOST_TEST(vela[i].ofmStripe == shapeText(op.ofmStripe), config << " " << model << " op " << i);
      BOOST_TEST(vela[i].ifmStripe == shapeText(op.ifmStripe), config << " " << model << " op " << i);
      const std::vector<std::int64_t> buffers = op.weights ? op.weights->bufferBytes : std::vector<std::int64_t>{};
      BOOST_TEST(vela[i].buffers == buffers, config << " " << model << " op " << i);
      // The same operations cascaded together: compare each operation's cascade by its first member.
      const std::size_t velaFirst =
          vela[i].cascade.second == 0 ? i : velaCascadeStart.emplace(vela[i].cascade, i).first->second;
      const std::size_t ourFirst =
          op.cascade == 0 ? i : ourCascadeStart.emplace(std::pair{layer.region, op.cascade}, i).first->second;
      BOOST_TEST(velaFirst == ourFirst, config << " " << model << " op " << i);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_model_that_cannot_fit_the_sram_limit_is_a_compile_error_not_a_crash) {
  const auto models = npu::test::sharedModelsDir();
  if (!models) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set: skipping");
    return;
  }
  Pipelines pipelines;
  // Vela 3.10 asserts "Allocation exceeds staging limit": the 513x513x3 input alone exceeds 512 KiB.
  try {
    (void)pipelines.compile("C5", *models / "coral_deeplabv3_mnv2_dm05_pascal_uint8.tflite");
    BOOST_FAIL("expected a compile error");
  } catch (const npu::Error& error) {
    BOOST_TEST((error.kind() == npu::ErrorKind::Compile));
    BOOST_TEST(error.message().find("524288") != std::string::npos);
    BOOST_TEST(!error.location().object.empty());
  }
}

BOOST_AUTO_TEST_CASE(real_model_reports_are_byte_identical_at_one_thread_and_at_two) {
  const auto models = npu::test::sharedModelsDir();
  if (!models) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS is not set: skipping");
    return;
  }
  Pipelines pipelines;
  const auto render = [&](std::size_t threads) {
    const tbb::global_control control(tbb::global_control::max_allowed_parallelism, threads);
    return npu::renderJsonReport(*pipelines.compile("C5", *models / "nc_mobilenet_v2_224_int8.tflite").report);
  };
  BOOST_TEST((render(1) == render(2)));
}

BOOST_AUTO_TEST_SUITE_END()
