// SPDX-License-Identifier: Apache-2.0
#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

namespace {

const std::filesystem::path kPluginDir{NPU_TEST_PLUGIN_DIR};

/// The rendered error of parsing `text` as pipeline file "p.yaml" (empty when it parses).
std::string parseError(const std::string& text) {
  try {
    (void)npu::parsePipelineText(text, "p.yaml");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.exitCode() == 2);
    return error.render();
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

npu::PluginHost hostWithTestFrontend() {
  npu::PluginHost host;
  host.loadFile(kPluginDir / "npu_test_good_frontend.so");
  return host;
}

} // namespace

BOOST_AUTO_TEST_SUITE(pipeline_yaml)

BOOST_AUTO_TEST_CASE(a_complete_pipeline_parses_into_its_sections) {
  const auto spec = npu::parsePipelineText(R"(
name: demo
accelerator:
  plugin: perf_u55
  config: ethos-u55-128
  system: ethos_u55_high_end_embedded
  memory_mode: shared_sram
  arena_cache_size: 512KiB
stages:
  - frontend: frontend_tflite
  - lowering: ethosu_lowering
  - scheduler: { plugin: scheduler_cascade, optimise: size }
  - allocator: { plugin: allocator_hillclimb }
report: { formats: [text, csv, json, html] }
)",
                                           "demo.yaml");
  BOOST_TEST(spec.name == "demo");
  BOOST_REQUIRE(spec.accelerator.has_value());
  BOOST_TEST(spec.accelerator->config == "ethos-u55-128");
  BOOST_TEST(spec.accelerator->options.at("arena_cache_size").first == "512KiB");
  BOOST_TEST(spec.stages.size() == 4U);
  BOOST_TEST(spec.stage(npu::PluginKind::Scheduler)->options.at("optimise").first == "size");
  BOOST_TEST(spec.report.formats.size() == 4U);
}

BOOST_AUTO_TEST_CASE(an_unknown_top_level_key_is_an_error_at_the_key) {
  const std::string error = parseError("stages:\n  - frontend: x\nschedular: y\n");
  BOOST_TEST(contains(error, "p.yaml:3:1:"), error);
  BOOST_TEST(contains(error, "unknown key 'schedular'"));
  BOOST_TEST(contains(parseError("stages:\n  - frontend: x\nreport: { format: [text] }\n"), "p.yaml:3:11:"));
}

BOOST_AUTO_TEST_CASE(a_second_yaml_document_is_an_error_instead_of_being_ignored) {
  const std::string error = parseError("stages:\n  - frontend: x\n---\nstages:\n  - frontend: y\n");
  BOOST_TEST(contains(error, "more than one YAML document"), error);
  BOOST_TEST(contains(error, "p.yaml:4:"), error);
}

BOOST_AUTO_TEST_CASE(an_empty_name_of_a_plugin_or_config_is_an_error_not_a_default) {
  const std::string config = parseError("accelerator: { plugin: a, config: \"\" }\nstages:\n  - frontend: f\n");
  BOOST_TEST(contains(config, "p.yaml:1:35: error: 'config' is empty"), config);
  BOOST_TEST(contains(parseError("accelerator:\n  plugin: a\n  system:\nstages:\n  - frontend: f\n"),
                      "'system' needs a value"));
  BOOST_TEST(contains(parseError("stages:\n  - frontend: ''\n"), "'plugin' is empty"));
}

BOOST_AUTO_TEST_CASE(a_pipeline_without_a_frontend_is_refused_when_it_is_read) {
  const std::string error =
      parseError("accelerator: a\nstages:\n  - lowering: l\n  - scheduler: s\n  - allocator: x\n");
  BOOST_TEST(contains(error, "p.yaml:3:15: error: the pipeline has no frontend stage"), error);
}

BOOST_AUTO_TEST_CASE(a_plugin_path_that_is_not_a_directory_is_an_error) {
  const std::string error = parseError("plugin_path: [no_such_folder]\nstages:\n  - frontend: f\n");
  BOOST_TEST(contains(error, "p.yaml:1:15: error: plugin_path 'no_such_folder' is not a directory"), error);
  BOOST_TEST(parseError("plugin_path: " + kPluginDir.string() + "\nstages:\n  - frontend: f\n").empty());
}

BOOST_AUTO_TEST_CASE(malformed_yaml_reports_the_parser_position) {
  const std::string error = parseError("stages:\n  - frontend: [unclosed\n");
  BOOST_TEST(contains(error, "p.yaml:"));
  BOOST_TEST(contains(error, "invalid YAML"));
}

