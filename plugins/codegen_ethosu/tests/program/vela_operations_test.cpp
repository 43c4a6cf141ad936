// SPDX-License-Identifier: Apache-2.0
// Our NPU operations against Vela 3.10's, operation by operation, for the shared models in C1, C3 and
// C5 (skipped without NPU_PIPELINE_MODELS / NPU_PIPELINE_REFERENCE).
#include "reference_listing.hpp"
#include "npu/core/sha256.hpp"

#include "codegen_ethosu/command_stream.hpp"
#include "decoder/command_decoder.hpp"
#include "frontend_tflite/model_reader.hpp"
#include "generator/code_generator.hpp"
#include "listing/operation_listing.hpp"
#include "program/region_program.hpp"

#include "ethosu/accelerator/accelerator.hpp"
#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

namespace fs = std::filesystem;
using namespace ethosu::codegen;

namespace {

struct Outcome {
  int operations = 0;
  int matching = 0;
  std::string firstDifference;
  bool flashIdentical = false;
  int streams = 0;
  int identicalStreams = 0;
  std::string firstStreamDifference;
  bool scratchEqual = false;
  std::string scratchDifference;
  bool listingIdentical = true;
  bool fileIdentical = false;
};

/// What the optimised model holds for the NPU, read back with our own frontend.
struct WrittenModel {
  std::vector<std::vector<std::uint8_t>> commandStreams; ///< of the ethos-u operators, in operator order
  std::vector<std::uint8_t> flash;
  std::int64_t scratch = 0;
  std::int64_t fastScratch = 0;
};

WrittenModel readWrittenModel(const std::vector<std::uint8_t>& bytes) {
  const npu::Graph graph = npu::tflite_frontend::readModel(bytes, "written.tflite");
  WrittenModel written;
  const npu::Subgraph& subgraph = graph.subgraphs.at(0);
  for (const npu::Operation& op : subgraph.operations) {
    if (op.attributes.get<std::string>("custom_code") != std::optional<std::string>("ethos-u")) {
      continue;
    }
    const auto data = [&](std::size_t input) { return subgraph.tensor(op.inputs.at(input)).bytes(); };
    written.commandStreams.emplace_back(data(0).begin(), data(0).end());
    written.flash.assign(data(1).begin(), data(1).end());
    written.scratch = subgraph.tensor(op.inputs.at(2)).elements();
    written.fastScratch = subgraph.tensor(op.inputs.at(3)).elements();
  }
  return written;
}

/// The sha256 of Vela's whole output file, from its dump.
std::string velaFileSha256(const fs::path& dump) {
  std::ifstream in(dump);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto key = text.find("\"sha256\": \"");
  return key == std::string::npos ? std::string() : text.substr(key + 11, 64);
}

std::vector<std::uint8_t> readBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Where two command streams first differ, as "offset 0x..: ours .. vela ..".
std::string firstDifference(const std::vector<std::uint8_t>& ours, const std::vector<std::uint8_t>& theirs) {
  std::size_t word = 0;
  while (word * 4 + 4 <= std::min(ours.size(), theirs.size()) &&
         std::equal(ours.begin() + static_cast<std::ptrdiff_t>(word * 4),
                    ours.begin() + static_cast<std::ptrdiff_t>(word * 4 + 4),
                    theirs.begin() + static_cast<std::ptrdiff_t>(word * 4))) {
    ++word;
  }
  const auto wordAt = [](const std::vector<std::uint8_t>& bytes, std::size_t index) -> std::string {
    if (index * 4 + 4 > bytes.size()) {
      return "end";
    }
    char text[16];
    std::snprintf(text, sizeof text, "%08x",
                  bytes[index * 4] | (bytes[index * 4 + 1] << 8) | (bytes[index * 4 + 2] << 16) |
                      (std::uint32_t{bytes[index * 4 + 3]} << 24));
    return text;
  };
  if (word == 7 && ours.size() > 32 && theirs.size() > 32) {
    // Only the lengths differ in the header: find the first differing command word.
    word = 8;
    while (word * 4 + 4 <= std::min(ours.size(), theirs.size()) &&
           std::equal(ours.begin() + static_cast<std::ptrdiff_t>(word * 4),
                      ours.begin() + static_cast<std::ptrdiff_t>(word * 4 + 4),
                      theirs.begin() + static_cast<std::ptrdiff_t>(word * 4))) {
      ++word;
    }
  }
  char offset[32];
  std::snprintf(offset, sizeof offset, "0x%06zx", word * 4 >= 32 ? word * 4 - 32 : word * 4);
  return std::string("register offset ") + offset + ": ours " + wordAt(ours, word) + " vela " + wordAt(theirs, word) +
         " (sizes " + std::to_string(ours.size()) + " / " + std::to_string(theirs.size()) + ")";
}

/// The INDEX.tsv row of a reference run: column name -> value.
std::map<std::string, std::string> indexRow(const fs::path& codegenReference, const std::string& config,
                                            const std::string& model) {
  std::ifstream in(codegenReference / "INDEX.tsv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  for (std::stringstream header(line); std::getline(header, line, '\t');) {
    names.push_back(line);
  }
  std::string row;
  while (std::getline(in, row)) {
    std::vector<std::string> values;
    for (std::stringstream fields(row); std::getline(fields, line, '\t');) {
      values.push_back(line);
    }
    if (values.size() >= 3 && values[1] == config && values[2] == model) {
      std::map<std::string, std::string> result;
      for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) {
        result[names[i]] = values[i];
      }
      return result;
    }
  }
  return {};
}

