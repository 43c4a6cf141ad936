// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Ethos-U accelerator: an Architecture with its block config search, cost model, tensor layout,
// supported-operator checks (src/support) and weight encoder (src/weights) behind the framework's
// npu::Accelerator contract.

#include "ethosu/accelerator/tensor_layout.hpp"
#include "ethosu/architecture/architecture.hpp"
#include "ethosu/blocks/block_config_selector.hpp"

#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/options.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ethosu {

/// Accelerator settings beyond the variant and memory system (from the plugin options).
struct AcceleratorSettings {
  std::string costModel = "vela3";
  bool forceSymmetricIntWeights = false;
};

class Accelerator final : public npu::Accelerator {
public:
  Accelerator(const VariantSpec& variant, npu::MemorySystem memory, const AcceleratorSettings& settings = {});
  Accelerator(const Accelerator&) = delete; // the parts refer to the architecture inside
  Accelerator& operator=(const Accelerator&) = delete;

  [[nodiscard]] const npu::AcceleratorInfo& info() const override { return info_; }
  [[nodiscard]] const npu::MemorySystem& memory() const override { return arch_.memory(); }
  [[nodiscard]] const npu::OperatorSupport& support() const override { return *support_; }
  [[nodiscard]] const npu::TensorLayout& layout() const override { return layout_; }
  /// Vela 3.10's block configs, or those the cost model comes with (CostModelEntry::createBlockConfigs).
  [[nodiscard]] const npu::BlockConfigSelector& blockConfigs() const override {
    return modelBlockConfigs_ ? *modelBlockConfigs_ : static_cast<const npu::BlockConfigSelector&>(blockConfigs_);
  }
  [[nodiscard]] const npu::WeightEncoder& weights() const override { return *weights_; }
  [[nodiscard]] const npu::CostModel& costModel() const override { return *costModel_; }

  [[nodiscard]] const Architecture& architecture() const { return arch_; }

private:
  Architecture arch_;
  npu::AcceleratorInfo info_;
  TensorLayout layout_;
  BlockConfigSelector blockConfigs_;
  std::unique_ptr<npu::CostModel> costModel_;
  std::unique_ptr<npu::OperatorSupport> support_;
  std::unique_ptr<npu::WeightEncoder> weights_;
  std::unique_ptr<npu::BlockConfigSelector> modelBlockConfigs_; ///< the cost model's, when it has its own
};

/// Names of the accelerator options (see acceleratorOptions()).
struct AcceleratorOptionNames {
  static constexpr std::string_view kArenaCacheSize = "arena_cache_size";
  static constexpr std::string_view kCostModel = "cost_model";
  static constexpr std::string_view kOnSramOverflow = "on_sram_overflow";
  static constexpr std::string_view kCpuTensorAlignment = "cpu_tensor_alignment";
  static constexpr std::string_view kForceSymmetricIntWeights = "force_symmetric_int_weights";
};

/// The options of the Ethos-U accelerator plugins.
[[nodiscard]] std::vector<npu::OptionSpec> acceleratorOptions();

/// The system config and memory mode used when the accelerator section names none: Vela's defaults
/// (its "internal-default": U55 High-End Embedded with Shared_Sram, U65 Client-Server with Dedicated_Sram).
[[nodiscard]] std::string_view defaultSystemConfig(NpuFamily family);
[[nodiscard]] std::string_view defaultMemoryMode(NpuFamily family);

/// Builds an accelerator from a resolved accelerator section, without loading plugins (tests and other
/// plugins use it directly). With `family`, variants of the other family are refused. Options missing
/// from `config.options` take their defaults.
[[nodiscard]] std::unique_ptr<Accelerator> makeAccelerator(const npu::AcceleratorConfig& config,
                                                           std::optional<NpuFamily> family = std::nullopt);

} // namespace ethosu
