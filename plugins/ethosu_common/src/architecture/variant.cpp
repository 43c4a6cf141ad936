// SPDX-License-Identifier: Apache-2.0
#include "ethosu/architecture/variant.hpp"

#include <algorithm>
#include <cctype>

namespace ethosu {

namespace {

// Values from Vela 3.10: architecture_features.ArchitectureFeatures.accelerator_configs (MACs, cores,
// micro-blocks, SHRAM banks and granules, elementwise units), _generate_output_perf_tables (output and
// activation cycles per element), __init__ (AXI widths, outstanding DMAs) and
// npu_performance._estimate_conv_cycles (kernel step delays, 16-bit pooling).
constexpr std::array kVariants{
    VariantSpec{
        .name = "ethos-u55-32",
        .displayName = "Ethos_U55_32",
        .family = NpuFamily::EthosU55,
        .macsPerCycle = 32,
        .cores = 1,
        .ofmMicroBlock = {1, 1, 1, 4},
        .ifmMicroBlock = {1, 1, 1, 8},
        .shramBanks = 16,
        .shramGranules = {2, 2, 2, 2, 4, 4, 4, 4},
        .elementwiseUnits = 1,
        .outputCyclesPerElement = {2.0, 3.0, 3.0, 3.0, 4.0, 6.0, 1.0, 2.0},
        .activationCyclesPerElement = {1.0, 1.0, 0.0},
        .axiDataWidthBits = 64,
        .axiAddressWidthBits = 32,
        .maxOutstandingDma = 1,
        .maxOutstandingKernels = 2,
        .kernelStepDelay = 3,
        .kernelStepDelayAccumulator40 = 7,
        .accumulator40DepthDelay = true,
        .pooling16BitDoubleCycles = false,
    },
    VariantSpec{
        .name = "ethos-u55-64",
        .displayName = "Ethos_U55_64",
        .family = NpuFamily::EthosU55,
        .macsPerCycle = 64,
        .cores = 1,
        .ofmMicroBlock = {1, 1, 1, 8},
        .ifmMicroBlock = {1, 1, 1, 8},
        .shramBanks = 16,
        .shramGranules = {2, 2, 2, 2, 4, 4, 4, 8},
        .elementwiseUnits = 2,
        .outputCyclesPerElement = {1.0, 1.5, 1.5, 1.5, 2.0, 3.0, 0.5, 1.0},
        .activationCyclesPerElement = {1.0, 1.0, 0.0},
        .axiDataWidthBits = 64,
        .axiAddressWidthBits = 32,
        .maxOutstandingDma = 1,
        .maxOutstandingKernels = 2,
        .kernelStepDelay = 2,
        .kernelStepDelayAccumulator40 = 3,
        .accumulator40DepthDelay = false,
        .pooling16BitDoubleCycles = true,
    },
    VariantSpec{
        .name = "ethos-u55-128",
        .displayName = "Ethos_U55_128",
        .family = NpuFamily::EthosU55,
        .macsPerCycle = 128,
        .cores = 1,
        .ofmMicroBlock = {1, 1, 2, 8},
        .ifmMicroBlock = {1, 1, 2, 8},
        .shramBanks = 24,
        .shramGranules = {4, 4, 4, 4, 8, 4, 8, 12},
        .elementwiseUnits = 4,
        .outputCyclesPerElement = {0.75, 1.25, 0.75, 0.75, 1.0, 1.5, 0.25, 0.5},
        .activationCyclesPerElement = {1.0, 0.5, 0.0},
        .axiDataWidthBits = 64,
        .axiAddressWidthBits = 32,
        .maxOutstandingDma = 1,
        .maxOutstandingKernels = 2,
        .kernelStepDelay = 2,
        .kernelStepDelayAccumulator40 = 3,
        .accumulator40DepthDelay = false,
        .pooling16BitDoubleCycles = true,
    },
    VariantSpec{
        .name = "ethos-u55-256",
        .displayName = "Ethos_U55_256",
        .family = NpuFamily::EthosU55,
        .macsPerCycle = 256,
        .cores = 1,
        .ofmMicroBlock = {1, 2, 2, 8},
        .ifmMicroBlock = {1, 2, 2, 8},
        .shramBanks = 48,
        .shramGranules = {8, 8, 8, 8, 16, 8, 16, 20},
        .elementwiseUnits = 8,
        .outputCyclesPerElement = {0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25},
        .activationCyclesPerElement = {1.0, 0.25, 0.0},
        .axiDataWidthBits = 64,
        .axiAddressWidthBits = 32,
        .maxOutstandingDma = 1,
        .maxOutstandingKernels = 2,
        .kernelStepDelay = 2,
        .kernelStepDelayAccumulator40 = 2,
        .accumulator40DepthDelay = false,
        .pooling16BitDoubleCycles = true,
    },
    VariantSpec{
        .name = "ethos-u65-256",
        .displayName = "Ethos_U65_256",
        .family = NpuFamily::EthosU65,
        .macsPerCycle = 256,
        .cores = 1,
        .ofmMicroBlock = {1, 2, 2, 8},
        .ifmMicroBlock = {1, 2, 2, 8},
        .shramBanks = 48,
        .shramGranules = {8, 8, 8, 8, 16, 8, 16, 20},
        .elementwiseUnits = 8,
        .outputCyclesPerElement = {0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25},
        .activationCyclesPerElement = {1.0, 0.25, 0.0},
        .axiDataWidthBits = 128,
        .axiAddressWidthBits = 40,
        .maxOutstandingDma = 2,
        .maxOutstandingKernels = 2,
        .kernelStepDelay = 2,
        .kernelStepDelayAccumulator40 = 2,
        .accumulator40DepthDelay = false,
        .pooling16BitDoubleCycles = true,
    },
    VariantSpec{
        .name = "ethos-u65-512",
        .displayName = "Ethos_U65_512",
        .family = NpuFamily::EthosU65,
        .macsPerCycle = 256,
        .cores = 2,
        .ofmMicroBlock = {1, 2, 2, 8},
        .ifmMicroBlock = {1, 2, 2, 8},
        .shramBanks = 48,
        .shramGranules = {8, 8, 8, 8, 16, 8, 16, 20},
        .elementwiseUnits = 8,
        .outputCyclesPerElement = {0.3125, 0.5625, 0.25, 0.1875, 0.25, 0.375, 0.0625, 0.125},
        .activationCyclesPerElement = {0.5, 0.125, 0.0},
        .axiDataWidthBits = 128,
        .axiAddressWidthBits = 40,
        .maxOutstandingDma = 2,
        .maxOutstandingKernels = 2,
        .kernelStepDelay = 2,
        .kernelStepDelayAccumulator40 = 2,
        .accumulator40DepthDelay = false,
        .pooling16BitDoubleCycles = true,
    },
};

constexpr std::array<std::string_view, 4> kEthosU55Names{"ethos-u55-32", "ethos-u55-64", "ethos-u55-128",
                                                         "ethos-u55-256"};
constexpr std::array<std::string_view, 2> kEthosU65Names{"ethos-u65-256", "ethos-u65-512"};

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The MAC count follows from the micro-block (architecture_features: dpu_min_height * dpu_min_width *
// dot product width * dpu_min_ofm_channels); the table must agree with it.
constexpr bool macsMatchMicroBlocks() {
  for (const auto& variant : kVariants) {
    const auto& block = variant.ofmMicroBlock;
    if (block.height * block.width * CommonArchitecture::kDotProductWidth * block.depth != variant.macsPerCycle) {
      return false;
    }
  }
  return true;
}
static_assert(macsMatchMicroBlocks(), "MACs per cycle must follow from the OFM micro-block");

} // namespace

std::span<const VariantSpec> allVariants() {
  return kVariants;
}

const VariantSpec* findVariant(std::string_view name) {
  const auto found = std::find_if(kVariants.begin(), kVariants.end(),
                                  [&](const VariantSpec& variant) { return equalsIgnoringCase(variant.name, name); });
  return found == kVariants.end() ? nullptr : &*found;
}

std::span<const std::string_view> variantNames(NpuFamily family) {
  if (family == NpuFamily::EthosU65) {
    return kEthosU65Names;
  }
  return kEthosU55Names;
}

} // namespace ethosu
