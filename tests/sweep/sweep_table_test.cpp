// SPDX-License-Identifier: Apache-2.0
// The sweep table: CSV round trips, column choice, CSV and JSON rendering.
#include "sweep_table.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu;
using namespace npu::sweep;

namespace {

SweepTable twoRows() {
  SweepTable table{"t", {"accelerator.config"}, {}, {}};
  table.rows.push_back(
      {"a.tflite", 0, {"ethos-u55-64"}, "ok", "", {{"cycles_total", "100"}, {"sram_memory_used", "1.5"}}});
  table.rows.push_back({"a.tflite", 1, {"ethos-u55-128"}, "failed", "does not fit, by far", {}});
  table.rows.push_back({"b.tflite",
                        0,
                        {"ethos-u55-64"},
                        "ok",
                        "",
                        {{"cycles_total", "7"}, {"sram_memory_used", "2"}, {"warnings", "over \"it\""}}});
  return table;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sweep_table)

BOOST_AUTO_TEST_CASE(csv_fields_are_quoted_only_when_needed_and_split_back) {
  BOOST_TEST(csvField("plain") == "plain");
  BOOST_TEST(csvField("a,b") == "\"a,b\"");
  BOOST_TEST(csvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  const auto fields = splitCsvLine("a,\"b,c\",\"d \"\"e\"\"\",");
  BOOST_TEST(fields == (std::vector<std::string>{"a", "b,c", "d \"e\"", ""}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_summary_csv_becomes_named_columns_in_its_order) {
  const auto columns = summaryColumns("network,cycles_total\n\"x,y\",12\n");
  BOOST_REQUIRE_EQUAL(columns.size(), 2U);
  BOOST_TEST(columns[0].second == "x,y");
  BOOST_TEST(columns[1].first == "cycles_total");
}

BOOST_AUTO_TEST_CASE(every_column_any_row_reports_is_kept_in_first_seen_order) {
  SweepTable table = twoRows();
  chooseColumns(table, {}, {});
  BOOST_TEST(table.columns == (std::vector<std::string>{"cycles_total", "sram_memory_used", "warnings"}),
             boost::test_tools::per_element());
  BOOST_TEST(table.count("ok") == 2U);
  BOOST_TEST(*table.rows[0].number("sram_memory_used") == 1.5);
  BOOST_TEST(!table.rows[1].number("cycles_total").has_value());
}

BOOST_AUTO_TEST_CASE(collect_keeps_the_named_columns_and_refuses_unknown_ones) {
  SweepTable table = twoRows();
  chooseColumns(table, {"sram_memory_used"}, {});
  BOOST_TEST(table.columns.size() == 1U);
  try {
    chooseColumns(table, {"cycles"}, SourceLocation{"s.yaml", 0, 0, {}});
    BOOST_ERROR("no error");
  } catch (const Error& error) {
    BOOST_TEST(error.hint().find("cycles_total") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(the_csv_has_one_row_per_point_with_settings_status_and_reason) {
  SweepTable table = twoRows();
  chooseColumns(table, {}, {});
  BOOST_TEST(renderSweepCsv(table) ==
             "network_file,configuration,accelerator.config,status,reason,cycles_total,sram_memory_used,warnings\n"
             "a.tflite,0,ethos-u55-64,ok,,100,1.5,\n"
             "a.tflite,1,ethos-u55-128,failed,\"does not fit, by far\",,,\n"
             "b.tflite,0,ethos-u55-64,ok,,7,2,\"over \"\"it\"\"\"\n");
}

BOOST_AUTO_TEST_CASE(the_json_counts_statuses_and_lists_rows_with_their_settings) {
  SweepTable table = twoRows();
  chooseColumns(table, {}, {});
  const std::string json = renderSweepJson(table);
  BOOST_TEST(json.find("\"ok\": 2") != std::string::npos);
  BOOST_TEST(json.find("\"failed\": 1") != std::string::npos);
  BOOST_TEST(json.find("\"accelerator.config\": \"ethos-u55-128\"") != std::string::npos);
  BOOST_TEST(json.find("\"reason\": \"does not fit, by far\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
