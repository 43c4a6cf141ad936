// SPDX-License-Identifier: Apache-2.0
#include "npu/host/plugin_host.hpp"
#include "npu/plugin/frontend.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

namespace {

const std::filesystem::path kPluginDir{NPU_TEST_PLUGIN_DIR};
const std::filesystem::path kCrashingPluginDir{NPU_TEST_CRASHING_PLUGIN_DIR};

/// A copy of a real plugin cut to half its size, as an interrupted copy or download leaves it.
void writeTruncatedPlugin(const std::filesystem::path& file) {
  const auto source = kPluginDir / "npu_test_good_frontend.so";
  std::filesystem::copy_file(source, file);
  std::filesystem::resize_file(file, std::filesystem::file_size(source) / 2);
}

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
    writeTruncatedPlugin(directory.path() / "npu_truncated.so");
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
  const auto& frontend = loaded.host.require<npu::FrontendPlugin>(npu::PluginKind::Frontend, "test_frontend", {});
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
  BOOST_TEST(loaded.host.refused().size() == 12U);
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

BOOST_AUTO_TEST_CASE(a_truncated_library_is_refused_before_the_loader_maps_it) {
  LoadedTestPlugins loaded;
  const std::string reason = reasonFor(loaded.host, "npu_truncated");
  BOOST_TEST(reason.find("not a loadable shared library (truncated") != std::string::npos, reason);
}

BOOST_AUTO_TEST_CASE(an_entry_point_that_is_data_is_refused_without_being_called) {
  LoadedTestPlugins loaded;
  const std::string reason = reasonFor(loaded.host, "data_symbol");
  BOOST_TEST(reason.find("is a data object, not a function") != std::string::npos, reason);
}

BOOST_AUTO_TEST_CASE(a_factory_pointing_outside_the_library_is_refused_without_being_called) {
  LoadedTestPlugins loaded;
  const std::string reason = reasonFor(loaded.host, "garbage_factory");
  BOOST_TEST(reason.find("does not point into the library's code") != std::string::npos, reason);
}

BOOST_AUTO_TEST_CASE(an_entry_point_returning_no_descriptor_is_refused) {
  LoadedTestPlugins loaded;
  BOOST_TEST(reasonFor(loaded.host, "null_descriptor").find("returned no descriptor") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_descriptor_pointer_outside_the_library_is_refused_without_being_read) {
  LoadedTestPlugins loaded;
  const std::string reason = reasonFor(loaded.host, "wild_descriptor");
  BOOST_TEST(reason.find("returned a pointer outside the library") != std::string::npos, reason);
}

BOOST_AUTO_TEST_CASE(a_lookup_opens_the_library_named_after_the_plugin_and_no_other) {
  npu::test::TemporaryDirectory directory;
  // Sorts before the wanted file: opened in this process, its constructor would abort the test.
  std::filesystem::copy_file(kCrashingPluginDir / "npu_test_ctor_abort.so", directory.path() / "npu_a_abort.so");
  std::filesystem::copy_file(kPluginDir / "npu_test_good_frontend.so", directory.path() / "npu_test_frontend.so");
  npu::PluginHost host;
  host.loadDirectory(directory.path());
  BOOST_TEST(host.find(npu::PluginKind::Frontend, "test_frontend") != nullptr);
}

BOOST_AUTO_TEST_CASE(inspecting_in_child_processes_refuses_libraries_that_end_the_process_while_loading) {
  npu::test::TemporaryDirectory directory;
  for (const auto& entry : std::filesystem::directory_iterator(kCrashingPluginDir)) {
    std::filesystem::copy_file(entry.path(), directory.path() / entry.path().filename());
  }
  std::filesystem::copy_file(kPluginDir / "npu_test_good_frontend.so", directory.path() / "npu_test_good_frontend.so");
  std::filesystem::copy_file(kPluginDir / "npu_test_garbage_factory.so", directory.path() / "npu_test_garbage.so");
  npu::PluginHost host(npu::PluginHost::Loading::InspectInChild);
  host.loadDirectory(directory.path());
  BOOST_TEST(reasonFor(host, "ctor_abort").find("crashed with signal 6") != std::string::npos,
             reasonFor(host, "ctor_abort"));
  // The status is the test runner's (its atexit handlers run in the child); npu-pipeline's is exit()'s.
  BOOST_TEST(reasonFor(host, "ctor_exit").find("ended the process with exit status") != std::string::npos,
             reasonFor(host, "ctor_exit"));
  BOOST_TEST(reasonFor(host, "garbage").find("does not point into the library's code") != std::string::npos);
  BOOST_REQUIRE(host.plugins().size() == 1U);
  BOOST_TEST(host.plugins().front().id == "test_frontend");
  BOOST_TEST(host.plugins().front().version == "1.0.0");
  BOOST_TEST(host.find(npu::PluginKind::Frontend, "test_frontend") == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