BOOST_AUTO_TEST_CASE(wrong_types_and_shapes_are_errors) {
  BOOST_TEST(contains(parseError("stages: frontend\n"), "must be a list"));
  BOOST_TEST(contains(parseError("stages:\n  - frontend: x\nname: [a, b]\n"), "'name' must be a single value"));
  BOOST_TEST(contains(parseError("stages:\n  - frontend: x\n    lowering: y\n"), "one `kind: plugin` entry"));
  BOOST_TEST(contains(parseError("stages:\n  - frontend: x\nreport: { formats: [pdf] }\n"), "unknown report format"));
}

BOOST_AUTO_TEST_CASE(stages_must_come_in_order_and_once) {
  BOOST_TEST(contains(parseError("stages:\n  - scheduler: s\n  - frontend: f\n"), "out of order"));
  BOOST_TEST(contains(parseError("stages:\n  - frontend: f\n  - frontend: g\n"), "out of order or repeated"));
  BOOST_TEST(contains(parseError("stages:\n  - optimiser: f\n"), "unknown stage kind 'optimiser'"));
}

BOOST_AUTO_TEST_CASE(scheduling_without_an_accelerator_is_an_error) {
  BOOST_TEST(contains(parseError("stages:\n  - frontend: f\n  - scheduler: s\n"), "need an `accelerator:`"));
}

BOOST_AUTO_TEST_CASE(scheduling_without_an_allocator_is_an_error) {
  BOOST_TEST(
      contains(parseError("accelerator: a\nstages:\n  - frontend: f\n  - scheduler: s\n"), "needs an allocator stage"));
}

BOOST_AUTO_TEST_CASE(duplicate_keys_are_errors) {
  BOOST_TEST(contains(parseError("name: a\nname: b\nstages:\n  - frontend: f\n"), "duplicate key 'name'"));
}

BOOST_AUTO_TEST_CASE(set_overrides_reach_stages_accelerator_and_report) {
  auto spec = npu::parsePipelineText(
      "accelerator: { plugin: a }\nstages:\n  - frontend: f\n  - scheduler: s\n  - allocator: x\n", "p.yaml");
  npu::applyOverride(spec, "scheduler.optimise=size");
  npu::applyOverride(spec, "accelerator.config=ethos-u55-64");
  npu::applyOverride(spec, "accelerator.arena_cache_size=1MiB");
  npu::applyOverride(spec, "report.formats=csv,html");
  BOOST_TEST(spec.stage(npu::PluginKind::Scheduler)->options.at("optimise").first == "size");
  BOOST_TEST(spec.accelerator->config == "ethos-u55-64");
  BOOST_TEST(spec.accelerator->options.at("arena_cache_size").first == "1MiB");
  BOOST_TEST(spec.report.formats.size() == 2U);
  BOOST_CHECK_THROW(npu::applyOverride(spec, "lowering.x=1"), npu::Error);
  BOOST_CHECK_THROW(npu::applyOverride(spec, "novalue"), npu::Error);
}

BOOST_AUTO_TEST_CASE(set_overrides_are_blamed_on_the_set_option_not_on_a_pipeline_line) {
  auto host = hostWithTestFrontend();
  auto spec = npu::parsePipelineText("name: x\nstages:\n  - frontend: test_frontend\n", "p.yaml");
  npu::applyOverride(spec, "frontend.flavour=sweet");
  try {
    (void)npu::resolvePipeline(spec, host, {});
    BOOST_FAIL("expected an error");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.render().starts_with("--set frontend.flavour=sweet: error:"), error.render());
  }
  npu::applyOverride(spec, "frontend.plugin=no_such_frontend");
  try {
    (void)npu::resolvePipeline(spec, host, {});
    BOOST_FAIL("expected an error");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.render().starts_with("--set frontend.plugin=no_such_frontend: error:"), error.render());
  }
  auto withAccelerator = npu::parsePipelineText(
      "accelerator: { plugin: a, config: c }\nstages:\n  - frontend: f\n  - scheduler: s\n  - allocator: x\n",
      "p.yaml");
  npu::applyOverride(withAccelerator, "accelerator.system=mine.yaml");
  BOOST_TEST(withAccelerator.accelerator->locationOf("system").file == "--set accelerator.system=mine.yaml");
  BOOST_TEST(withAccelerator.accelerator->locationOf("config").line == 1);
  BOOST_CHECK_THROW(npu::applyOverride(withAccelerator, "accelerator.config="), npu::Error);
}

