// SPDX-License-Identifier: Apache-2.0
// `npu-pipeline vela NETWORK [Vela 3.10 options]`: Vela's command line in front of the pipeline, so a
// Makefile that calls `vela` works with the program name swapped.
#include "allocator_tuning.hpp"
#include "cli_common.hpp"
#include "code_inspection.hpp"
#include "commands.hpp"
#include "report_files.hpp"
#include "vela_options.hpp"
#include "vela_summary.hpp"
#include "vela_supported_ops.hpp"

#include "npu/pipeline/compiler.hpp"
#include "npu/report/writers.hpp"

#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <iostream>

namespace npu::cli {

namespace {

namespace fs = std::filesystem;

/// The equivalent of Vela's --list-config-files: the bundled Arm/vela.ini with its sections.
int listConfigFiles() {
  const fs::path root = bundledConfigRoot();
  std::cout << "Available config files:\nArm/vela.ini   (bundled as " << root.string() << ")\n";
  for (const auto& [folder, title] :
       {std::pair{"systems", "system configs"}, std::pair{"memory_modes", "memory modes"}}) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(root / folder)) {
      if (entry.path().extension() == ".yaml") {
        names.push_back(entry.path().stem().string());
      }
    }
    std::sort(names.begin(), names.end());
    std::cout << "  " << title << ":";
    for (const auto& name : names) {
      std::cout << " " << name;
    }
    std::cout << "\n";
  }
  std::cout
      << "(names are matched without regard to case: Ethos_U55_High_End_Embedded is ethos_u55_high_end_embedded)\n";
  return 0;
}

/// Vela's --supported-ops-report: SUPPORTED_OPS.md in the current directory, for --accelerator-config.
int writeSupportedOperators(const VelaOptions& options, PluginHost& host) {
  VelaOptions defaults = options;
  defaults.configFiles.clear();
  defaults.systemConfig = defaults.memoryMode = "internal-default";
  PipelineSpec spec = velaPipelineSpec(defaults, host);
  spec.accelerator->system.clear(); // the plugin's own defaults: the checks do not depend on the system
  spec.accelerator->memoryMode.clear();
  const ResolvedPipeline pipeline = resolvePipeline(spec, host, defaultConfigSearchPath());
  const auto accelerator = pipeline.accelerator->implementation->create(pipeline.accelerator->config);
  const SupportedOperatorsReport report{options.acceleratorConfig,
                                        pipeline.accelerator->plugin + " " + pipeline.accelerator->pluginVersion,
                                        accelerator->support().describe()};
  if (report.operators.empty()) {
    throw Error(ErrorKind::Usage, "vela: the accelerator plugin " + report.plugin + " does not describe its checks", {},
                "its OperatorSupport::describe() returns no operator types");
  }
  std::vector<PendingFile> files{{"SUPPORTED_OPS.md", renderSupportedOperatorsMarkdown(report)}};
  if (options.json) {
    files.push_back({"SUPPORTED_OPS.json", renderSupportedOperatorsJson(report)});
  }
  for (const auto& file : writeFilesAtomically(files, ".")) {
    std::cout << "wrote " << file.string() << "\n";
  }
  return 0;
}

/// Vela's register command listing, read back from the written model by the code generators.
void printCommandStreams(const PluginHost& host, const fs::path& model) {
  const Graph written = frontendForModel(host, model).read(model, {});
  inspectCode(host, written, CodeInspectionRequest{true, false}, std::cout);
}

int compile(const VelaOptions& options, PluginHost& host) {
  if (options.network.empty()) {
    throw Error(ErrorKind::Usage, "vela: the following argument is required: NETWORK", {},
                "run `npu-pipeline vela --help`");
  }
  const ResolvedPipeline pipeline = resolvePipeline(velaPipelineSpec(options, host), host, defaultConfigSearchPath());
  if (options.printPipeline) {
    std::cout << "# the pipeline these options select (npu-pipeline run PIPELINE " << options.network << ")\n"
              << pipeline.toYaml() << "\n";
  }
  for (const auto* which : {&options.systemConfig, &options.memoryMode}) {
    if (*which == "internal-default") {
      std::cout << "Warning: Using internal-default values for "
                << (which == &options.systemConfig ? "system configuration" : "memory mode") << "\n";
    }
  }
  const auto parallelism = options.threads > 0
                               ? static_cast<std::size_t>(options.threads)
                               : tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, parallelism);
  const WorkerHeapTuning workerHeaps;
  TerminalProgress progress;
  Compilation compilation = compileModel(pipeline, options.network, progress);
  NetworkReport report = std::move(*compilation.report);
  if (options.timing) {
    report.stageTimes = compilation.stageTimes;
  }
  // The report and the generated model are all that is written: the rest is released first.
  const GeneratedModel output = std::move(*compilation.output);
  tbb::task_group releasing;
  releaseCompilation(compilation, releasing, false);
  // Each report is rendered as it is written, beside the others and the model.
  std::vector<PendingFile> files{
      {fs::path(options.outputDir) / (report.network + "_summary_" + report.memory.systemName + ".csv"),
       {},
       {},
       [&report] { return renderSummaryCsv(report); }}};
  if (options.verbosePerformance) {
    files.push_back({fs::path(options.outputDir) / (report.network + "_per-layer.csv"), {}, {}, [&report] {
                       return renderPerLayerCsv(report);
                     }});
  }
  if (options.json) {
    files.push_back({fs::path(options.outputDir) / (report.network + ".json"), {}, {}, [&report] {
                       return renderJsonReport(report);
                     }});
  }
  const fs::path model = fs::path(options.outputDir) / output.fileName;
  files.push_back({model, {}, output.bytes});
  writeFilesAtomically(files, options.outputDir);
  releasing.wait();

  if (options.verboseConfig) {
    std::cout << renderConfigurationText(report);
  }
  if (options.verboseSchedule) {
    std::cout << renderScheduleText(report);
  }
  if (options.verboseAllocation) {
    std::cout << renderAllocationText(report.allocation);
  }
  if (options.verboseRegisterCommandStream) {
    printCommandStreams(host, model);
  }
  if (options.verbosePerformance) {
    std::cout << renderTextReport(report);
  }
  std::cout << renderVelaSummary(report, {options.showCpuOperations, options.verboseWeights});
  if (options.timing) {
    std::cout << renderStageTimesText(report.stageTimes);
  }
  return 0;
}

} // namespace

int velaCommand(const std::vector<std::string>& arguments) {
  const VelaOptions options = parseVelaArguments(arguments);
  if (options.help) {
    std::cout << velaHelpText();
    return 0;
  }
  if (options.version) {
    std::cout << "npu-pipeline " << NPU_PIPELINE_VERSION << " (Vela 3.10.0 command line)\n";
    return 0;
  }
  if (options.listConfigFiles) {
    return listConfigFiles();
  }
  if (!options.supportedOpsReport) {
    tuneAllocatorFor(options.network, static_cast<std::size_t>(std::max(0, options.threads)));
  }
  CommonOptions common;
  common.pluginPaths = options.pluginPaths;
  PluginHost host = loadPlugins(common);
  if (options.supportedOpsReport) {
    return writeSupportedOperators(options, host);
  }
  return compile(options, host);
}

} // namespace npu::cli
