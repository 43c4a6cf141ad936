// SPDX-License-Identifier: Apache-2.0
// The plugin: variants, options, and the entry point the npu-pipeline host loads.
#include "acme_accelerator.hpp"

#include <npu/core/diagnostics.hpp>
#include <npu/plugin/plugin.hpp>

#include <algorithm>

namespace acme {

namespace {

class AcmePlugin final : public npu::AcceleratorPlugin {
public:
  std::vector<std::string> variants() const override {
    std::vector<std::string> names;
    for (const auto& variant : kVariants) {
      names.emplace_back(variant.name);
    }
    return names;
  }

  std::vector<npu::OptionSpec> options() const override {
    return {
        {"clock_mhz", npu::OptionType::Number, "400", "core clock in MHz", {}, false},
        {"arena_cache_size", npu::OptionType::Bytes, "0", "SRAM the schedule may use (0: the variant's SRAM)", {}, false},
    };
  }

  std::unique_ptr<npu::Accelerator> create(const npu::AcceleratorConfig& config) const override {
    const auto variant = std::find_if(kVariants.begin(), kVariants.end(),
                                      [&](const Variant& v) { return v.name == config.variant; });
    if (variant == kVariants.end()) {
      npu::throwConfigError("the Acme NPU has no variant '" + config.variant + "'", config.location,
                            "variants: acme-n1, acme-n2");
    }
    const double clockMhz = config.options.getNumber("clock_mhz");
    if (!(clockMhz > 0.0)) {
      npu::throwConfigError("clock_mhz must be positive", config.location);
    }
    const std::int64_t arena = config.options.getInt("arena_cache_size");
    return std::make_unique<Accelerator>(*variant, clockMhz * 1e6, arena > 0 ? arena : variant->sramBytes);
  }
};

} // namespace

} // namespace acme

NPU_PIPELINE_PLUGIN("acme_npu", npu::PluginKind::Accelerator, ACME_PLUGIN_VERSION,
                    "Acme NPU (example vendor accelerator: roofline cost model)", acme::AcmePlugin)
