// SPDX-License-Identifier: Apache-2.0
#pragma once

// Vela's two configuration objects: a system config (clocks and the memories on the two AXI ports) and
// a memory mode (which port holds constants, the arena and the arena cache). They come from YAML files
// under configs/, from a Vela .ini file, or from Vela's built-in "internal-default".

#include "ethosu/architecture/variant.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/ir/tensor.hpp"
#include "npu/plugin/accelerator.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ethosu {

enum class AxiPort : std::uint8_t { Axi0, Axi1 };
[[nodiscard]] std::string_view nameOf(AxiPort port); ///< "Axi0", "Axi1"
[[nodiscard]] std::optional<AxiPort> axiPortFromName(std::string_view name);

/// Memories a system config may attach to an AXI port (Vela's MemArea names).
[[nodiscard]] std::optional<npu::MemoryArea> portMemoryFromName(std::string_view name);

/// Clock and access timing of one memory. Unset values keep Vela's initial ones (1, 1, 0, 0).
struct MemoryTiming {
  double clockScale = 1.0;
  int burstLength = 1;
  int readLatency = 0;
  int writeLatency = 0;
  friend bool operator==(const MemoryTiming&, const MemoryTiming&) = default;
};

/// A Vela [System_Config.NAME] section.
struct SystemConfig {
  std::string name;
  std::string description;
  double coreClockHz = 1.0;
  npu::MemoryArea axi0Port = npu::MemoryArea::Sram;
  npu::MemoryArea axi1Port = npu::MemoryArea::Sram;
  std::array<MemoryTiming, npu::kMemoryAreaCount> timing{}; ///< indexed by MemoryArea

  [[nodiscard]] const MemoryTiming& timingOf(npu::MemoryArea area) const {
    return timing[static_cast<std::size_t>(area)];
  }
  [[nodiscard]] MemoryTiming& timingOf(npu::MemoryArea area) { return timing[static_cast<std::size_t>(area)]; }
  [[nodiscard]] npu::MemoryArea memoryOn(AxiPort port) const { return port == AxiPort::Axi0 ? axi0Port : axi1Port; }
  /// Numbers equal (name and description are ignored).
  [[nodiscard]] bool sameSettings(const SystemConfig& other) const;
};

/// A Vela [Memory_Mode.NAME] section.
struct MemoryMode {
  std::string name;
  std::string description;
  AxiPort constantPort = AxiPort::Axi0;       ///< Vela's const_mem_area
  AxiPort arenaPort = AxiPort::Axi0;          ///< arena_mem_area
  AxiPort cachePort = AxiPort::Axi0;          ///< cache_mem_area
  std::optional<std::int64_t> arenaCacheSize; ///< nullopt: the whole address space of the NPU
  npu::SourceLocation arenaCacheSizeLocation; ///< where arena_cache_size is set, for errors

  [[nodiscard]] bool sameSettings(const MemoryMode& other) const;
};

/// The name Vela uses for its built-in system config and memory mode.
inline constexpr std::string_view kInternalDefault = "internal-default";

/// Vela's built-in system config for a variant (ArchitectureFeatures._set_default_sys_config).
[[nodiscard]] SystemConfig internalDefaultSystemConfig(const VariantSpec& variant);
/// Vela's built-in memory mode for a variant (ArchitectureFeatures._set_default_mem_mode).
[[nodiscard]] MemoryMode internalDefaultMemoryMode(const VariantSpec& variant);

/// Where the configs came from, for error messages.
struct ConfigOrigin {
  npu::SourceLocation system;
  npu::SourceLocation memoryMode;
  npu::SourceLocation arenaCacheSize; ///< of the arena_cache_size override, when one is given
};

/// The memory system of a variant in a system config and memory mode, derived as Vela's
/// ArchitectureFeatures does (port mapping, the Sram-to-OnChipFlash rule for constants, bandwidths,
/// validity checks). `arenaCacheSize` overrides the memory mode's, like Vela's --arena-cache-size.
[[nodiscard]] npu::MemorySystem buildMemorySystem(const VariantSpec& variant, const SystemConfig& system,
                                                  const MemoryMode& mode, std::optional<std::int64_t> arenaCacheSize,
                                                  const ConfigOrigin& origin = {});

} // namespace ethosu
