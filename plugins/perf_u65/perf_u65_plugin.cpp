// SPDX-License-Identifier: Apache-2.0
// perf_u65: the Arm Ethos-U65 accelerator (256 and 512 MACs). Everything it does lives in
// ethosu_common; this file only names the family and exports the plugin.
#include "ethosu/accelerator/accelerator_plugin.hpp"

#include "npu/plugin/plugin.hpp"

namespace {

class PerfU65Plugin final : public ethosu::AcceleratorPlugin {
public:
  PerfU65Plugin() : AcceleratorPlugin(ethosu::NpuFamily::EthosU65) {}
};

} // namespace

NPU_PIPELINE_PLUGIN("perf_u65", npu::PluginKind::Accelerator, "1.0.0",
                    "Arm Ethos-U65 (256/512 MACs): architecture, block configs and the Vela 3.10 cost model",
                    PerfU65Plugin)
