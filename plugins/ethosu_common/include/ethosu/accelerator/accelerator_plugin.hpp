// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ethosu/accelerator/accelerator.hpp"

#include "npu/plugin/accelerator.hpp"

namespace ethosu {

/// The accelerator plugin of one Ethos-U family; perf_u55 and perf_u65 are this class with a family.
class AcceleratorPlugin : public npu::AcceleratorPlugin {
public:
  explicit AcceleratorPlugin(NpuFamily family) : family_(family) {}

  [[nodiscard]] std::vector<npu::OptionSpec> options() const override { return acceleratorOptions(); }
  [[nodiscard]] std::vector<std::string> variants() const override;
  [[nodiscard]] std::unique_ptr<npu::Accelerator> create(const npu::AcceleratorConfig& config) const override;

private:
  NpuFamily family_;
};

} // namespace ethosu
