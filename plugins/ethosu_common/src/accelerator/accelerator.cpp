// SPDX-License-Identifier: Apache-2.0
#include "ethosu/accelerator/accelerator.hpp"

#include "ethosu/config/config_files.hpp"
#include "ethosu/performance/cost_model.hpp"

#include "ethosu/support/operator_support.hpp"
#include "ethosu/weights/weight_encoder.hpp"

#include <algorithm>
#include <filesystem>

namespace ethosu {

namespace {

weights::WeightEncoderConfig weightEncoderConfigOf(const VariantSpec& variant) {
  weights::WeightEncoderConfig config;
  config.cores = variant.cores;
  config.ofmMicroBlockDepth = variant.ofmMicroBlock.depth;
  config.ifmMicroBlockDepth = variant.ifmMicroBlock.depth;
  config.subKernelMaxWidth = CommonArchitecture::kSubKernelMaxWidth;
  config.subKernelMaxHeight = CommonArchitecture::kSubKernelMaxHeight;
  return config;
}

npu::AcceleratorInfo infoOf(const VariantSpec& variant) {
  npu::AcceleratorInfo info;
  info.variant = std::string(variant.name);
  info.displayName = std::string(variant.displayName);
  info.macsPerCycle = variant.macsPerCycle;
  info.cores = variant.cores;
  info.ofmMicroBlock = variant.ofmMicroBlock;
  info.ifmMicroBlock = variant.ifmMicroBlock;
  return info;
}

std::string variantList(std::optional<NpuFamily> family) {
  std::string list;
  for (const auto& variant : allVariants()) {
    if (!family || variant.family == *family) {
      list += (list.empty() ? "" : ", ") + std::string(variant.name);
    }
  }
  return list;
}

/// A name of the default config when the search path has it, else Vela's built-in equivalent.
std::string defaultReference(std::string_view name, std::string_view subfolder,
                             const std::vector<std::filesystem::path>& searchPath) {
  const std::string file = configFileStem(name) + ".yaml";
  for (const auto& folder : searchPath) {
    if (std::filesystem::exists(folder / file) || std::filesystem::exists(folder / subfolder / file)) {
      return std::string(name);
    }
  }
  return std::string(kInternalDefault);
}

SupportArchitecture supportArchitectureOf(const VariantSpec& variant, bool forceSymmetricIntWeights) {
  SupportArchitecture architecture;
  architecture.generation = variant.isEthosU65() ? NpuGeneration::EthosU65 : NpuGeneration::EthosU55;
  architecture.macsPerCycle = variant.macsPerCycle;
  architecture.forceSymmetricIntWeights = forceSymmetricIntWeights;
  return architecture;
}

} // namespace

Accelerator::Accelerator(const VariantSpec& variant, npu::MemorySystem memory, const AcceleratorSettings& settings)
    : arch_(variant, std::move(memory)), info_(infoOf(variant)), blockConfigs_(arch_),
      costModel_(makeCostModel(settings.costModel, arch_)),
      support_(
          std::make_unique<OperatorSupportChecker>(supportArchitectureOf(variant, settings.forceSymmetricIntWeights))),
      weights_(std::make_unique<weights::EthosUWeightEncoder>(weightEncoderConfigOf(variant))) {
  modelBlockConfigs_ = makeModelBlockConfigs(settings.costModel, arch_, blockConfigs_);
}

std::vector<npu::OptionSpec> acceleratorOptions() {
  std::vector<npu::OptionSpec> options;
  options.push_back({std::string(AcceleratorOptionNames::kArenaCacheSize),
                     npu::OptionType::Bytes,
                     "0",
                     "size of the arena cache (fast storage) the schedule may use; 0 keeps the memory mode's "
                     "(Vela's --arena-cache-size)",
                     {},
                     false});
  options.push_back({std::string(AcceleratorOptionNames::kOnSramOverflow),
                     npu::OptionType::Choice,
                     "error",
                     "a schedule that needs more SRAM than the arena cache size: error (a compile error), or warn "
                     "(Vela 3.10's schedule anyway, the overrun flagged in every report)",
                     {"error", "warn"},
                     false});
  options.push_back({std::string(AcceleratorOptionNames::kCostModel), npu::OptionType::Choice,
                     std::string(kDefaultCostModel), "performance model used for scheduling and reports",
                     costModelNames(), false});
  options.push_back({std::string(AcceleratorOptionNames::kCpuTensorAlignment),
                     npu::OptionType::Integer,
                     "16",
                     "alignment in bytes of tensor allocations, a power of two of at least 16 (Vela's "
                     "--cpu-tensor-alignment)",
                     {},
                     false});
  options.push_back({std::string(AcceleratorOptionNames::kForceSymmetricIntWeights),
                     npu::OptionType::Boolean,
                     "false",
                     "run convolutions with asymmetric int8/int16 weights on the NPU with the weights forced "
                     "symmetric instead of on the CPU (Vela's --force-symmetric-int-weights)",
                     {},
                     false});
  return options;
}

std::string_view defaultSystemConfig(NpuFamily family) {
  return family == NpuFamily::EthosU65 ? "Ethos_U65_Client_Server" : "Ethos_U55_High_End_Embedded";
}

std::string_view defaultMemoryMode(NpuFamily family) {
  return family == NpuFamily::EthosU65 ? "Dedicated_Sram" : "Shared_Sram";
}

std::unique_ptr<Accelerator> makeAccelerator(const npu::AcceleratorConfig& config, std::optional<NpuFamily> family) {
  const VariantSpec* variant = findVariant(config.variant);
  if (variant == nullptr || (family && variant->family != *family)) {
    npu::throwConfigError("unknown accelerator variant '" + config.variant + "'", config.locationOf("config"),
                          "known variants: " + variantList(family));
  }
  const auto option = [&](std::string_view name, auto read, auto fallback) {
    return config.options.has(name) ? read(name) : fallback;
  };
  const std::int64_t arenaCacheSize = option(
      AcceleratorOptionNames::kArenaCacheSize, [&](auto name) { return config.options.getInt(name); }, std::int64_t{0});
  AcceleratorSettings settings;
  settings.costModel = option(
      AcceleratorOptionNames::kCostModel, [&](auto name) { return config.options.getString(name); },
      std::string(kDefaultCostModel));
  settings.forceSymmetricIntWeights = option(
      AcceleratorOptionNames::kForceSymmetricIntWeights, [&](auto name) { return config.options.getBool(name); },
      false);
  const auto models = costModelNames();
  if (std::find(models.begin(), models.end(), settings.costModel) == models.end()) {
    npu::throwConfigError("unknown cost model '" + settings.costModel + "'",
                          config.locationOf(AcceleratorOptionNames::kCostModel),
                          "use one of the cost_model choices of the accelerator plugin");
  }
  const std::int64_t alignment = option(
      AcceleratorOptionNames::kCpuTensorAlignment, [&](auto name) { return config.options.getInt(name); },
      std::int64_t{CommonArchitecture::kStorageAlignment});
  if (alignment < CommonArchitecture::kStorageAlignment || (alignment & (alignment - 1)) != 0) {
    npu::throwConfigError("cpu_tensor_alignment " + std::to_string(alignment) + " is invalid",
                          config.locationOf(AcceleratorOptionNames::kCpuTensorAlignment),
                          "use a power of two of at least 16");
  }

  const std::string systemReference =
      config.system.empty() ? defaultReference(defaultSystemConfig(variant->family), "systems", config.configSearchPath)
                            : config.system;
  const std::string modeReference =
      config.memoryMode.empty()
          ? defaultReference(defaultMemoryMode(variant->family), "memory_modes", config.configSearchPath)
          : config.memoryMode;
  const npu::SourceLocation systemSetting = config.locationOf("system");
  const npu::SourceLocation modeSetting = config.locationOf("memory_mode");
  ConfigOrigin origin{systemSetting, modeSetting, config.locationOf(AcceleratorOptionNames::kArenaCacheSize)};
  const SystemConfig system =
      resolveSystemConfig(systemReference, *variant, config.configSearchPath, systemSetting, &origin.system);
  const MemoryMode mode =
      resolveMemoryMode(modeReference, *variant, config.configSearchPath, modeSetting, &origin.memoryMode);
  npu::MemorySystem memory = buildMemorySystem(
      *variant, system, mode, arenaCacheSize > 0 ? std::optional(arenaCacheSize) : std::nullopt, origin);
  memory.allocationAlignment = alignment;
  memory.warnOnFastStorageOverflow = config.options.has(AcceleratorOptionNames::kOnSramOverflow) &&
                                     config.options.getString(AcceleratorOptionNames::kOnSramOverflow) == "warn";
  return std::make_unique<Accelerator>(*variant, std::move(memory), settings);
}

} // namespace ethosu
