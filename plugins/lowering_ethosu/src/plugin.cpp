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
             false},
            {"vela_release",
             npu::OptionType::Choice,
             "3.10",
             "Which Arm Vela release's operator set and graph rewrites to reproduce: \"3.10\" (default) or \"2.1\" "
             "(Vela 2.1.1: keeps ARG_MAX, UNIDIRECTIONAL_SEQUENCE_LSTM, TRANSPOSE, SQUEEZE, strides above 3 and the "
             "MEAN, RESIZE_BILINEAR and PAD shapes it did not support on the CPU, and lowers MEAN, RESIZE_BILINEAR, "
             "RESHAPE and the first strided convolution its way; used by the *-dp-vela2 reference pipelines, see "
             "docs/parity.md)",
             {"3.10", "2.1"},
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
    if (options.has("vela_release") && options.getString("vela_release") == "2.1") {
      lowering.release = ethosu::lowering::VelaRelease::V2_1;
    }
    return ethosu::lowering::lowerGraph(std::move(graph), accelerator, lowering);
  }
};

} // namespace

NPU_PIPELINE_PLUGIN("ethosu_lowering", npu::PluginKind::Lowering, "0.1.0",
                    "Ethos-U lowering as Arm Vela 3.10 does it: fusing, LUTs, decompositions, NPU/CPU placement",
                    EthosULoweringPlugin)
