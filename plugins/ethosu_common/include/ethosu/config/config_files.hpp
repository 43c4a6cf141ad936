// SPDX-License-Identifier: Apache-2.0
#pragma once

// The YAML form of Vela's system configs and memory modes (configs/systems/*.yaml,
// configs/memory_modes/*.yaml), and how a name or path in an accelerator section finds one.
//
//   system_config:                      memory_mode:
//     name: Ethos_U55_High_End_Embedded   name: Dedicated_Sram
//     core_clock: 500e6                   const_mem_area: Axi1
//     axi0_port: Sram                     arena_mem_area: Axi1
//     axi1_port: OffChipFlash             cache_mem_area: Axi0
//     memories:                           arena_cache_size: 393216   # optional
//       Sram: {clock_scale: 1.0, burst_length: 32, read_latency: 32, write_latency: 32}

#include "ethosu/config/system_config.hpp"

#include "npu/core/diagnostics.hpp"

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace ethosu {

/// Parse errors and unknown keys are Config errors at file:line:column.
[[nodiscard]] SystemConfig parseSystemConfigYaml(std::string_view text, const std::string& fileName);
[[nodiscard]] MemoryMode parseMemoryModeYaml(std::string_view text, const std::string& fileName);
[[nodiscard]] std::string systemConfigToYaml(const SystemConfig& config);
[[nodiscard]] std::string memoryModeToYaml(const MemoryMode& mode);

/// "Ethos_U55_High_End_Embedded" -> "ethos_u55_high_end_embedded" (the file name of a config).
[[nodiscard]] std::string configFileStem(std::string_view velaName);

/// A system config or memory mode as the accelerator section names it:
///   "internal-default"                  Vela's built-in one for the variant
///   "ethos_u55_high_end_embedded"       configs/systems/ethos_u55_high_end_embedded.yaml in the search path
///   "Ethos_U55_High_End_Embedded"       the same (Vela's spelling)
///   "my/system.yaml"                    a YAML file
///   "my/vela.ini:My_System"             a section of a Vela .ini file (the name may be left out when
///                                       the file has exactly one section of that kind)
/// The search path holds folders; each is searched directly and under systems/ or memory_modes/.
[[nodiscard]] SystemConfig resolveSystemConfig(std::string_view reference, const VariantSpec& variant,
                                               std::span<const std::filesystem::path> searchPath,
                                               const npu::SourceLocation& where, npu::SourceLocation* origin = nullptr);
[[nodiscard]] MemoryMode resolveMemoryMode(std::string_view reference, const VariantSpec& variant,
                                           std::span<const std::filesystem::path> searchPath,
                                           const npu::SourceLocation& where, npu::SourceLocation* origin = nullptr);

} // namespace ethosu
