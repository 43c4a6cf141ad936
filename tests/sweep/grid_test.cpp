// SPDX-License-Identifier: Apache-2.0
// Grid expansion, network expansion and shards.
#include "grid.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <set>

using namespace npu;
using namespace npu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_grid)

BOOST_AUTO_TEST_CASE(the_grid_turns_the_last_axis_fastest_after_the_base_settings) {
  const SweepSpec spec = parseSweepText(
      "pipeline: p.yaml\nnetworks: a\nset: { scheduler.optimise: size }\naxes: { a: [1, 2], b: [x, y, z] }\n",
      "/s.yaml");
  const auto grid = expandConfigurations(spec);
  BOOST_REQUIRE_EQUAL(grid.size(), 6U);
  BOOST_TEST(grid[0].settings.size() == 3U);
  BOOST_TEST(grid[0].settings[0].first == "scheduler.optimise");
  BOOST_TEST(grid[1].settings[2].second == "y");
  BOOST_TEST(grid[3].settings[1].second == "2");
  BOOST_TEST(grid[3].settings[2].second == "x");
  BOOST_TEST(grid[5].valueIndices == (std::vector<std::size_t>{1, 2}));
}

BOOST_AUTO_TEST_CASE(a_sweep_without_axes_is_one_configuration) {
  const auto grid = expandConfigurations(parseSweepText("pipeline: p.yaml\nnetworks: a\n", "/s.yaml"));
  BOOST_TEST(grid.size() == 1U);
}

BOOST_AUTO_TEST_CASE(networks_come_from_files_globs_and_list_files_each_once_in_order) {
  const test::TemporaryDirectory folder;
  std::filesystem::create_directories(folder.path() / "models");
  for (const char* name : {"b.tflite", "a.tflite", "c.tflite", "notes.txt"}) {
    test::writeFile(folder.path() / "models" / name, "x");
  }
  test::writeFile(folder.path() / "models" / "list.txt", "# mine\nc.tflite\n\n  a.tflite  \n");
  test::writeFile(folder.path() / "s.yaml", "");
  const SweepSpec spec =
      parseSweepText("pipeline: p.yaml\nnetworks: [models/c.tflite, 'models/*.tflite', '@models/list.txt']\n",
                     folder.path() / "s.yaml");
  const auto networks = expandNetworks(spec);
  BOOST_REQUIRE_EQUAL(networks.size(), 3U);
  BOOST_TEST(networkLabel(spec, networks[0]) == "models/c.tflite");
  BOOST_TEST(networkLabel(spec, networks[1]) == "models/a.tflite");
  BOOST_TEST(networkLabel(spec, networks[2]) == "models/b.tflite");
  BOOST_TEST(networkLabel(spec, "/elsewhere/x.tflite") == "/elsewhere/x.tflite");
}

BOOST_AUTO_TEST_CASE(a_network_entry_that_matches_nothing_is_an_error_at_its_line) {
  const test::TemporaryDirectory folder;
  for (const char* entry : {"missing.tflite", "'*.tflite'", "'@list.txt'"}) {
    const SweepSpec spec =
        parseSweepText(std::string("pipeline: p.yaml\nnetworks:\n  - ") + entry + "\n", folder.path() / "s.yaml");
    try {
      (void)expandNetworks(spec);
      BOOST_ERROR("no error for " << entry);
    } catch (const Error& error) {
      BOOST_TEST(error.location().line == 3);
    }
  }
}

BOOST_AUTO_TEST_CASE(shards_split_the_points_into_disjoint_slices_that_cover_them_all) {
  std::multiset<std::size_t> covered;
  for (std::size_t index = 0; index < 3; ++index) {
    const Shard shard = parseShard(std::to_string(index) + "/3");
    for (std::size_t point = 0; point < 10; ++point) {
      if (shard.contains(point)) {
        covered.insert(point);
      }
    }
  }
  BOOST_TEST(covered.size() == 10U);
  BOOST_TEST(std::set<std::size_t>(covered.begin(), covered.end()).size() == 10U);
  for (const char* bad : {"3/3", "1", "-1/2", "a/2", "1/0", "1/2x"}) {
    BOOST_CHECK_THROW((void)parseShard(bad), Error);
  }
}

BOOST_AUTO_TEST_SUITE_END()