Outcome compareModel(npu::PluginHost& host, const std::string& config, const fs::path& model,
                     const fs::path& referenceDir) {
  Outcome outcome;
  const auto listing = test::readReferenceListing(referenceDir / "register_command_stream.txt.gz");
  if (listing.empty()) {
    return outcome;
  }
  const npu::PipelineSpec spec =
      npu::parsePipelineFile(npu::test::sourceDir() / "configs" / "reference" / (config + "-cascade.yaml"));
  const npu::ResolvedPipeline pipeline = npu::resolvePipeline(spec, host, npu::defaultConfigSearchPath());
  npu::SilentProgress progress;
  const npu::Compilation compilation = npu::compileModel(pipeline, model, progress);
  const auto accelerator = ethosu::makeAccelerator(pipeline.accelerator->config);
  const ReadOnlyArea readOnly(compilation.lowered, compilation.schedules, *accelerator);
  // The command streams of the model's ethos-u operators, in operator order.
  std::map<int, fs::path> streamFiles;
  for (const auto& file : fs::directory_iterator(referenceDir)) {
    const std::string name = file.path().filename().string();
    if (name.rfind("cmd_stream_sg0_op", 0) == 0) {
      streamFiles[std::stoi(name.substr(17))] = file.path();
    }
  }
  std::vector<fs::path> streamsInOrder;
  for (const auto& [op, file] : streamFiles) {
    streamsInOrder.push_back(file);
  }
  auto index =
      indexRow(referenceDir.parent_path().parent_path().parent_path(), config, referenceDir.filename().string());
  if (const char* dump = std::getenv("NPU_CODEGEN_DUMP_FLASH")) {
    std::ofstream(dump, std::ios::binary)
        .write(reinterpret_cast<const char*>(readOnly.bytes().data()),
               static_cast<std::streamsize>(readOnly.bytes().size()));
  }
  if (std::getenv("NPU_CODEGEN_DEBUG") != nullptr) {
    for (std::size_t s = 0; s < compilation.schedules.size(); ++s) {
      const auto& buffers = compilation.schedules[s].buffers;
      for (std::size_t b = 0; b < buffers.size(); ++b) {
        std::cout << "  buffer " << buffers[b].range.start << "-" << buffers[b].range.end << " @"
                  << compilation.allocations[s].addresses[b] << " " << buffers[b].range.size << " area "
                  << static_cast<int>(buffers[b].area) << " " << buffers[b].range.name << "\n";
      }
    }
    for (const ReadOnlyEntry& entry : readOnly.entries()) {
      std::cout << "  flash " << entry.address << " " << entry.bytes << " " << entry.name << "\n";
    }
  }
  // The product: the output model the pipeline's codegen stage wrote, read back with our frontend.
  BOOST_TEST_REQUIRE(compilation.output.has_value());
  const WrittenModel written = readWrittenModel(compilation.output->bytes.joined());
  outcome.flashIdentical =
      index.count("flash_sha256") != 0 && index.at("flash_sha256") == npu::sha256Hex(written.flash);
  outcome.scratchEqual = index.count("scratch_bytes") != 0 &&
                         index.at("scratch_bytes") == std::to_string(written.scratch) &&
                         index.at("scratch_fast_bytes") == std::to_string(written.fastScratch);
  if (!outcome.scratchEqual) {
    outcome.scratchDifference = "scratch " + std::to_string(written.scratch) + "/" +
                                std::to_string(written.fastScratch) + " vela " + index["scratch_bytes"] + "/" +
                                index["scratch_fast_bytes"];
  }
  outcome.fileIdentical = npu::sha256Hex(compilation.output->bytes.joined()) == velaFileSha256(referenceDir / "dump.json");
  for (std::size_t s = 0; s < compilation.schedules.size() && s < listing.size(); ++s) {
    const RegionSources sources{
        compilation.lowered, compilation.schedules[s], s, compilation.allocations[s], compilation.addresses, readOnly,
        *accelerator};
    const RegionProgram program = buildRegionProgram(sources, accelerator->architecture());
    std::vector<NpuOperation> streamed; // what code generation takes one at a time
    forEachNpuOperation(sources, accelerator->architecture(),
                        [&](const NpuOperation& operation) { streamed.push_back(operation); });
    BOOST_TEST((streamed == program.npuOperations));
    if (s < streamsInOrder.size()) {
      ++outcome.streams;
      const auto& payload = s < written.commandStreams.size() ? written.commandStreams[s] : std::vector<std::uint8_t>{};
      const auto reference = readBytes(streamsInOrder[s]);
      if (payload == reference) {
        ++outcome.identicalStreams;
      } else if (outcome.firstStreamDifference.empty()) {
        outcome.firstStreamDifference = "region " + std::to_string(s) + " " + firstDifference(payload, reference);
      }
      // The decoder lists Vela's own stream exactly as Vela does.
      std::vector<std::string> lines;
      std::istringstream text(formatCommands(decodeCommands(readDriverPayload(reference).registerStream)));
      for (std::string line; std::getline(text, line);) {
        lines.push_back(line);
      }
      const auto& theirs = listing[s].output;
      outcome.listingIdentical = outcome.listingIdentical && theirs.size() >= lines.size() &&
                                 std::equal(lines.begin(), lines.end(), theirs.begin());
    }
    const auto ours = test::comparableLines(formatOperations(program.npuOperations));
    const auto& theirs = listing[s].input;
    outcome.operations += static_cast<int>(theirs.size());
    for (std::size_t line = 0; line < std::max(ours.size(), theirs.size()); ++line) {
      const std::string a = line < ours.size() ? ours[line] : "<missing>";
      const std::string b = line < theirs.size() ? theirs[line] : "<missing>";
      if (a != b) {
        outcome.firstDifference =
            "region " + std::to_string(s) + " line " + std::to_string(line) + "\n  ours: " + a + "\n  vela: " + b;
        if (std::getenv("NPU_CODEGEN_DEBUG") != nullptr) {
          for (std::size_t context = line >= 12 ? line - 12 : 0; context < line; ++context) {
            outcome.firstDifference += "\n  same: " + ours[context];
          }
        }
        return outcome;
      }
    }
    outcome.matching += static_cast<int>(theirs.size());
  }
  return outcome;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_operations)

