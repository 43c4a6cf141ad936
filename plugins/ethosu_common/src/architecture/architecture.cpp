// SPDX-License-Identifier: Apache-2.0
#include "ethosu/architecture/architecture.hpp"

namespace ethosu {

Architecture::Architecture(const VariantSpec& variant, npu::MemorySystem memory)
    : variant_(&variant), memory_(std::move(memory)) {}

// architecture_features: SHRAMConfig(reserved_output_banks=2, bank_size=1024, total_banks,
// reserved_end_banks = 2 if banks > 16 else 0) and shram_total_banks = banks - reserved unused banks.
int Architecture::shramReservedEndBanks() const {
  return variant_->shramBanks > 16 ? 2 : 0;
}

int Architecture::shramTotalBanks() const {
  return variant_->shramBanks - shramReservedEndBanks();
}

int Architecture::availableShramBanks(bool usesLookupTable) const {
  int banks = shramTotalBanks();
  if (usesLookupTable && shramReservedEndBanks() == 0) {
    banks -= CommonArchitecture::kLutBanks;
  }
  return banks;
}

int Architecture::ifmGranule(int ifmBits, bool elementwise) const {
  if (ifmBits == 32) {
    return variant_->shramGranule(ShramElement::Ifm32);
  }
  if (ifmBits == 16) {
    return variant_->shramGranule(elementwise ? ShramElement::Ifm16Elementwise : ShramElement::Ifm16);
  }
  return variant_->shramGranule(elementwise ? ShramElement::Ifm8Elementwise : ShramElement::Ifm8);
}

int Architecture::accumulatorGranule(ShramElement accumulator) const {
  return variant_->shramGranule(accumulator);
}

npu::Shape4 Architecture::storageRounding(npu::TensorFormat format) {
  return format == npu::TensorFormat::NHCWB16 ? npu::Shape4{1, 1, 1, 16} : npu::Shape4{1, 1, 1, 1};
}

} // namespace ethosu
