// SPDX-License-Identifier: Apache-2.0
#include "ethosu/config/config_files.hpp"
#include "ethosu/config/system_config.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

namespace {

using npu::MemoryArea;

std::vector<std::filesystem::path> searchPath() {
  return {npu::test::sourceDir() / "configs"};
}

npu::MemorySystem memoryOf(std::string_view variantName, std::string_view system, std::string_view mode,
                           std::optional<std::int64_t> arenaCacheSize = std::nullopt) {
  const auto& variant = *ethosu::findVariant(variantName);
  return ethosu::buildMemorySystem(variant, ethosu::resolveSystemConfig(system, variant, searchPath(), {}),
                                   ethosu::resolveMemoryMode(mode, variant, searchPath(), {}), arenaCacheSize);
}

} // namespace

BOOST_AUTO_TEST_SUITE(memory_system)

BOOST_AUTO_TEST_CASE(u55_high_end_embedded_with_shared_sram_reads_weights_from_flash) {
  const auto memory = memoryOf("ethos-u55-128", "ethos_u55_high_end_embedded", "shared_sram");
  BOOST_TEST(memory.coreClockHz == 500e6);
  BOOST_TEST(memory.area(MemoryArea::Sram).bandwidthBytesPerCycle == 8.0);
  BOOST_TEST(memory.area(MemoryArea::OffChipFlash).bandwidthBytesPerCycle == 1.0);
  BOOST_TEST(memory.area(MemoryArea::OffChipFlash).readLatency == 64);
  BOOST_TEST(memory.area(MemoryArea::OffChipFlash).burstLength == 128);
  BOOST_TEST(memory.area(MemoryArea::Sram).present);
  BOOST_TEST(!memory.area(MemoryArea::Dram).present);
  BOOST_TEST((memory.constantArea == MemoryArea::OffChipFlash));
  BOOST_TEST((memory.featureMapArea == MemoryArea::Sram));
  BOOST_TEST((memory.fastStorageArea == MemoryArea::Sram));
  BOOST_TEST(!memory.fastStorageIsSeparate());
  BOOST_TEST(memory.arenaCacheSize == std::int64_t{1} << 32); // the whole address space, as in Vela
  BOOST_TEST(memory.systemName == "Ethos_U55_High_End_Embedded");
  BOOST_TEST(memory.memoryMode == "Shared_Sram");
}

BOOST_AUTO_TEST_CASE(u65_high_end_with_dedicated_sram_caches_dram_feature_maps_in_sram) {
  const auto memory = memoryOf("ethos-u65-256", "ethos_u65_high_end", "dedicated_sram");
  BOOST_TEST(memory.area(MemoryArea::Sram).bandwidthBytesPerCycle == 16.0);
  BOOST_TEST(memory.area(MemoryArea::Dram).bandwidthBytesPerCycle == 3.75);
  BOOST_TEST(memory.area(MemoryArea::Dram).readLatency == 500);
  BOOST_TEST(memory.area(MemoryArea::Dram).writeLatency == 250);
  BOOST_TEST((memory.constantArea == MemoryArea::Dram));
  BOOST_TEST((memory.featureMapArea == MemoryArea::Dram));
  BOOST_TEST((memory.fastStorageArea == MemoryArea::Sram));
  BOOST_TEST(memory.fastStorageIsSeparate());
  BOOST_TEST(memory.arenaCacheSize == 393216);
}

BOOST_AUTO_TEST_CASE(u55_deep_embedded_flash_moves_half_a_byte_per_cycle) {
  const auto memory = memoryOf("ethos-u55-64", "ethos_u55_deep_embedded", "shared_sram");
  BOOST_TEST(memory.area(MemoryArea::OffChipFlash).bandwidthBytesPerCycle == 0.5);
  BOOST_TEST(memory.coreClockHz == 200e6);
}

BOOST_AUTO_TEST_CASE(sram_only_keeps_constants_in_on_chip_flash_with_sram_timing) {
  const auto memory = memoryOf("ethos-u55-256", "ethos_u55_high_end_embedded", "sram_only");
  BOOST_TEST((memory.constantArea == MemoryArea::OnChipFlash));
  BOOST_TEST((memory.featureMapArea == MemoryArea::Sram));
  BOOST_TEST(memory.area(MemoryArea::OnChipFlash).present);
  BOOST_TEST(!memory.area(MemoryArea::OffChipFlash).present);
  BOOST_TEST(memory.area(MemoryArea::OnChipFlash).bandwidthBytesPerCycle == 8.0);
  BOOST_TEST(memory.area(MemoryArea::OnChipFlash).readLatency == 32);
}

BOOST_AUTO_TEST_CASE(an_explicit_arena_cache_size_overrides_the_memory_mode) {
  const auto memory = memoryOf("ethos-u65-512", "ethos_u65_high_end", "dedicated_sram", 524288);
  BOOST_TEST(memory.arenaCacheSize == 524288);
  BOOST_CHECK_THROW(
      (void)memoryOf("ethos-u55-128", "ethos_u55_high_end_embedded", "shared_sram", (std::int64_t{1} << 32) + 1),
      npu::Error);
}

BOOST_AUTO_TEST_CASE(impossible_memory_modes_are_refused) {
  const auto& variant = *ethosu::findVariant("ethos-u55-128");
  const auto system = ethosu::internalDefaultSystemConfig(variant);
  ethosu::MemoryMode cacheInFlash{"Bad", "", ethosu::AxiPort::Axi1, ethosu::AxiPort::Axi0, ethosu::AxiPort::Axi1,
                                  {},    {}};
  BOOST_CHECK_THROW((void)ethosu::buildMemorySystem(variant, system, cacheInFlash, std::nullopt), npu::Error);
  ethosu::MemoryMode constantsInSram{"Bad", "", ethosu::AxiPort::Axi0, ethosu::AxiPort::Axi1, ethosu::AxiPort::Axi0,
                                     {},    {}};
  BOOST_CHECK_THROW((void)ethosu::buildMemorySystem(variant, system, constantsInSram, std::nullopt), npu::Error);
}

BOOST_AUTO_TEST_SUITE_END()