BOOST_AUTO_TEST_CASE(npu_operations_equal_vela_3_10s_on_the_shared_models) {
  const auto models = npu::test::sharedModelsDir();
  const auto reference = npu::test::sharedReferenceDir();
  if (!models || !reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS/NPU_PIPELINE_REFERENCE not set: skipped");
    return;
  }
  npu::PluginHost host;
  host.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
  int identical = 0;
  int total = 0;
  int flashIdentical = 0;
  int streams = 0;
  int identicalStreams = 0;
  int scratchEqual = 0;
  int listingsIdentical = 0;
  int filesIdentical = 0;
  for (const std::string config : {"C1", "C3", "C5"}) {
    for (const auto& entry : fs::directory_iterator(*reference / "codegen" / "vela310" / config)) {
      const fs::path model = *models / (entry.path().filename().string() + ".tflite");
      if (!fs::exists(entry.path() / "register_command_stream.txt.gz")) {
        continue;
      }
      if (const char* only = std::getenv("NPU_CODEGEN_MODEL"); only != nullptr && entry.path().filename() != only) {
        continue;
      }
      ++total;
      Outcome outcome;
      try {
        outcome = compareModel(host, config, model, entry.path());
      } catch (const std::exception& error) {
        outcome.firstDifference = std::string("error: ") + error.what();
      }
      streams += outcome.streams;
      scratchEqual += outcome.scratchEqual ? 1 : 0;
      listingsIdentical += outcome.listingIdentical ? 1 : 0;
      filesIdentical += outcome.fileIdentical ? 1 : 0;
      if (!outcome.scratchEqual) {
        std::cout << config << " " << entry.path().filename().string() << ": " << outcome.scratchDifference << "\n";
      }
      if (!outcome.listingIdentical) {
        std::cout << config << " " << entry.path().filename().string() << ": decoded listing differs\n";
      }
      identicalStreams += outcome.identicalStreams;
      if (!outcome.firstStreamDifference.empty()) {
        std::cout << config << " " << entry.path().filename().string() << ": stream " << outcome.firstStreamDifference
                  << "\n";
      }
      if (outcome.flashIdentical) {
        ++flashIdentical;
      } else {
        std::cout << config << " " << entry.path().filename().string() << ": flash differs\n";
      }
      if (outcome.firstDifference.empty()) {
        ++identical;
      } else {
        std::cout << config << " " << entry.path().filename().string() << ": " << outcome.firstDifference << "\n";
      }
    }
  }
  BOOST_TEST_MESSAGE(identical << " of " << total << " model runs have Vela's NPU operations");
  BOOST_TEST(identical == total);
  BOOST_TEST_MESSAGE(flashIdentical << " of " << total << " model runs have Vela's flash, byte for byte");
  BOOST_TEST(flashIdentical == total);
  BOOST_TEST_MESSAGE(identicalStreams << " of " << streams << " command streams are byte-identical to Vela's");
  BOOST_TEST(identicalStreams == streams);
  BOOST_TEST_MESSAGE(scratchEqual << " of " << total << " model runs have Vela's scratch and fast scratch sizes");
  BOOST_TEST(scratchEqual == total);
  BOOST_TEST_MESSAGE(listingsIdentical << " of " << total << " model runs: Vela's streams decode to Vela's listings");
  BOOST_TEST(listingsIdentical == total);
  BOOST_TEST_MESSAGE(filesIdentical << " of " << total << " model runs: the whole _vela.tflite is byte-identical");
}