BOOST_AUTO_TEST_CASE(resolution_fills_defaults_and_records_versions) {
  auto host = hostWithTestFrontend();
  const auto spec = npu::parsePipelineText("stages:\n  - frontend: test_frontend\n", "p.yaml");
  const auto resolved = npu::resolvePipeline(spec, host, {});
  BOOST_TEST(resolved.stage(npu::PluginKind::Frontend)->options.getString("flavour") == "plain");
  const std::string yaml = resolved.toYaml();
  BOOST_TEST(contains(yaml, "plugin_version: 1.0.0"));
  BOOST_TEST(contains(yaml, "flavour: plain"));
}

BOOST_AUTO_TEST_CASE(unknown_options_bad_values_and_missing_plugins_are_located_errors) {
  auto host = hostWithTestFrontend();
  const auto resolveError = [&](const std::string& text) -> std::string {
    try {
      (void)npu::resolvePipeline(npu::parsePipelineText(text, "p.yaml"), host, {});
    } catch (const npu::Error& error) {
      return error.render();
    }
    return {};
  };
  const std::string unknown = resolveError("stages:\n  - frontend: { plugin: test_frontend, colour: red }\n");
  BOOST_TEST(contains(unknown, "p.yaml:2:40")); // the key, not its value
  BOOST_TEST(contains(unknown, "unknown option 'colour'"));
  BOOST_TEST(contains(unknown, "known options: flavour"));
  const std::string badChoice = resolveError("stages:\n  - frontend: { plugin: test_frontend, flavour: sweet }\n");
  BOOST_TEST(contains(badChoice, "one of: plain, spicy"));
  const std::string missing = resolveError("stages:\n  - frontend: tflite_frontend\n");
  BOOST_TEST(contains(missing, "p.yaml:2:15"));
  BOOST_TEST(contains(missing, "no frontend plugin 'tflite_frontend'"));
}

BOOST_AUTO_TEST_CASE(the_resolved_pipeline_reparses_to_the_same_resolution) {
  auto host = hostWithTestFrontend();
  const auto first = npu::resolvePipeline(
      npu::parsePipelineText("name: x\nstages:\n  - frontend: { plugin: test_frontend, flavour: spicy }\n", "p.yaml"),
      host, {});
  auto reparsed = npu::parsePipelineText(first.toYaml(), "p.yaml");
  // plugin_version is informative output; it is not an option of the plugin.
  reparsed.stage(npu::PluginKind::Frontend)->options.erase("plugin_version");
  const auto second = npu::resolvePipeline(reparsed, host, {});
  BOOST_TEST(second.toYaml() == first.toYaml());
}

BOOST_AUTO_TEST_CASE(fit_search_is_on_by_default_and_turned_off_in_the_file_or_by_set) {
  BOOST_TEST(npu::parsePipelineText("stages:\n  - frontend: f\n", "p.yaml").fitSearch);
  BOOST_TEST(!npu::parsePipelineText("fit_search: false\nstages:\n  - frontend: f\n", "p.yaml").fitSearch);
  auto spec = npu::parsePipelineText("stages:\n  - frontend: f\n", "p.yaml");
  npu::applyOverride(spec, "fit_search=off");
  BOOST_TEST(!spec.fitSearch);
  BOOST_TEST(contains(parseError("fit_search: sometimes\nstages:\n  - frontend: f\n"), "p.yaml:1:13"));
}

BOOST_AUTO_TEST_CASE(a_pipeline_with_fit_search_off_says_so_when_printed_and_reparses_to_it) {
  auto host = hostWithTestFrontend();
  const auto off = npu::resolvePipeline(
      npu::parsePipelineText("fit_search: false\nstages:\n  - frontend: test_frontend\n", "p.yaml"), host, {});
  BOOST_TEST(contains(off.toYaml(), "fit_search: false"));
  BOOST_TEST(!npu::parsePipelineText(off.toYaml(), "p.yaml").fitSearch);
  const auto on =
      npu::resolvePipeline(npu::parsePipelineText("stages:\n  - frontend: test_frontend\n", "p.yaml"), host, {});
  BOOST_TEST(!contains(on.toYaml(), "fit_search")); // the default leaves recorded pipelines as they were
}

BOOST_AUTO_TEST_SUITE_END()
