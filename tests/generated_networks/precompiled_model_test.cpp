// SPDX-License-Identifier: Apache-2.0
// Models already compiled by Vela (ethos-u operators inside): Vela 3.10 runs those operators on the CPU
// and allocates only their real inputs and outputs, not their command streams, flash or scratch areas.
// The figures are what real Vela 3.10.0 (8cb3c36) reported for these exact models (written out with
// precompiledModel(n)): `--config Arm/vela.ini --optimise Performance --accelerator-config
// ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram` (C1) gave
// sram_memory_used 2.0 KiB for 1, 2 and 3 operators; `--accelerator-config ethos-u65-256 --system-config
// Ethos_U65_High_End --memory-mode Dedicated_Sram` (C3) gave 0.

#include "precompiled_models.hpp"
#include "test_support.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

namespace {

namespace fs = std::filesystem;

npu::Compilation compile(npu::PluginHost& host, const std::string& config, const fs::path& model) {
  const npu::PipelineSpec spec =
      npu::parsePipelineFile(npu::test::sourceDir() / "configs" / "reference" / (config + "-cascade.yaml"));
  const npu::ResolvedPipeline pipeline = npu::resolvePipeline(spec, host, npu::defaultConfigSearchPath());
  npu::SilentProgress progress;
  return npu::compileModel(pipeline, model, progress);
}

} // namespace

BOOST_AUTO_TEST_SUITE(precompiled_models)

BOOST_AUTO_TEST_CASE(only_the_real_inputs_and_outputs_of_existing_ethos_u_operators_take_sram) {
  npu::PluginHost host;
  host.loadDirectory(npu::test::buildDir() / "lib" / "npu-pipeline" / "plugins");
  const npu::test::TemporaryDirectory directory;
  for (const int operators : {1, 2, 3}) {
    const fs::path model = directory.path() / ("precompiled_" + std::to_string(operators) + ".tflite");
    const auto bytes = npu::test::precompiledModel(operators);
    std::ofstream(model, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    BOOST_TEST_CONTEXT(operators << " ethos-u operators") {
      const npu::Compilation c1 = compile(host, "C1", model);
      BOOST_TEST(c1.report->memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)] == 2048);
      BOOST_TEST(c1.report->cpuOperations == 3 * operators - 2);
      const npu::Compilation c3 = compile(host, "C3", model);
      BOOST_TEST(c3.report->memoryUsed[static_cast<std::size_t>(npu::MemoryArea::Sram)] == 0);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
