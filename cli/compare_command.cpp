// SPDX-License-Identifier: Apache-2.0
#include "cli_common.hpp"
#include "commands.hpp"
#include "report_files.hpp"

#include "npu/pipeline/compiler.hpp"
#include "npu/report/comparison.hpp"

#include <tbb/global_control.h>

#include <filesystem>
#include <iostream>

namespace po = boost::program_options;

namespace npu::cli {

namespace {

ResolvedPipeline resolveWith(const std::string& file, const std::vector<std::string>& overrides, PluginHost& host) {
  PipelineSpec spec = parsePipelineFile(file);
  for (const auto& assignment : overrides) {
    applyOverride(spec, assignment);
  }
  return resolvePipeline(spec, host, defaultConfigSearchPath());
}

std::string labelOf(const ResolvedPipeline& pipeline) {
  const std::string stem = pipeline.file.stem().string();
  return pipeline.name.empty() ? stem : stem + " (" + pipeline.name + ")";
}

NetworkReport compileForReport(const ResolvedPipeline& pipeline, const std::string& model, Progress& progress) {
  Compilation compilation = compileModel(pipeline, model, progress);
  if (!compilation.report) {
    throwConfigError("pipeline has no scheduler stage, so there is nothing to compare",
                     SourceLocation{pipeline.file.string(), 0, 0, {}});
  }
  return std::move(*compilation.report);
}

} // namespace

int compareCommand(const std::vector<std::string>& arguments) {
  CommonOptions common;
  std::vector<std::string> inputs;
  std::string outputDir;
  std::vector<std::string> overrides;
  std::vector<std::string> overridesA;
  std::vector<std::string> overridesB;
  int threads = 0;
  po::options_description options("compare options");
  addCommonOptions(options, common);
  options.add_options()("inputs", po::value(&inputs)->composing(), "PIPELINE_A PIPELINE_B MODEL...")(
      "output,o", po::value(&outputDir), "write compare_summary.csv, <model>_layers.csv and compare.html into DIR")(
      "set", po::value(&overrides)->composing(), "override a setting in both pipelines: key=value")(
      "set-a", po::value(&overridesA)->composing(), "override a setting in pipeline A only")(
      "set-b", po::value(&overridesB)->composing(), "override a setting in pipeline B only")(
      "threads", po::value(&threads), "worker threads for the schedulers (1 to 4 per core; default: all cores)");
  po::positional_options_description positional;
  positional.add("inputs", -1);
  const po::variables_map values = parseArguments(arguments, options, positional);
  if (common.help) {
    printHelp("npu-pipeline compare PIPELINE_A PIPELINE_B MODEL... [-o DIR]",
              "Compiles every MODEL with both pipelines (e.g. the DP and the cascade scheduler on the same "
              "accelerator and cost model) and shows network totals and per-layer figures side by side: "
              "cycles, inference time, SRAM peak, bytes per memory, block configs, cascade/strategy membership, "
              "with deltas and the winner. With -o, also CSV files and a self-contained HTML page with charts. A model "
              "a pipeline cannot compile (e.g. it does not fit) is listed with the reason, the others are still "
              "compared, and the exit code is then 1 with nothing written to DIR (as `run`, files are written "
              "only on success).",
              options);
    return 0;
  }
  if (inputs.size() < 3) {
    usageError("compare", "expected PIPELINE_A PIPELINE_B and at least one MODEL");
  }
  const std::size_t parallelism = workerThreads("compare", values, threads);
  overridesA.insert(overridesA.begin(), overrides.begin(), overrides.end());
  overridesB.insert(overridesB.begin(), overrides.begin(), overrides.end());
  PluginHost host = loadPlugins(common);
  const ResolvedPipeline pipelineA = resolveWith(inputs[0], overridesA, host);
  const ResolvedPipeline pipelineB = resolveWith(inputs[1], overridesB, host);
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, parallelism);
  TerminalProgress progress;
  Comparison comparison{labelOf(pipelineA), labelOf(pipelineB), {}};
  // A model one pipeline cannot compile (does not fit, malformed) is listed with the reason and the
  // others are still compared; the exit code then says that not everything was compared.
  const auto compileSide = [&](const ResolvedPipeline& pipeline, const std::string& model, NetworkReport& report,
                               std::string& failure) {
    try {
      report = compileForReport(pipeline, model, progress);
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::Compile && error.kind() != ErrorKind::Model) {
        throw;
      }
      std::cerr << error.render() << "\n";
      failure = error.message();
    }
  };
  int status = 0;
  for (std::size_t i = 2; i < inputs.size(); ++i) {
    ComparedModel compared;
    compileSide(pipelineA, inputs[i], compared.a, compared.failureA);
    compileSide(pipelineB, inputs[i], compared.b, compared.failureB);
    compared.model = compared.failureA.empty()   ? compared.a.network
                     : compared.failureB.empty() ? compared.b.network
                                                 : std::filesystem::path(inputs[i]).stem().string();
    status = compared.compared() ? status : 1;
    comparison.models.push_back(std::move(compared));
  }
  // As `run`: output files only for a complete success, so a script never mistakes a partial
  // comparison for a finished one (the text on stdout still lists what failed and why).
  if (!outputDir.empty() && status == 0) {
    writeComparisonFiles(comparison, outputDir);
  }
  std::cout << renderComparisonText(comparison);
  if (!outputDir.empty() && status != 0) {
    std::cerr << "nothing was written to " << outputDir << ": not every model was compared\n";
  }
  return status;
}

} // namespace npu::cli