BOOST_AUTO_TEST_CASE(dp_scheduler_schedules_generate_streams_that_pass_the_checker) {
  const auto models = npu::test::sharedModelsDir();
  if (!models) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS not set: skipped");
    return;
  }
  npu::PluginHost host;
  host.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
  int checkedModels = 0;
  for (const std::string config : {"C1", "C3", "C4"}) {
    const npu::PipelineSpec spec =
        npu::parsePipelineFile(npu::test::sourceDir() / "configs" / "reference" / (config + "-dp.yaml"));
    const npu::ResolvedPipeline pipeline = npu::resolvePipeline(spec, host, npu::defaultConfigSearchPath());
    const auto accelerator = ethosu::makeAccelerator(pipeline.accelerator->config);
    for (const auto& entry : fs::directory_iterator(*models)) {
      const char* only = std::getenv("NPU_CODEGEN_MODEL");
      if (entry.path().extension() != ".tflite" || (only != nullptr && entry.path().stem() != only)) {
        continue;
      }
      BOOST_TEST_CONTEXT(config << " " << entry.path().stem().string()) {
        npu::SilentProgress progress;
        std::optional<npu::Compilation> compilation;
        try {
          compilation = npu::compileModel(pipeline, entry.path(), progress);
        } catch (const npu::Error& error) {
          // A schedule that does not fit is the scheduler's verdict, not code generation's.
          BOOST_TEST((error.kind() == npu::ErrorKind::Compile), error.what());
          continue;
        }
        // Every stream is decoded and checked as it is generated (CodegenOptions::check); any error
        // from code generation fails the test.
        const npu::OptionValues noOptions;
        const npu::CodegenRequest request{compilation->lowered,
                                          compilation->schedules,
                                          compilation->allocations,
                                          compilation->addresses,
                                          *accelerator,
                                          noOptions,
                                          progress};
        try {
          const GeneratedCode code = generateCode(request, CodegenOptions{});
          BOOST_TEST(code.commandStreams.size() == compilation->schedules.size());
          ++checkedModels;
        } catch (const std::exception& error) {
          BOOST_ERROR(error.what());
        }
      }
    }
  }
  BOOST_TEST_MESSAGE(checkedModels << " DP-scheduled model runs generated checked command streams");
}
BOOST_AUTO_TEST_SUITE_END()
