// SPDX-License-Identifier: Apache-2.0
// The sweep page: Pareto fronts and what the page shows.
#include "sweep_html.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_html)

BOOST_AUTO_TEST_CASE(the_pareto_front_keeps_the_points_nothing_beats_on_both_axes) {
  const std::vector<TradeOffPoint> points{{100, 50, "a"}, {200, 40, "b"},          {150, 60, "dominated by a"},
                                          {50, 90, "c"},  {200, 40, "tie with b"}, {300, 45, "d"}};
  const auto front = paretoFront(points);
  BOOST_TEST(front == (std::vector<std::size_t>{3, 0, 1}), boost::test_tools::per_element());
  BOOST_TEST(paretoFront({}).empty());
}

BOOST_AUTO_TEST_CASE(the_aggregate_sums_cycles_and_takes_the_largest_sram_of_configurations_that_compiled_everything) {
  SweepTable table{"t", {"x"}, {"cycles_total", "sram_memory_used"}, {}};
  table.rows.push_back({"a", 0, {"1"}, "ok", "", {{"cycles_total", "10"}, {"sram_memory_used", "5"}}});
  table.rows.push_back({"a", 1, {"2"}, "ok", "", {{"cycles_total", "20"}, {"sram_memory_used", "1"}}});
  table.rows.push_back({"b", 0, {"1"}, "ok", "", {{"cycles_total", "30"}, {"sram_memory_used", "2"}}});
  table.rows.push_back({"b", 1, {"2"}, "failed", "does not fit", {}});
  const auto points = aggregatedPoints(table);
  BOOST_REQUIRE_EQUAL(points.size(), 1U);
  BOOST_TEST(points[0].cycles == 40.0);
  BOOST_TEST(points[0].sram == 5.0);
  BOOST_TEST(points[0].label == "#0 x=1");
}

BOOST_AUTO_TEST_CASE(tick_labels_have_the_digits_to_tell_close_values_apart) {
  SweepTable table{"t", {"x"}, {"cycles_total", "sram_memory_used"}, {}};
  table.rows.push_back({"a", 0, {"1"}, "ok", "", {{"cycles_total", "10"}, {"sram_memory_used", "16191.1"}}});
  table.rows.push_back({"a", 1, {"2"}, "ok", "", {{"cycles_total", "20"}, {"sram_memory_used", "16191.3"}}});
  const std::string html = renderSweepHtml(table);
  BOOST_TEST(html.find(">16191.09<") != std::string::npos);
  BOOST_TEST(html.find(">1.619e+04<") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_page_is_self_contained_and_shows_fronts_failures_and_axes) {
  SweepTable table{"t<1>", {"accelerator.config"}, {"cycles_total", "sram_memory_used"}, {}};
  table.rows.push_back({"a", 0, {"u55-64"}, "ok", "", {{"cycles_total", "10"}, {"sram_memory_used", "5"}}});
  table.rows.push_back({"a", 1, {"u55-128"}, "ok", "", {{"cycles_total", "8"}, {"sram_memory_used", "6"}}});
  table.rows.push_back({"b", 0, {"u55-64"}, "failed", "does not fit <here>", {}});
  table.rows.push_back({"b", 1, {"u55-128"}, "ok", "", {{"cycles_total", "3"}, {"sram_memory_used", "1"}}});
  const std::string html = renderSweepHtml(table);
  BOOST_TEST(html.find("<script") == std::string::npos);
  BOOST_TEST(html.find("http://www.w3.org/2000/svg") != std::string::npos);
  BOOST_TEST(html.find("Sweep t&lt;1&gt;") != std::string::npos);
  BOOST_TEST(html.find("does not fit &lt;here&gt;") != std::string::npos);
  BOOST_TEST(html.find("<h2>a</h2>") != std::string::npos);
  BOOST_TEST(html.find("<h2>Axis accelerator.config</h2>") != std::string::npos);
  BOOST_TEST(html.find("#1 accelerator.config=u55-128") != std::string::npos);
  BOOST_TEST(html == renderSweepHtml(table));
}

BOOST_AUTO_TEST_SUITE_END()
