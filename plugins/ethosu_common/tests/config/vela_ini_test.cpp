// SPDX-License-Identifier: Apache-2.0
#include "ethosu/config/config_files.hpp"
#include "ethosu/config/vela_ini.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

namespace {

std::filesystem::path testIni() {
  return npu::test::sourceDir() / "plugins/ethosu_common/tests/config/data/vela_systems.ini";
}
std::filesystem::path configsDir() {
  return npu::test::sourceDir() / "configs";
}

bool throwsConfigErrorAt(const std::function<void()>& action, int line) {
  try {
    action();
  } catch (const npu::Error& error) {
    return error.kind() == npu::ErrorKind::Config && error.location().line == line;
  }
  return false;
}

bool throwsConfigErrorMentioning(const std::function<void()>& action, const std::string& text) {
  try {
    action();
  } catch (const npu::Error& error) {
    return error.kind() == npu::ErrorKind::Config &&
           (error.message().find(text) != std::string::npos || error.hint().find(text) != std::string::npos);
  }
  return false;
}

} // namespace

BOOST_AUTO_TEST_SUITE(vela_ini)

BOOST_AUTO_TEST_CASE(every_system_config_of_vela_ini_equals_its_yaml_file) {
  const auto ini = ethosu::VelaIniFile::load(testIni());
  const auto names = ini.systemConfigNames();
  BOOST_TEST(names.size() == 6U);
  for (const auto& name : names) {
    BOOST_TEST_CONTEXT(name) {
      const auto fromIni = ethosu::readSystemConfig(ini, name);
      const auto yamlFile = configsDir() / "systems" / (ethosu::configFileStem(name) + ".yaml");
      const auto fromYaml = ethosu::parseSystemConfigYaml(npu::test::readFile(yamlFile), yamlFile.string());
      BOOST_TEST(fromYaml.name == name);
      BOOST_TEST(fromIni.sameSettings(fromYaml));
    }
  }
}

