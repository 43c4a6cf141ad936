// SPDX-License-Identifier: Apache-2.0
#include "reference_accelerator.hpp"

#include "test_support.hpp"

namespace ethosu::lowering::test {

namespace {
/// C2 and C5 differ from C1 only in scheduling options, which the lowering does not see.
npu::AcceleratorConfig acceleratorConfigOf(const std::string& config) {
  npu::AcceleratorConfig accelerator;
  if (config == "C3") {
    accelerator = {"ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", {}, {}, {}, {}};
  } else if (config == "C4") {
    accelerator = {"ethos-u55-64", "Ethos_U55_Deep_Embedded", "Shared_Sram", {}, {}, {}, {}};
  } else {
    accelerator = {"ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", {}, {}, {}, {}};
  }
  accelerator.configSearchPath = {npu::test::sourceDir() / "configs"};
  return accelerator;
}
} // namespace

std::unique_ptr<ethosu::Accelerator> makeReferenceAccelerator(const std::string& config, npu::OptionValues options) {
  npu::AcceleratorConfig accelerator = acceleratorConfigOf(config);
  accelerator.options = std::move(options);
  return ethosu::makeAccelerator(accelerator);
}

} // namespace ethosu::lowering::test
