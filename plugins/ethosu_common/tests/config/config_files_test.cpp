// SPDX-License-Identifier: Apache-2.0
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

/// A system config like Vela's high-end embedded one with core_clock (line 3) and the Sram timing
/// (line 7, its first key at column 12) replaced.
std::string systemYaml(const std::string& coreClock, const std::string& sramTiming) {
  return "system_config:\n  name: S\n  core_clock: " + coreClock +
         "\n  axi0_port: Sram\n  axi1_port: OffChipFlash\n  memories:\n    Sram: {" + sramTiming +
         "}\n    OffChipFlash: {clock_scale: 0.125, burst_length: 128, read_latency: 64, write_latency: 64}\n";
}

const std::string kSramTiming = "clock_scale: 1.0, burst_length: 32, read_latency: 32, write_latency: 32";

/// The rendered Config error of reading `yaml` as system config "s.yaml" (empty when it is accepted).
std::string systemError(const std::string& yaml) {
  try {
    (void)ethosu::parseSystemConfigYaml(yaml, "s.yaml");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.exitCode() == 2);
    return error.render();
  }
  return {};
}

} // namespace

BOOST_AUTO_TEST_SUITE(config_files)

BOOST_AUTO_TEST_CASE(a_core_clock_outside_1_mhz_to_10_ghz_is_refused_at_its_line_and_column) {
  BOOST_TEST(systemError(systemYaml("500e6", kSramTiming)).empty());
  for (const std::string clock : {"0", "-500e6", "1e-300", "1e300", "999999"}) {
    BOOST_TEST_CONTEXT(clock) {
      const std::string error = systemError(systemYaml(clock, kSramTiming));
      BOOST_TEST(error.starts_with("s.yaml:3:15: error: core_clock "), error);
      BOOST_TEST(error.find("is out of range") != std::string::npos, error);
    }
  }
}

BOOST_AUTO_TEST_CASE(memory_timings_outside_their_ranges_are_refused_at_the_value) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"clock_scale: 0, burst_length: 32", "s.yaml:7:25: error: clock_scale 0 is out of range"},
      {"clock_scale: -1, burst_length: 32", "s.yaml:7:25: error: clock_scale -1 is out of range"},
      {"burst_length: -32", "s.yaml:7:26: error: burst_length -32 bytes is out of range"},
      {"burst_length: 0", "s.yaml:7:26: error: burst_length 0 bytes is out of range"},
      {"read_latency: -1", "s.yaml:7:26: error: read_latency -1 cycles is out of range"},
      {"write_latency: 1000000", "s.yaml:7:27: error: write_latency 1000000 cycles is out of range"},
  };
  for (const auto& [timing, expected] : cases) {
    BOOST_TEST_CONTEXT(timing) {
      const std::string error = systemError(systemYaml("500e6", timing));
      BOOST_TEST(error.starts_with(expected), error);
    }
  }
}

BOOST_AUTO_TEST_CASE(every_memory_on_a_port_must_have_its_timing) {
  const std::string empty = systemError("system_config:\n  name: S\n  core_clock: 500e6\n  axi0_port: Sram\n"
                                        "  axi1_port: Dram\n  memories: {}\n");
  BOOST_TEST(empty.starts_with("s.yaml:6:13: error: memories has no entry for Sram"), empty);
  const std::string missing = systemError("system_config:\n  name: S\n  core_clock: 500e6\n  axi0_port: Sram\n"
                                          "  axi1_port: Dram\n");
  BOOST_TEST(missing.find("missing key 'memories'") != std::string::npos, missing);
  const std::string partial = systemError("system_config:\n  name: S\n  core_clock: 500e6\n  axi0_port: Sram\n"
                                          "  axi1_port: Dram\n  memories:\n    Sram: {clock_scale: 1}\n");
  BOOST_TEST(partial.find("no entry for Dram, the memory on axi1_port") != std::string::npos, partial);
}

BOOST_AUTO_TEST_CASE(a_second_yaml_document_in_a_config_is_an_error) {
  const std::string error = systemError(systemYaml("500e6", kSramTiming) + "---\n" + systemYaml("1e9", kSramTiming));
  BOOST_TEST(error.starts_with("s.yaml:10:1: error: the file holds more than one YAML document"), error);
}

BOOST_AUTO_TEST_CASE(a_negative_or_huge_arena_cache_size_is_refused_at_its_line) {
  const auto modeError = [](const std::string& size) -> std::string {
    try {
      (void)ethosu::parseMemoryModeYaml("memory_mode:\n  name: M\n  const_mem_area: Axi1\n  arena_mem_area: Axi0\n"
                                        "  cache_mem_area: Axi0\n  arena_cache_size: " +
                                            size + "\n",
                                        "m.yaml");
    } catch (const npu::Error& error) {
      return error.render();
    }
    return {};
  };
  BOOST_TEST(modeError("-1").starts_with("m.yaml:6:21: error:"));
  BOOST_TEST(modeError("9223372036854775807").starts_with("m.yaml:6:21: error: arena_cache_size"));
  BOOST_TEST(modeError("384KiB").empty());
}

BOOST_AUTO_TEST_CASE(an_arena_cache_size_too_large_for_the_variant_blames_the_line_that_sets_it) {
  npu::test::TemporaryDirectory folder;
  const auto file = folder.path() / "big.yaml";
  npu::test::writeFile(file, "memory_mode:\n  name: Big\n  const_mem_area: Axi1\n  arena_mem_area: Axi0\n"
                             "  cache_mem_area: Axi0\n  arena_cache_size: 8GiB\n");
  const auto& variant = u55();
  const auto system = ethosu::resolveSystemConfig("ethos_u55_high_end_embedded", variant, searchPath(), {});
  const auto mode = ethosu::resolveMemoryMode(file.string(), variant, {}, {});
  const auto location =
      errorLocation([&] { (void)ethosu::buildMemorySystem(variant, system, mode, std::nullopt, {}); });
  BOOST_TEST(location.file == file.string());
  BOOST_TEST(location.line == 6);
  const npu::SourceLocation setting{"--set accelerator.arena_cache_size=8GiB", 0, 0, {}};
  const auto overridden = errorLocation([&] {
    (void)ethosu::buildMemorySystem(variant, system, mode, std::int64_t{1} << 33, {{}, {}, setting});
  });
  BOOST_TEST(overridden.file == setting.file);
}

BOOST_AUTO_TEST_CASE(a_config_path_that_is_not_a_regular_file_is_refused_without_reading_it) {
  const npu::SourceLocation where{"pipeline.yaml", 5, 11, {}};
  try {
    (void)ethosu::resolveSystemConfig("/dev/zero", u55(), searchPath(), where);
    BOOST_FAIL("expected an error");
  } catch (const npu::Error& error) {
    BOOST_TEST(error.exitCode() == 2);
    BOOST_TEST(error.location().line == 5);
    BOOST_TEST(error.message().find("is not a regular file (it is a character device)") != std::string::npos,
               error.message());
  }
  npu::test::TemporaryDirectory folder;
  std::filesystem::create_directory(folder.path() / "folder.ini");
  BOOST_CHECK_THROW((void)ethosu::resolveMemoryMode((folder.path() / "folder.ini").string() + ":M", u55(), {}, where),
                    npu::Error);
}

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
