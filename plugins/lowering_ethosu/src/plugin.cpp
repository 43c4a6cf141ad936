// SPDX-License-Identifier: Apache-2.0
// The Ethos-U lowering as a pipeline plugin ("ethosu_lowering"); the work is in ethosu_lowering_passes.
#include "ethosu_lowering/lowering.hpp"

#include "npu/plugin/lowering.hpp"

namespace {

class EthosULoweringPlugin final : public npu::LoweringPlugin {
public:
  [[nodiscard]] std::vector<npu::OptionSpec> options() const override {
    return {{"verify_each_pass",
             npu::OptionType::Boolean,
             "false",
             "Check the graph (npu::verifyGraph) after every lowering pass",
             {},
             false}};
  }

  [[nodiscard]] npu::Graph lower(npu::Graph graph, const npu::Accelerator& accelerator,
                                 const npu::OptionValues& options) const override {
    ethosu::lowering::LoweringOptions lowering;
#ifdef NDEBUG
    lowering.verifyAfterEachPass = options.has("verify_each_pass") && options.getBool("verify_each_pass");
#else
    (void)options;
    lowering.verifyAfterEachPass = true;
#endif
    return ethosu::lowering::lowerGraph(std::move(graph), accelerator, lowering);
  }
};

} // namespace

NPU_PIPELINE_PLUGIN("ethosu_lowering", npu::PluginKind::Lowering, "0.1.0",
                    "Ethos-U lowering as Arm Vela 3.10 does it: fusing, LUTs, decompositions, NPU/CPU placement",
                    EthosULoweringPlugin)
