#include "ethosu/config/config_files.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <functional>

namespace {

std::vector<std::filesystem::path> searchPath() {
  const auto configs = npu::test::sourceDir() / "configs";
  return {configs / "systems", configs / "memory_modes"};
}

const ethosu::VariantSpec& u55() {
  return *ethosu::findVariant("ethos-u55-128");
}

/// The location of the Config error `action` throws (a default location when it throws none).
npu::SourceLocation errorLocation(const std::function<void()>& action) {
  try {
    action();
  } catch (const npu::Error& error) {
    if (error.kind() == npu::ErrorKind::Config) {
      return error.location();
    }
  }
  return {};
}

} // namespace

BOOST_AUTO_TEST_SUITE(config_files)

BOOST_AUTO_TEST_CASE(a_system_config_survives_writing_and_reading_yaml) {
  const auto original = ethosu::resolveSystemConfig("ethos_u65_high_end", u55(), searchPath(), {});
  const auto copy = ethosu::parseSystemConfigYaml(ethosu::systemConfigToYaml(original), "copy.yaml");
  BOOST_TEST(copy.name == original.name);
  BOOST_TEST(copy.sameSettings(original));
}

BOOST_AUTO_TEST_CASE(a_memory_mode_survives_writing_and_reading_yaml) {
  const auto original = ethosu::resolveMemoryMode("dedicated_sram", u55(), searchPath(), {});
  const auto copy = ethosu::parseMemoryModeYaml(ethosu::memoryModeToYaml(original), "copy.yaml");
  BOOST_TEST(copy.sameSettings(original));
  BOOST_TEST(original.arenaCacheSize.value_or(0) == 393216);
}

BOOST_AUTO_TEST_CASE(configs_are_found_by_file_name_or_by_vela_name) {
  const auto byFile = ethosu::resolveSystemConfig("ethos_u55_deep_embedded", u55(), searchPath(), {});
  const auto byVelaName = ethosu::resolveSystemConfig("Ethos_U55_Deep_Embedded", u55(), searchPath(), {});
  BOOST_TEST(byFile.name == "Ethos_U55_Deep_Embedded");
  BOOST_TEST(byFile.sameSettings(byVelaName));
  BOOST_TEST(byFile.coreClockHz == 200e6);
}

BOOST_AUTO_TEST_CASE(the_configs_folder_itself_may_be_on_the_search_path) {
  const std::vector<std::filesystem::path> root{npu::test::sourceDir() / "configs"};
  BOOST_TEST(ethosu::resolveMemoryMode("shared_sram", u55(), root, {}).name == "Shared_Sram");
}

BOOST_AUTO_TEST_CASE(internal_default_is_vela_s_built_in_config) {
  const auto system = ethosu::resolveSystemConfig("internal-default", u55(), {}, {});
  const auto highEnd = ethosu::resolveSystemConfig("ethos_u55_high_end_embedded", u55(), searchPath(), {});
  BOOST_TEST(system.sameSettings(highEnd));
  const auto& u65 = *ethosu::findVariant("ethos-u65-256");
  const auto u65System = ethosu::resolveSystemConfig("internal-default", u65, {}, {});
  const auto clientServer = ethosu::resolveSystemConfig("ethos_u65_client_server", u65, searchPath(), {});
  BOOST_TEST(u65System.sameSettings(clientServer));
  const auto u65Mode = ethosu::resolveMemoryMode("internal-default", u65, {}, {});
  BOOST_TEST(u65Mode.sameSettings(ethosu::resolveMemoryMode("dedicated_sram", u65, searchPath(), {})));
}

BOOST_AUTO_TEST_CASE(a_section_of_a_vela_ini_file_can_be_named_directly) {
  const auto ini = npu::test::sourceDir() / "plugins/ethosu_common/tests/config/data/vela_systems.ini";
  const auto fromIni = ethosu::resolveSystemConfig(ini.string() + ":Ethos_U65_Mid_End", u55(), searchPath(), {});
  const auto fromYaml = ethosu::resolveSystemConfig("ethos_u65_mid_end", u55(), searchPath(), {});
  BOOST_TEST(fromIni.sameSettings(fromYaml));
  // Four memory modes in the file: which one must be said.
  BOOST_CHECK_THROW((void)ethosu::resolveMemoryMode(ini.string(), u55(), searchPath(), {}), npu::Error);
  BOOST_TEST(ethosu::resolveMemoryMode(ini.string() + ":Sram_Only", u55(), searchPath(), {}).name == "Sram_Only");
}

