// SPDX-License-Identifier: Apache-2.0
// Every real model of /work/shared/models (NPU_PIPELINE_MODELS) loads, with the operators PROVENANCE.tsv
// lists for it.
#include "frontend_tflite/model_reader.hpp"
#include "test_support.hpp"

#include <boost/algorithm/string.hpp>
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

namespace utf = boost::unit_test;

boost::test_tools::assertion_result sharedModelsAvailable(utf::test_unit_id) {
  const bool available = npu::test::sharedModelsDir().has_value();
  boost::test_tools::assertion_result result{available};
  result.message() << "NPU_PIPELINE_MODELS is not set";
  return result;
}

struct ProvenanceRow {
  std::string name;
  std::size_t operatorCount = 0;
  std::map<std::string, std::size_t> operatorTypes; ///< "CONV_2D" or "CUSTOM:name" -> count
};

/// Rows of PROVENANCE.tsv, columns found by their header names.
std::vector<ProvenanceRow> readProvenance(const std::filesystem::path& file) {
  std::ifstream stream(file);
  BOOST_TEST_REQUIRE(stream.good(), "cannot open " << file);
  std::string line;
  std::getline(stream, line);
  std::vector<std::string> header;
  boost::split(header, line, boost::is_any_of("\t"));
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    BOOST_TEST_REQUIRE((it != header.end()), "PROVENANCE.tsv has no column " << name);
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t nameColumn = column("name");
  const std::size_t countColumn = column("n_operators");
  const std::size_t typesColumn = column("operator_types");

  std::vector<ProvenanceRow> rows;
  while (std::getline(stream, line)) {
    if (line.empty()) {
      continue;
    }
    std::vector<std::string> fields;
    boost::split(fields, line, boost::is_any_of("\t"));
    BOOST_TEST_REQUIRE(fields.size() == header.size());
    ProvenanceRow row;
    row.name = fields[nameColumn];
    row.operatorCount = std::stoul(fields[countColumn]);
    std::vector<std::string> entries;
    boost::split(entries, fields[typesColumn], boost::is_any_of(","));
    for (const std::string& entry : entries) {
      const std::size_t colon = entry.rfind(':'); // "CUSTOM:name:3" keeps its inner colon
      BOOST_TEST_REQUIRE(colon != std::string::npos);
      row.operatorTypes[entry.substr(0, colon)] = std::stoul(entry.substr(colon + 1));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

} // namespace

BOOST_AUTO_TEST_SUITE(shared_models, *utf::precondition(sharedModelsAvailable))

BOOST_AUTO_TEST_CASE(every_shared_model_loads_with_the_operators_its_provenance_lists) {
  const std::filesystem::path models = *npu::test::sharedModelsDir();
  const std::vector<ProvenanceRow> rows = readProvenance(models / "PROVENANCE.tsv");
  BOOST_TEST(!rows.empty());
  for (const ProvenanceRow& row : rows) {
    BOOST_TEST_CONTEXT("model " << row.name) {
      const npu::Graph graph = npu::tflite_frontend::readModelFile(models / (row.name + ".tflite"));
      std::size_t operations = 0;
      std::map<std::string, std::size_t> types;
      for (const npu::Subgraph& subgraph : graph.subgraphs) {
        operations += subgraph.operations.size();
        for (const npu::Operation& op : subgraph.operations) {
          ++types[op.sourceType];
        }
      }
      BOOST_TEST(graph.name == row.name);
      BOOST_TEST(operations == row.operatorCount);
      BOOST_TEST((types == row.operatorTypes));
    }
  }
}

BOOST_AUTO_TEST_CASE(operations_of_shared_models_are_named_after_their_first_output) {
  const std::filesystem::path models = *npu::test::sharedModelsDir();
  for (const ProvenanceRow& row : readProvenance(models / "PROVENANCE.tsv")) {
    const npu::Graph graph = npu::tflite_frontend::readModelFile(models / (row.name + ".tflite"));
    for (const npu::Subgraph& subgraph : graph.subgraphs) {
      for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
        const npu::Operation& op = subgraph.operations[i];
        BOOST_TEST_CONTEXT(row.name << " operator " << i) {
          BOOST_TEST(op.sourceIndex == static_cast<std::int32_t>(i));
          BOOST_TEST_REQUIRE(!op.outputs.empty());
          BOOST_TEST(op.name == subgraph.tensor(op.outputs.front()).name);
          BOOST_TEST((op.type != npu::OpType::Unknown));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
