// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Ethos-U55 and Ethos-U65 configurations as constant data. Everything that differs between the
// variants is a field of VariantSpec; code asks the table, never compares variant names.

#include "npu/core/shape.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace ethosu {

enum class NpuFamily : std::uint8_t { EthosU55, EthosU65 };

/// Kinds of data the shared buffer (SHRAM) holds; indexes VariantSpec::shramGranules.
enum class ShramElement : std::uint8_t {
  Ifm8,
  Ifm16,
  Ifm8Elementwise,
  Ifm16Elementwise,
  Ifm32,
  Accumulator16,
  Accumulator32,
  Accumulator40,
};
inline constexpr int kShramElementCount = 8;

/// Rows of VariantSpec::outputCyclesPerElement (see npu_performance._estimate_output_cycles_per_element).
enum class OutputPerformance : std::uint8_t {
  Elementwise32BitWithIfm2,    ///< 32-bit IFM, binary operation (Vela's index 0)
  Elementwise32BitWithoutIfm2, ///< 32-bit IFM, unary operation (Vela's index 1)
  Multiply32BitOutput,
  Accumulator40OrMultiply,
  SimpleAddSub,
  AdvancedAddSub,
  MaxPool,
  Other,
};
/// Rows of VariantSpec::activationCyclesPerElement.
enum class ActivationPerformance : std::uint8_t { LookupTable, Relu, None };

struct VariantSpec {
  std::string_view name;        ///< "ethos-u55-128", as in Vela's --accelerator-config
  std::string_view displayName; ///< "Ethos_U55_128", as in Vela's reports
  NpuFamily family = NpuFamily::EthosU55;
  int macsPerCycle = 0; ///< per core
  int cores = 1;
  npu::Shape4 ofmMicroBlock;
  npu::Shape4 ifmMicroBlock;
  int shramBanks = 0; ///< 1 KiB banks of the shared buffer
  std::array<int, kShramElementCount> shramGranules{};
  int elementwiseUnits = 0;
  std::array<double, 8> outputCyclesPerElement{};
  std::array<double, 3> activationCyclesPerElement{};
  int axiDataWidthBits = 64;
  int axiAddressWidthBits = 32;
  int maxOutstandingDma = 1;
  int maxOutstandingKernels = 2;
  /// Pipeline delay of a convolution kernel step when the block is one micro-block (32/40-bit acc).
  int kernelStepDelay = 2;
  int kernelStepDelayAccumulator40 = 2;
  /// Only the smallest variant also stalls per micro-block depth with 40-bit accumulators.
  bool accumulator40DepthDelay = false;
  /// 16-bit pooling takes twice the cycles (not on the 32-MAC variant).
  bool pooling16BitDoubleCycles = true;

  [[nodiscard]] bool isEthosU65() const { return family == NpuFamily::EthosU65; }
  [[nodiscard]] int shramGranule(ShramElement element) const {
    return shramGranules[static_cast<std::size_t>(element)];
  }
  [[nodiscard]] double outputCycles(OutputPerformance row) const {
    return outputCyclesPerElement[static_cast<std::size_t>(row)];
  }
  [[nodiscard]] double activationCycles(ActivationPerformance row) const {
    return activationCyclesPerElement[static_cast<std::size_t>(row)];
  }
  /// Largest address the NPU can form plus one (Vela's max_address_offset).
  [[nodiscard]] std::int64_t maxAddressOffset() const { return std::int64_t{1} << axiAddressWidthBits; }
};

/// Constants common to every Ethos-U55/U65 variant (architecture_features.ArchitectureFeatures).
struct CommonArchitecture {
  static constexpr int kShramBankBytes = 1024;
  static constexpr int kShramReservedOutputBanks = 2;
  static constexpr int kShramLutBytes = 2048;
  static constexpr int kLutBanks = 2;
  static constexpr int kOfmSplitDepth = 16;
  static constexpr int kSubKernelMaxWidth = 8;
  static constexpr int kSubKernelMaxHeight = 8;
  static constexpr npu::Shape4 kOfmBlockMax{1, 32, 64, 128};
  static constexpr int kDotProductWidth = 8;
  static constexpr int kStorageAlignment = 16; ///< Vela's Tensor.AllocationQuantum
  /// Bytes of one OFM channel's encoded scale and bias (Vela sets the bias tensor's element size to
  /// this once encoded, and its bandwidth estimate counts it so).
  static constexpr int kEncodedScaleBiasBytes = 10;
};

[[nodiscard]] std::span<const VariantSpec> allVariants();
/// The variant with this name (case-insensitive), or null.
[[nodiscard]] const VariantSpec* findVariant(std::string_view name);
/// Names of the variants of one family, in table order.
[[nodiscard]] std::span<const std::string_view> variantNames(NpuFamily family);

} // namespace ethosu
