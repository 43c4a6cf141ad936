// SPDX-License-Identifier: Apache-2.0
#include "ethosu/config/system_config.hpp"

#include <array>

namespace ethosu {

using npu::MemoryArea;

std::string_view nameOf(AxiPort port) {
  return port == AxiPort::Axi0 ? "Axi0" : "Axi1";
}

std::optional<AxiPort> axiPortFromName(std::string_view name) {
  if (name == "Axi0") {
    return AxiPort::Axi0;
  }
  if (name == "Axi1") {
    return AxiPort::Axi1;
  }
  return std::nullopt;
}

std::optional<MemoryArea> portMemoryFromName(std::string_view name) {
  for (const MemoryArea area :
       {MemoryArea::Sram, MemoryArea::Dram, MemoryArea::OnChipFlash, MemoryArea::OffChipFlash}) {
    if (npu::nameOf(area) == name) {
      return area;
    }
  }
  return std::nullopt;
}

bool SystemConfig::sameSettings(const SystemConfig& other) const {
  return coreClockHz == other.coreClockHz && axi0Port == other.axi0Port && axi1Port == other.axi1Port &&
         timing == other.timing;
}

bool MemoryMode::sameSettings(const MemoryMode& other) const {
  return constantPort == other.constantPort && arenaPort == other.arenaPort && cachePort == other.cachePort &&
         arenaCacheSize == other.arenaCacheSize;
}

SystemConfig internalDefaultSystemConfig(const VariantSpec& variant) {
  SystemConfig config;
  config.name = std::string(kInternalDefault);
  config.axi0Port = MemoryArea::Sram;
  config.timingOf(MemoryArea::Sram) = {1.0, 32, 32, 32};
  if (variant.isEthosU65()) {
    config.description = "Ethos-U65 Client-Server: SRAM (16 GB/s) and DRAM (12 GB/s)";
    config.coreClockHz = 1e9;
    config.axi1Port = MemoryArea::Dram;
    config.timingOf(MemoryArea::Dram) = {0.75, 128, 500, 250};
  } else {
    config.description = "Ethos-U55 High-End Embedded: SRAM (4 GB/s) and Flash (0.5 GB/s)";
    config.coreClockHz = 500e6;
    config.axi1Port = MemoryArea::OffChipFlash;
    config.timingOf(MemoryArea::OffChipFlash) = {0.125, 128, 64, 64};
  }
  return config;
}

MemoryMode internalDefaultMemoryMode(const VariantSpec& variant) {
  MemoryMode mode;
  mode.name = std::string(kInternalDefault);
  mode.constantPort = AxiPort::Axi1;
  mode.cachePort = AxiPort::Axi0;
  if (variant.isEthosU65()) {
    mode.description = "Dedicated SRAM: the SRAM is only for use by the Ethos-U";
    mode.arenaPort = AxiPort::Axi1;
    mode.arenaCacheSize = 384 * 1024;
  } else {
    mode.description = "Shared SRAM: the SRAM is shared between the Ethos-U and the Cortex-M software";
    mode.arenaPort = AxiPort::Axi0;
  }
  return mode;
}

namespace {

std::string describeConfigs(const SystemConfig& system, const MemoryMode& mode) {
  return "system config '" + system.name + "' with memory mode '" + mode.name + "'";
}

} // namespace

npu::MemorySystem buildMemorySystem(const VariantSpec& variant, const SystemConfig& system, const MemoryMode& mode,
                                    std::optional<std::int64_t> arenaCacheSize, const ConfigOrigin& origin) {
  SystemConfig ports = system;
  AxiPort constantPort = mode.constantPort;
  // architecture_features._get_vela_config: constants cannot live in the SRAM that also holds the arena
  // and its cache; Vela moves them to the other port as OnChipFlash with the SRAM's characteristics.
  if (ports.memoryOn(constantPort) == MemoryArea::Sram && mode.constantPort == mode.arenaPort &&
      mode.arenaPort == mode.cachePort) {
    if (constantPort == AxiPort::Axi0) {
      constantPort = AxiPort::Axi1;
      ports.axi1Port = MemoryArea::OnChipFlash;
    } else {
      constantPort = AxiPort::Axi0;
      ports.axi0Port = MemoryArea::OnChipFlash;
    }
    ports.timingOf(MemoryArea::OnChipFlash) = ports.timingOf(MemoryArea::Sram);
  }

  const MemoryArea constantArea = ports.memoryOn(constantPort);
  const MemoryArea arenaArea = ports.memoryOn(mode.arenaPort);
  const MemoryArea cacheArea = ports.memoryOn(mode.cachePort);
  if (constantArea != MemoryArea::Dram && constantArea != MemoryArea::OnChipFlash &&
      constantArea != MemoryArea::OffChipFlash) {
    npu::throwConfigError("const_mem_area maps to " + std::string(npu::nameOf(constantArea)) + " in " +
                              describeConfigs(system, mode) + "; it must be Dram, OnChipFlash or OffChipFlash",
                          origin.memoryMode, "point const_mem_area at the AXI port of the flash or DRAM");
  }
  if (arenaArea != MemoryArea::Sram && arenaArea != MemoryArea::Dram) {
    npu::throwConfigError("arena_mem_area maps to " + std::string(npu::nameOf(arenaArea)) + " in " +
                              describeConfigs(system, mode) + "; it must be Sram or Dram",
                          origin.memoryMode);
  }
  if (cacheArea != MemoryArea::Sram) {
    npu::throwConfigError("cache_mem_area maps to " + std::string(npu::nameOf(cacheArea)) + " in " +
                              describeConfigs(system, mode) + "; it must be Sram",
                          origin.memoryMode);
  }
  const std::int64_t cacheSize = arenaCacheSize.value_or(mode.arenaCacheSize.value_or(variant.maxAddressOffset()));
  if (cacheSize < 0 || cacheSize > variant.maxAddressOffset()) {
    // Blame the setting that gave the size: the override, else the memory mode's key.
    const npu::SourceLocation& where = arenaCacheSize                         ? origin.arenaCacheSize
                                       : !mode.arenaCacheSizeLocation.empty() ? mode.arenaCacheSizeLocation
                                                                              : origin.memoryMode;
    npu::throwConfigError("arena_cache_size " + std::to_string(cacheSize) + " is out of bounds for " +
                              std::string(variant.name),
                          where, "use a size from 0 to " + std::to_string(variant.maxAddressOffset()));
  }

  npu::MemorySystem memory;
  memory.systemName = system.name;
  memory.memoryMode = mode.name;
  memory.coreClockHz = system.coreClockHz;
  // Bandwidth in bytes per core cycle: the AXI data width scaled by the memory clock (every memory,
  // configured or not, as Vela's memory_bandwidths_per_cycle array).
  const double axiBytes = variant.axiDataWidthBits / 8.0;
  for (int index = 0; index < npu::kMemoryAreaCount; ++index) {
    const auto area = static_cast<MemoryArea>(index);
    const MemoryTiming& timing = ports.timingOf(area);
    auto& properties = memory.areas[static_cast<std::size_t>(index)];
    properties.present = area == ports.axi0Port || area == ports.axi1Port || area == MemoryArea::Shram;
    properties.clockScale = timing.clockScale;
    properties.bandwidthBytesPerCycle = axiBytes * timing.clockScale;
    properties.readLatency = timing.readLatency;
    properties.writeLatency = timing.writeLatency;
    properties.burstLength = timing.burstLength;
  }
  memory.constantArea = constantArea;
  memory.featureMapArea = arenaArea;
  memory.fastStorageArea = cacheArea;
  memory.arenaCacheSize = cacheSize;
  memory.allocationAlignment = CommonArchitecture::kStorageAlignment;
  return memory;
}

} // namespace ethosu
