// SPDX-License-Identifier: Apache-2.0
// perf_u55: the Arm Ethos-U55 accelerator (32, 64, 128 and 256 MACs). Everything it does lives in
// ethosu_common; this file only names the family and exports the plugin.
#include "ethosu/accelerator/accelerator_plugin.hpp"

#include "npu/plugin/plugin.hpp"

namespace {

class PerfU55Plugin final : public ethosu::AcceleratorPlugin {
public:
  PerfU55Plugin() : AcceleratorPlugin(ethosu::NpuFamily::EthosU55) {}
};

} // namespace

NPU_PIPELINE_PLUGIN("perf_u55", npu::PluginKind::Accelerator, "1.0.0",
                    "Arm Ethos-U55 (32/64/128/256 MACs): architecture, block configs and the Vela 3.10 cost model",
                    PerfU55Plugin)
