// SPDX-License-Identifier: Apache-2.0
// Code generation on generated networks against what real Vela 3.10 wrote for them
// (vela310_outputs.tsv, recorded by bench/record_vela_outputs.py with the Vela command line of each):
// the same number of `ethos-u` operators, byte-identical command streams and flash contents, the same
// scratch sizes, and, for networks without CPU operators, the same whole file. Vela is not needed: the
// hashes of its output are the test data.

#include "generated_networks.hpp"
#include "npu/core/sha256.hpp"

#include "frontend_tflite/model_reader.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

namespace {

using npu::test::generated::folder;
using npu::test::generated::split;

struct OutputCase {
  std::string network;
  std::string config;
  std::vector<std::string> overrides;
  int ethosUOperators = 0;
  std::string commandStreamSha256;
  std::string flashSha256;
  std::int64_t scratchBytes = 0;
  std::int64_t fastScratchBytes = 0;
  bool compareFile = false;
  std::string fileSha256;
};

std::vector<OutputCase> readOutputCases() {
  std::ifstream in(folder() / "vela310_outputs.tsv");
  std::string line;
  std::getline(in, line); // header
  std::vector<OutputCase> cases;
  while (std::getline(in, line)) {
    const auto cells = split(line, '\t');
    if (cells.size() < 10) {
      continue;
    }
    cases.push_back(OutputCase{cells[0], cells[1], cells[2].empty() ? std::vector<std::string>{} : split(cells[2], ','),
                               std::stoi(cells[3]), cells[4], cells[5], std::stoll(cells[6]), std::stoll(cells[7]),
                               cells[8] == "yes", cells[9]});
  }
  return cases;
}

/// What the written model holds for the NPU, read back with our own frontend: the command streams
/// concatenated in operator order, the distinct flash tensors concatenated, the scratch sizes (as
/// shared/tools/tflite_dump.py --summary computes them for Vela's file).
struct NpuContents {
  int operators = 0;
  std::vector<std::uint8_t> commandStreams;
  std::vector<std::uint8_t> flash;
  std::int64_t scratch = 0;
  std::int64_t fastScratch = 0;
};

NpuContents npuContents(const std::vector<std::uint8_t>& bytes) {
  const npu::Graph graph = npu::tflite_frontend::readModel(bytes, "written.tflite");
  NpuContents contents;
  std::vector<std::string> flashSeen;
  std::vector<std::string> scratchSeen;
  for (const npu::Subgraph& subgraph : graph.subgraphs) {
    for (const npu::Operation& op : subgraph.operations) {
      if (op.attributes.get<std::string>("custom_code") != std::optional<std::string>("ethos-u")) {
        continue;
      }
      ++contents.operators;
      const auto stream = subgraph.tensor(op.inputs.at(0)).bytes();
      contents.commandStreams.insert(contents.commandStreams.end(), stream.begin(), stream.end());
      const npu::Tensor& flash = subgraph.tensor(op.inputs.at(1));
      if (std::find(flashSeen.begin(), flashSeen.end(), flash.name) == flashSeen.end()) {
        flashSeen.push_back(flash.name);
        const auto data = flash.bytes();
        contents.flash.insert(contents.flash.end(), data.begin(), data.end());
      }
      const npu::Tensor& scratch = subgraph.tensor(op.inputs.at(2));
      if (std::find(scratchSeen.begin(), scratchSeen.end(), scratch.name) == scratchSeen.end()) {
        scratchSeen.push_back(scratch.name);
        contents.scratch += scratch.elements();
        contents.fastScratch += subgraph.tensor(op.inputs.at(3)).elements();
      }
    }
  }
  return contents;
}

} // namespace

BOOST_AUTO_TEST_SUITE(generated_networks)

BOOST_AUTO_TEST_CASE(code_generation_writes_vela_s_command_streams_and_flash_for_every_recorded_network) {
  const std::vector<OutputCase> cases = readOutputCases();
  BOOST_TEST_REQUIRE(!cases.empty());
  npu::test::generated::Pipelines pipelines;
  for (const OutputCase& c : cases) {
    BOOST_TEST_CONTEXT(c.network << " " << c.config) {
      const npu::Compilation compilation = pipelines.compile(c.network, c.config + "-cascade", c.overrides);
      BOOST_TEST_REQUIRE(compilation.output.has_value());
      const NpuContents contents = npuContents(compilation.output->bytes.joined());
      BOOST_TEST(contents.operators == c.ethosUOperators);
      BOOST_TEST(npu::sha256Hex(contents.commandStreams) == c.commandStreamSha256);
      BOOST_TEST(npu::sha256Hex(contents.flash) == c.flashSha256);
      BOOST_TEST(contents.scratch == c.scratchBytes);
      BOOST_TEST(contents.fastScratch == c.fastScratchBytes);
      if (c.compareFile) {
        BOOST_TEST(npu::sha256Hex(compilation.output->bytes.joined()) == c.fileSha256);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
