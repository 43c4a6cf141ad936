// SPDX-License-Identifier: Apache-2.0
// The TFLite writer: Vela's own optimised models read and written again come out byte for byte
// (the writer lays a file out as Vela 3.10's tflite_writer does), and a model written with Vela's
// options reads back as the same graph.
#include "frontend_tflite/model_reader.hpp"
#include "frontend_tflite/model_writer.hpp"

#include "npu/core/diagnostics.hpp"

#include "python_layout_builder.hpp"
#include "test_support.hpp"

#include <tflite/tflite_schema_generated.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;
using namespace npu;
using namespace npu::tflite_frontend;

namespace {

std::vector<std::uint8_t> readBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Rewrites a model as it is: placements from the file itself (tensors on buffer 0 in the scratch area),
/// options copied from it.
std::vector<std::uint8_t> rewrite(const std::vector<std::uint8_t>& bytes, const fs::path& path) {
  const Graph graph = readModel(bytes, path);
  ModelWriteOptions options = unchangedWriteOptions();
  options.sourceModel = bytes;
  const tflite::Model* model = tflite::GetModel(bytes.data());
  for (flatbuffers::uoffset_t s = 0; s < model->subgraphs()->size(); ++s) {
    auto& placements = options.placements.emplace_back();
    for (const tflite::Tensor* tensor : *model->subgraphs()->Get(s)->tensors()) {
      TensorPlacement placement;
      placement.inScratchArea = tensor->buffer() == 0;
      placements.push_back(placement);
    }
  }
  return writeModel(graph, options);
}

std::size_t firstDifference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) {
    ++at;
  }
  return at;
}

} // namespace

BOOST_AUTO_TEST_SUITE(model_writer)

BOOST_AUTO_TEST_CASE(vela_optimised_models_are_written_back_byte_for_byte) {
  const auto reference = test::sharedReferenceDir();
  if (!reference) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_REFERENCE not set: skipped");
    return;
  }
  // Every model whose operators are all ethos-u operators comes out identical. CPU operators keep their
  // options' values but the C++ builder lays the options table out its own way, so those files differ
  // in layout only (checked by the next test's read back).
  int identical = 0;
  int npuOnly = 0;
  int npuOnlyIdentical = 0;
  int total = 0;
  for (const auto& entry : fs::directory_iterator(*reference / "codegen" / "vela310" / "C1")) {
    const fs::path file = entry.path() / (entry.path().filename().string() + "_vela.tflite");
    if (!fs::exists(file)) {
      continue;
    }
    ++total;
    const auto bytes = readBytes(file);
    const auto written = rewrite(bytes, file);
    const Graph graph = readModel(bytes, file);
    const bool onlyEthosU = std::all_of(graph.subgraphs[0].operations.begin(), graph.subgraphs[0].operations.end(),
                                        [](const Operation& op) { return op.sourceType == "CUSTOM:ethos-u"; });
    npuOnly += onlyEthosU ? 1 : 0;
    if (written == bytes) {
      ++identical;
      npuOnlyIdentical += onlyEthosU ? 1 : 0;
    } else {
      if (const char* dump = std::getenv("NPU_WRITER_DUMP_DIR")) { // for diffing with tflite_dump.py
        std::ofstream(fs::path(dump) / file.filename(), std::ios::binary)
            .write(reinterpret_cast<const char*>(written.data()), static_cast<std::streamsize>(written.size()));
      }
      BOOST_TEST_MESSAGE(entry.path().filename().string()
                         << ": first difference at byte " << firstDifference(written, bytes) << " (sizes "
                         << written.size() << " / " << bytes.size() << ")");
    }
  }
  BOOST_TEST_MESSAGE(identical << " of " << total << " of Vela's C1 models written back byte for byte ("
                               << npuOnlyIdentical << " of the " << npuOnly << " without CPU operators)");
  BOOST_TEST(npuOnlyIdentical == npuOnly);
}

