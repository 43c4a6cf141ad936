// SPDX-License-Identifier: Apache-2.0
// The codegen_ethosu plugin: Ethos-U55/U65 code generation behind npu::CodegenPlugin. It turns every
// scheduled NPU region into a register command stream, lays out the read-only area they share, and
// writes the deployable model: the input graph with each region replaced by an `ethos-u` operator, as
// Vela 3.10 writes `<network>_vela.tflite`.

#include "generator/code_generator.hpp"
#include "inspect/model_inspection.hpp"

#include "npu/plugin/codegen.hpp"

namespace ethosu::codegen {

namespace {

class EthosUCodegenPlugin final : public npu::CodegenPlugin {
public:
  [[nodiscard]] std::vector<npu::OptionSpec> options() const override { return codegenOptionSpecs(); }
  [[nodiscard]] npu::GeneratedModel generate(const npu::CodegenRequest& request) const override {
    return generateModel(request, readCodegenOptions(request.options));
  }
  [[nodiscard]] npu::CodeInspection inspect(const npu::Graph& model) const override { return inspectModel(model); }
};

} // namespace

} // namespace ethosu::codegen

NPU_PIPELINE_PLUGIN("codegen_ethosu", npu::PluginKind::Codegen, "1.0.0",
                    "Ethos-U55/U65 code generation: register command streams, flash and scratch layout, and the "
                    "optimised model with Vela's ethos-u operator",
                    ethosu::codegen::EthosUCodegenPlugin)