BOOST_AUTO_TEST_CASE(every_memory_mode_of_vela_ini_equals_its_yaml_file) {
  const auto ini = ethosu::VelaIniFile::load(testIni());
  const auto names = ini.memoryModeNames();
  BOOST_TEST(names.size() == 4U);
  for (const auto& name : names) {
    BOOST_TEST_CONTEXT(name) {
      const auto fromIni = ethosu::readMemoryMode(ini, name);
      const auto yamlFile = configsDir() / "memory_modes" / (ethosu::configFileStem(name) + ".yaml");
      const auto fromYaml = ethosu::parseMemoryModeYaml(npu::test::readFile(yamlFile), yamlFile.string());
      BOOST_TEST(fromYaml.name == name);
      BOOST_TEST(fromIni.sameSettings(fromYaml));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_memory_mode_inherits_the_keys_it_does_not_set) {
  const auto ini = ethosu::VelaIniFile::load(testIni());
  const auto mode = ethosu::readMemoryMode(ini, "Dedicated_Sram_512KB");
  BOOST_TEST((mode.arenaPort == ethosu::AxiPort::Axi1));
  BOOST_TEST((mode.cachePort == ethosu::AxiPort::Axi0));
  BOOST_TEST(mode.arenaCacheSize.value_or(0) == 524288);
}

BOOST_AUTO_TEST_CASE(keys_match_without_regard_to_case_and_default_keys_apply_everywhere) {
  const auto ini = ethosu::VelaIniFile::parse("[DEFAULT]\nsram_burst_length = 64\n"
                                              "[System_Config.Mine]\nCORE_CLOCK : 400e6\nAxi0_Port=Sram\n"
                                              "axi1_port=Dram\n# a comment\n; another\nDRAM_CLOCK_SCALE=0.5\n",
                                              "mine.ini");
  const auto config = ethosu::readSystemConfig(ini, "Mine");
  BOOST_TEST(config.coreClockHz == 400e6);
  BOOST_TEST(config.timingOf(npu::MemoryArea::Sram).burstLength == 64);
  BOOST_TEST(config.timingOf(npu::MemoryArea::Dram).clockScale == 0.5);
  BOOST_TEST(config.timingOf(npu::MemoryArea::Dram).burstLength == 1); // Vela's initial value
}

BOOST_AUTO_TEST_CASE(settings_of_memories_on_no_port_are_ignored_as_in_vela) {
  const auto ini = ethosu::VelaIniFile::parse(
      "[System_Config.Mine]\ncore_clock=500e6\naxi0_port=Sram\naxi1_port=OffChipFlash\nDram_clock_scale=0.5\n",
      "mine.ini");
  BOOST_TEST(ethosu::readSystemConfig(ini, "Mine").timingOf(npu::MemoryArea::Dram).clockScale == 1.0);
}

BOOST_AUTO_TEST_CASE(malformed_files_are_refused_with_the_line) {
  BOOST_TEST(throwsConfigErrorAt([] { (void)ethosu::VelaIniFile::parse("core_clock=1\n", "x.ini"); }, 1));
  BOOST_TEST(throwsConfigErrorAt(
      [] { (void)ethosu::VelaIniFile::parse("[Memory_Mode.M]\naxi0_port=Sram\n\naxi0_port=Dram\n", "x.ini"); }, 4));
  BOOST_TEST(throwsConfigErrorAt([] { (void)ethosu::VelaIniFile::parse("[Memory_Mode.M]\njust text\n", "x.ini"); }, 2));
  BOOST_TEST(throwsConfigErrorAt(
      [] {
        const auto ini = ethosu::VelaIniFile::parse("[System_Config.S]\naxi0_port=Sram\naxi1_port=Dram\n"
                                                    "core_clock=fast\n",
                                                    "x.ini");
        (void)ethosu::readSystemConfig(ini, "S");
      },
      4));
}

BOOST_AUTO_TEST_CASE(unknown_sections_and_inheritance_loops_are_config_errors) {
  const auto ini = ethosu::VelaIniFile::load(testIni());
  BOOST_TEST(
      throwsConfigErrorMentioning([&] { (void)ethosu::readSystemConfig(ini, "Nope"); }, "Ethos_U55_High_End_Embedded"));
  const auto looped = ethosu::VelaIniFile::parse("[Memory_Mode.A]\ninherit=Memory_Mode.B\n"
                                                 "[Memory_Mode.B]\ninherit=Memory_Mode.A\n",
                                                 "loop.ini");
  BOOST_TEST(throwsConfigErrorMentioning([&] { (void)ethosu::readMemoryMode(looped, "A"); }, "loop"));
  const auto self = ethosu::VelaIniFile::parse("[Memory_Mode.A]\ninherit=Memory_Mode.A\n", "self.ini");
  BOOST_TEST(throwsConfigErrorMentioning([&] { (void)ethosu::readMemoryMode(self, "A"); }, "itself"));
}

BOOST_AUTO_TEST_CASE(a_missing_axi_port_is_reported_instead_of_guessed) {
  const auto ini = ethosu::VelaIniFile::parse("[System_Config.S]\naxi0_port=Sram\n", "x.ini");
  BOOST_TEST(throwsConfigErrorMentioning([&] { (void)ethosu::readSystemConfig(ini, "S"); }, "axi1_port"));
}

BOOST_AUTO_TEST_CASE(a_misspelt_key_or_unknown_section_is_an_error_at_its_line) {
  BOOST_TEST(throwsConfigErrorAt(
      [] {
        (void)ethosu::VelaIniFile::parse("[System_Config.S]\naxi0_port=Sram\naxi1_port=Dram\ncore_clok=500e6\n",
                                         "x.ini");
      },
      4));
  BOOST_TEST(throwsConfigErrorMentioning(
      [] { (void)ethosu::VelaIniFile::parse("[System_Config.S]\nSram_burst_lenght=32\n", "x.ini"); },
      "sram_burst_length"));
  // A memory mode key in a system config section is as wrong as a misspelt one.
  BOOST_TEST(throwsConfigErrorAt(
      [] { (void)ethosu::VelaIniFile::parse("[System_Config.S]\ncore_clock=1e9\narena_cache_size=1\n", "x.ini"); }, 3));
  BOOST_TEST(throwsConfigErrorAt([] { (void)ethosu::VelaIniFile::parse("[DEFAULT]\ncolour=red\n", "x.ini"); }, 2));
  BOOST_TEST(throwsConfigErrorAt([] { (void)ethosu::VelaIniFile::parse("[Mem_Mode.M]\n", "x.ini"); }, 1));
}

BOOST_AUTO_TEST_CASE(numbers_outside_their_ranges_are_errors_at_their_line) {
  const auto systemWith = [](const std::string& line) {
    return "[System_Config.S]\naxi0_port=Sram\naxi1_port=OffChipFlash\ncore_clock=500e6\n" + line + "\n";
  };
  for (const std::string line :
       {"core_clock=0", "core_clock=-1e9", "core_clock=1e-300", "Sram_clock_scale=0", "OffChipFlash_clock_scale=-0.5",
        "Sram_burst_length=-32", "Sram_read_latency=-1", "OffChipFlash_write_latency=1000000"}) {
    BOOST_TEST_CONTEXT(line) {
      // core_clock set twice is its own error (line 5); each other line is refused for its value.
      const std::string text = line.starts_with("core_clock")
                                   ? "[System_Config.S]\naxi0_port=Sram\naxi1_port=OffChipFlash\n" + line + "\n"
                                   : systemWith(line);
      const int expectedLine = line.starts_with("core_clock") ? 4 : 5;
      BOOST_TEST(throwsConfigErrorAt(
          [&] { (void)ethosu::readSystemConfig(ethosu::VelaIniFile::parse(text, "x.ini"), "S"); }, expectedLine));
      BOOST_TEST(throwsConfigErrorMentioning(
          [&] { (void)ethosu::readSystemConfig(ethosu::VelaIniFile::parse(text, "x.ini"), "S"); }, "out of range"));
    }
  }
  BOOST_TEST(throwsConfigErrorMentioning(
      [] {
        const auto ini = ethosu::VelaIniFile::parse("[System_Config.S]\naxi0_port=Sram\naxi1_port=Dram\n", "x.ini");
        (void)ethosu::readSystemConfig(ini, "S");
      },
      "core_clock is missing"));
  BOOST_TEST(throwsConfigErrorAt(
      [] {
        const auto ini =
            ethosu::VelaIniFile::parse("[Memory_Mode.M]\nconst_mem_area=Axi1\narena_cache_size=-1\n", "x.ini");
        (void)ethosu::readMemoryMode(ini, "M");
      },
      3));
}

BOOST_AUTO_TEST_CASE(later_files_override_earlier_ones) {
  auto ini = ethosu::VelaIniFile::load(testIni());
  ini.merge(ethosu::VelaIniFile::parse("[Memory_Mode.Dedicated_Sram]\narena_cache_size=1024\n", "override.ini"));
  BOOST_TEST(ethosu::readMemoryMode(ini, "Dedicated_Sram").arenaCacheSize.value_or(0) == 1024);
  BOOST_TEST(ethosu::readMemoryMode(ini, "Dedicated_Sram_512KB").arenaCacheSize.value_or(0) == 524288);
}

BOOST_AUTO_TEST_SUITE_END()