BOOST_AUTO_TEST_CASE(a_model_written_with_velas_options_reads_back_as_the_same_graph) {
  const auto models = test::sharedModelsDir();
  if (!models) {
    BOOST_TEST_MESSAGE("NPU_PIPELINE_MODELS not set: skipped");
    return;
  }
  for (const auto& entry : fs::directory_iterator(*models)) {
    if (entry.path().extension() != ".tflite") {
      continue;
    }
    BOOST_TEST_CONTEXT(entry.path().filename().string()) {
      const auto bytes = readBytes(entry.path());
      const Graph graph = readModel(bytes, entry.path());
      ModelWriteOptions options = velaWriteOptions();
      options.sourceModel = bytes;
      const Graph back = readModel(writeModel(graph, options), entry.path());
      BOOST_TEST_REQUIRE(back.subgraphs.size() == graph.subgraphs.size());
      for (std::size_t s = 0; s < graph.subgraphs.size(); ++s) {
        const Subgraph& a = graph.subgraphs[s];
        const Subgraph& b = back.subgraphs[s];
        BOOST_TEST_REQUIRE(a.operations.size() == b.operations.size());
        for (std::size_t i = 0; i < a.operations.size(); ++i) {
          BOOST_TEST(a.operations[i].sourceType == b.operations[i].sourceType);
          BOOST_TEST((a.operations[i].padding == b.operations[i].padding));
          BOOST_TEST((a.operations[i].attributes == b.operations[i].attributes));
          BOOST_TEST(a.operations[i].inputs.size() == b.operations[i].inputs.size());
        }
      }
      BOOST_TEST(back.description == "Vela 3.10.0 Optimised");
      BOOST_TEST(back.metadata.size() == graph.metadata.size() + 2); // vela_version, OfflineMemoryAllocation
    }
  }
}

BOOST_AUTO_TEST_CASE(a_custom_operator_made_by_a_pass_is_written_from_its_attributes) {
  Graph graph;
  graph.name = "made";
  Subgraph& subgraph = graph.subgraphs.emplace_back();
  subgraph.name = "main";
  Tensor input;
  input.name = "in";
  input.shape = Shape{1, 4};
  input.type = DataType::Int8;
  Tensor output = input;
  output.name = "out";
  const TensorId in = subgraph.addTensor(input);
  const TensorId out = subgraph.addTensor(output);
  Operation op;
  op.type = OpType::Custom;
  op.name = "out";
  op.sourceType = "CUSTOM:ethos-u";
  op.attributes.set("custom_code", std::string("ethos-u"));
  op.attributes.set("custom_options", std::vector<std::int64_t>{1, 4, 1});
  op.inputs = {in};
  op.outputs = {out};
  subgraph.addOperation(op);
  subgraph.inputs = {in};
  subgraph.outputs = {out};
  const Graph back = readModel(writeModel(graph, velaWriteOptions()), "made.tflite");
  BOOST_TEST_REQUIRE(back.subgraphs.at(0).operations.size() == 1U);
  const Operation& read = back.subgraphs[0].operations[0];
  BOOST_TEST(read.sourceType == "CUSTOM:ethos-u");
  BOOST_TEST((read.attributes.get<std::vector<std::int64_t>>("custom_options") ==
              std::optional(std::vector<std::int64_t>{1, 4, 1})));

  op.attributes.set("custom_options", std::vector<std::int64_t>{1, 400});
  graph.subgraphs[0].operations[0] = op;
  BOOST_CHECK_THROW(static_cast<void>(writeModel(graph, velaWriteOptions())), npu::Error);
}

