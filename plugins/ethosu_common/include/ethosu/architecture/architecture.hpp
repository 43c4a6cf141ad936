// SPDX-License-Identifier: Apache-2.0
#pragma once

// One Ethos-U variant in one memory system: what Vela's ArchitectureFeatures holds once constructed.
// Immutable after construction; every member is safe to read from many threads.

#include "ethosu/architecture/variant.hpp"

#include "npu/core/shape.hpp"
#include "npu/ir/tensor.hpp"
#include "npu/plugin/accelerator.hpp"

namespace ethosu {

class Architecture {
public:
  Architecture(const VariantSpec& variant, npu::MemorySystem memory);

  [[nodiscard]] const VariantSpec& variant() const { return *variant_; }
  [[nodiscard]] const npu::MemorySystem& memory() const { return memory_; }
  [[nodiscard]] int cores() const { return variant_->cores; }

  /// Bytes per core cycle (Vela's memory_bandwidths_per_cycle).
  [[nodiscard]] double bandwidthPerCycle(npu::MemoryArea area) const {
    return memory_.area(area).bandwidthBytesPerCycle;
  }
  [[nodiscard]] int readLatency(npu::MemoryArea area) const { return memory_.area(area).readLatency; }
  [[nodiscard]] int writeLatency(npu::MemoryArea area) const { return memory_.area(area).writeLatency; }
  [[nodiscard]] int burstLength(npu::MemoryArea area) const { return memory_.area(area).burstLength; }

  /// SHRAM banks left once the unused end banks are taken away (Vela's shram_total_banks).
  [[nodiscard]] int shramTotalBanks() const;
  /// Banks reserved at the end of SHRAM on the larger variants (they then also hold the LUT).
  [[nodiscard]] int shramReservedEndBanks() const;
  /// Banks the IFM and accumulators may use, given whether a LUT is loaded.
  [[nodiscard]] int availableShramBanks(bool usesLookupTable) const;
  /// Bank granule of IFM buffers of `ifmBits` (8, 16 or 32) for elementwise or other operations.
  [[nodiscard]] int ifmGranule(int ifmBits, bool elementwise) const;
  /// Bank granule of an accumulator type (Accumulator16/32/40).
  [[nodiscard]] int accumulatorGranule(ShramElement accumulator) const;

  /// Quantum each dimension of a stored feature map is rounded up to (storage_rounding_quantums).
  [[nodiscard]] static npu::Shape4 storageRounding(npu::TensorFormat format);

private:
  const VariantSpec* variant_;
  npu::MemorySystem memory_;
};

} // namespace ethosu
