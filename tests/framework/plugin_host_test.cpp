#include "npu/host/plugin_host.hpp"
#include "npu/plugin/frontend.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

namespace {

const std::filesystem::path kPluginDir{NPU_TEST_PLUGIN_DIR};

std::string reasonFor(const npu::PluginHost& host, std::string_view fileFragment) {
  for (const auto& refused : host.refused()) {
    if (refused.path.filename().string().find(fileFragment) != std::string::npos) {
      return refused.reason;
    }
  }
  return "<not refused>";
}

/// Loads the test plugins, in name order, from a copy of the plugin directory plus a fake library.
struct LoadedTestPlugins {
  npu::test::TemporaryDirectory directory;
  npu::PluginHost host;

  LoadedTestPlugins() {
    for (const auto& entry : std::filesystem::directory_iterator(kPluginDir)) {
      std::filesystem::copy_file(entry.path(), directory.path() / entry.path().filename());
    }
    npu::test::writeFile(directory.path() / "npu_not_a_library.so", "this is a text file, not ELF\n");
    host.loadDirectory(directory.path());
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(plugin_host)

BOOST_AUTO_TEST_CASE(a_correct_plugin_is_loaded_and_usable) {
  LoadedTestPlugins loaded;
  const auto* info = loaded.host.info(npu::PluginKind::Frontend, "test_frontend");
  BOOST_REQUIRE(info != nullptr);
  BOOST_TEST(info->version == "1.0.0");
  const auto& frontend =
      loaded.host.require<npu::FrontendPlugin>(npu::PluginKind::Frontend, "test_frontend", {});
  BOOST_TEST(frontend.read("model.test", {}).name == "model");
  BOOST_TEST(frontend.options().size() == 1U);
}

BOOST_AUTO_TEST_CASE(a_plugin_for_another_api_version_is_refused_naming_both_versions) {
  LoadedTestPlugins loaded;
  const std::string reason = reasonFor(loaded.host, "wrong_api");
  BOOST_TEST(reason.find("API version " + std::to_string(npu::kPluginApiVersion + 1)) != std::string::npos);
  BOOST_TEST(reason.find("provides version " + std::to_string(npu::kPluginApiVersion)) != std::string::npos);
  BOOST_TEST(loaded.host.find(npu::PluginKind::Frontend, "wrong_api") == nullptr);
}

BOOST_AUTO_TEST_CASE(a_plugin_built_against_other_headers_is_refused) {
  LoadedTestPlugins loaded;
  BOOST_TEST(reasonFor(loaded.host, "wrong_hash").find("different npu-pipeline headers") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_library_without_the_entry_point_is_refused) {
  LoadedTestPlugins loaded;
  BOOST_TEST(reasonFor(loaded.host, "missing_entry_point").find("missing entry point") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_factory_that_throws_is_refused_with_its_message) {
  LoadedTestPlugins loaded;
  const std::string reason = reasonFor(loaded.host, "throwing_factory");
  BOOST_TEST(reason.find("threw") != std::string::npos);
  BOOST_TEST(reason.find("vendor licence") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_second_plugin_with_the_same_id_is_refused_as_duplicate) {
  LoadedTestPlugins loaded;
  // test_duplicate_frontend sorts before test_good_frontend, so it wins and the good one is the duplicate.
  const std::string reason = reasonFor(loaded.host, "test_good_frontend");
  BOOST_TEST(reason.find("duplicate plugin id 'test_frontend'") != std::string::npos);
  BOOST_TEST(loaded.host.find(npu::PluginKind::Frontend, "test_frontend") != nullptr);
}

BOOST_AUTO_TEST_CASE(a_file_that_is_not_a_shared_library_is_refused) {
  LoadedTestPlugins loaded;
  BOOST_TEST(reasonFor(loaded.host, "not_a_library").find("not a loadable shared library") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_plugin_that_does_not_implement_its_declared_kind_is_refused) {
  LoadedTestPlugins loaded;
  BOOST_TEST(reasonFor(loaded.host, "wrong_kind").find("does not implement") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_host_keeps_working_after_refusals_and_explains_a_missing_plugin) {
  LoadedTestPlugins loaded;
  BOOST_TEST(loaded.host.refused().size() == 7U);
  BOOST_TEST(loaded.host.plugins().size() == 1U);
  try {
    (void)loaded.host.require(npu::PluginKind::Scheduler, "scheduler_missing", {"pipeline.yaml", 3, 5, {}});
    BOOST_FAIL("a missing plugin must be an error");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.exitCode() == 2);
    BOOST_TEST(error.render().find("pipeline.yaml:3:5") != std::string::npos);
    BOOST_TEST(error.render().find("no scheduler plugin 'scheduler_missing'") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(loading_the_same_file_twice_registers_it_once) {
  npu::PluginHost host;
  BOOST_TEST(host.loadFile(kPluginDir / "npu_test_good_frontend.so"));
  BOOST_TEST(host.loadFile(kPluginDir / "npu_test_good_frontend.so"));
  BOOST_TEST(host.plugins().size() == 1U);
  BOOST_TEST(host.refused().empty());
}

BOOST_AUTO_TEST_SUITE_END()