BOOST_AUTO_TEST_CASE(a_model_written_in_pieces_refers_to_its_large_constants_and_joins_to_the_whole_file) {
  Graph graph;
  graph.name = "pieces";
  Subgraph& subgraph = graph.subgraphs.emplace_back();
  subgraph.name = "main";
  const auto constant = [&](const std::string& name, std::int64_t size, int seed) {
    std::vector<std::uint8_t> values(static_cast<std::size_t>(size));
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<std::uint8_t>(i * 13 + static_cast<std::size_t>(seed));
    }
    Tensor tensor;
    tensor.name = name;
    tensor.shape = Shape{static_cast<int>(size)};
    tensor.type = DataType::UInt8;
    tensor.data = std::make_shared<const std::vector<std::uint8_t>>(std::move(values));
    return subgraph.addTensor(tensor);
  };
  const TensorId large = constant("large", 3 << 20, 1);
  const TensorId small = constant("small", 1000, 2);
  const TensorId other = constant("other", (1 << 20) + 3, 3);
  Tensor output;
  output.name = "out";
  output.shape = Shape{1, 4};
  output.type = DataType::Int8;
  const TensorId out = subgraph.addTensor(output);
  Operation op;
  op.type = OpType::Custom;
  op.name = "out";
  op.attributes.set("custom_code", std::string("ethos-u"));
  op.inputs = {large, small, other};
  op.outputs = {out};
  subgraph.addOperation(op);
  subgraph.outputs = {out};

  const std::vector<std::uint8_t> whole = writeModel(graph, velaWriteOptions());
  const FileBytes pieces = writeModelPieces(graph, velaWriteOptions(), std::size_t{1} << 20);
  BOOST_TEST(pieces.size() == whole.size());
  BOOST_TEST((pieces.joined() == whole));
  // The two constants of 1 MiB or more are pieces of their own, their bytes where the graph holds them.
  std::vector<const std::uint8_t*> referenced;
  for (const FileBytes::Piece& piece : pieces.pieces()) {
    referenced.push_back(piece.bytes.data());
  }
  for (const TensorId id : {large, other}) {
    BOOST_TEST(std::count(referenced.begin(), referenced.end(), subgraph.tensor(id).data->data()) == 1);
  }
  BOOST_TEST(std::count(referenced.begin(), referenced.end(), subgraph.tensor(small).data->data()) == 0);
  BOOST_TEST(pieces.pieces().size() == 5U); // tables, large, between, other, the rest (or the reverse)
  BOOST_TEST((writeModelPieces(graph, velaWriteOptions(), 0).joined() == whole));
}

BOOST_AUTO_TEST_CASE(a_builder_on_the_shared_storage_allocator_hands_over_the_same_bytes_however_often_it_grew) {
  const auto build = [](detail::PythonLayoutBuilder& builder) {
    std::vector<std::uint8_t> data(100000);
    for (std::size_t i = 0; i < data.size(); ++i) {
      data[i] = static_cast<std::uint8_t>(i * 7);
    }
    std::vector<flatbuffers::Offset<tflite::Buffer>> buffers;
    for (int i = 0; i < 5; ++i) {
      const auto bytes =
          builder.alignedBytes(std::span<const std::uint8_t>(data).subspan(static_cast<std::size_t>(i)), 16);
      tflite::BufferBuilder table(builder);
      table.add_data(bytes);
      buffers.push_back(builder.endTable(table));
    }
    const auto vector = builder.offsetVector<tflite::Buffer>(buffers);
    tflite::ModelBuilder model(builder);
    model.add_version(3);
    model.add_buffers(vector);
    builder.Finish(builder.endTable(model), tflite::ModelIdentifier());
  };
  detail::PythonLayoutBuilder reference;
  build(reference);
  const std::vector<std::uint8_t> expected(reference.GetBufferPointer(),
                                           reference.GetBufferPointer() + reference.GetSize());
  for (const std::size_t initialSize : {std::size_t{64}, std::size_t{4096}, expected.size(), expected.size() * 2}) {
    BOOST_TEST_CONTEXT("initial size " << initialSize) {
      detail::SharedStorageAllocator allocator;
      std::vector<std::uint8_t> bytes;
      {
        detail::PythonLayoutBuilder builder(initialSize, allocator);
        build(builder);
        bytes = allocator.copy({builder.GetBufferPointer(), builder.GetSize()});
      }
      BOOST_TEST((bytes == expected));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
