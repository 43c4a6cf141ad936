// SPDX-License-Identifier: Apache-2.0
#include "ethosu/accelerator/accelerator_plugin.hpp"

namespace ethosu {

std::vector<std::string> AcceleratorPlugin::variants() const {
  std::vector<std::string> names;
  for (const auto name : variantNames(family_)) {
    names.emplace_back(name);
  }
  return names;
}

std::unique_ptr<npu::Accelerator> AcceleratorPlugin::create(const npu::AcceleratorConfig& config) const {
  return makeAccelerator(config, family_);
}

} // namespace ethosu