BOOST_AUTO_TEST_CASE(an_unknown_name_says_where_it_looked) {
  try {
    (void)ethosu::resolveSystemConfig("warp_drive", u55(), searchPath(), {"pipeline.yaml", 3, 11, {}});
    BOOST_FAIL("expected an error");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.location().line == 3);
    BOOST_TEST(error.hint().find("warp_drive.yaml") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(yaml_errors_carry_file_line_and_column) {
  const auto unknownKey = errorLocation([] {
    (void)ethosu::parseSystemConfigYaml("system_config:\n  name: S\n  core_clock: 1e9\n  axi0_port: Sram\n"
                                        "  axi1_port: Dram\n  core_clok: 5\n",
                                        "s.yaml");
  });
  BOOST_TEST(unknownKey.file == "s.yaml");
  BOOST_TEST(unknownKey.line == 6);
  BOOST_TEST(unknownKey.column == 3);

  const auto badNumber = errorLocation([] {
    (void)ethosu::parseSystemConfigYaml("system_config:\n  name: S\n  core_clock: fast\n  axi0_port: Sram\n"
                                        "  axi1_port: Dram\n",
                                        "s.yaml");
  });
  BOOST_TEST(badNumber.line == 3);
  BOOST_TEST(badNumber.column == 15);

  const auto memoryOffPort = errorLocation([] {
    (void)ethosu::parseSystemConfigYaml("system_config:\n  name: S\n  core_clock: 1e9\n  axi0_port: Sram\n"
                                        "  axi1_port: Dram\n  memories:\n    OffChipFlash: {clock_scale: 1}\n",
                                        "s.yaml");
  });
  BOOST_TEST(memoryOffPort.line == 7);

  const auto syntax = errorLocation([] { (void)ethosu::parseMemoryModeYaml("memory_mode: [a,\n", "m.yaml"); });
  BOOST_TEST(syntax.file == "m.yaml");
  BOOST_TEST(syntax.line >= 1);

  const auto wrongKind =
      errorLocation([] { (void)ethosu::parseMemoryModeYaml("system_config:\n  name: S\n", "m.yaml"); });
  BOOST_TEST(wrongKind.file == "m.yaml");

  const auto badPort = errorLocation([] {
    (void)ethosu::parseMemoryModeYaml("memory_mode:\n  name: M\n  const_mem_area: Axi2\n  arena_mem_area: Axi0\n"
                                      "  cache_mem_area: Axi0\n",
                                      "m.yaml");
  });
  BOOST_TEST(badPort.line == 3);
}

BOOST_AUTO_TEST_CASE(the_arena_cache_size_may_be_written_with_a_unit) {
  const auto mode = ethosu::parseMemoryModeYaml("memory_mode:\n  name: M\n  const_mem_area: Axi1\n"
                                                "  arena_mem_area: Axi1\n  cache_mem_area: Axi0\n"
                                                "  arena_cache_size: 384KiB\n",
                                                "m.yaml");
  BOOST_TEST(mode.arenaCacheSize.value_or(0) == 393216);
}

BOOST_AUTO_TEST_CASE(a_yaml_file_can_be_named_by_path) {
  npu::test::TemporaryDirectory folder;
  const auto file = folder.path() / "mine.yaml";
  npu::test::writeFile(file, "memory_mode:\n  name: Mine\n  const_mem_area: Axi1\n  arena_mem_area: Axi0\n"
                             "  cache_mem_area: Axi0\n");
  BOOST_TEST(ethosu::resolveMemoryMode(file.string(), u55(), {}, {}).name == "Mine");
}

BOOST_AUTO_TEST_SUITE_END()
