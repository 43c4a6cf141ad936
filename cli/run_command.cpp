// SPDX-License-Identifier: Apache-2.0
#include "allocator_tuning.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "report_files.hpp"

#include "npu/pipeline/compiler.hpp"
#include "npu/report/writers.hpp"

#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include <iostream>

namespace po = boost::program_options;

namespace npu::cli {

int runCommand(const std::vector<std::string>& arguments) {
  CommonOptions common;
  std::string pipelineFile;
  std::string model;
  std::string outputDir;
  std::vector<std::string> overrides;
  int threads = 0;
  bool quiet = false;
  bool verboseAllocation = false;
  bool verboseConfig = false;
  bool verboseSchedule = false;
  bool timing = false;
  po::options_description options("run options");
  addCommonOptions(options, common);
  options.add_options()("pipeline", po::value(&pipelineFile), "pipeline YAML file")(
      "model", po::value(&model), "model file")("output,o", po::value(&outputDir),
                                                "write the reports (the pipeline's report formats) into DIR")(
      "set", po::value(&overrides)->composing(), "override a pipeline setting: key=value (repeatable)")(
      "threads", po::value(&threads), "worker threads for the schedulers (1 to 4 per core; default: all cores)")(
      "quiet,q", po::bool_switch(&quiet), "do not print the text report")(
      "verbose-allocation", po::bool_switch(&verboseAllocation),
      "print where every buffer was placed, memory by memory (as Vela's --verbose-allocation)")(
      "verbose-config", po::bool_switch(&verboseConfig),
      "print the resolved clocks, bandwidths, latencies and memory placement (as Vela's --verbose-config)")(
      "verbose-schedule", po::bool_switch(&verboseSchedule),
      "print the schedule operation by operation (as Vela's --verbose-schedule)")(
      "timing", po::bool_switch(&timing),
      "print the time each stage took, and add it to the JSON report (as Vela's --timing)");
  po::positional_options_description positional;
  positional.add("pipeline", 1).add("model", 1);
  const po::variables_map values = parseArguments(arguments, options, positional);
  if (common.help) {
    printHelp("npu-pipeline run PIPELINE MODEL [-o DIR] [--set key=value]... [--threads N]",
              "Compiles MODEL with the stages PIPELINE names and reports, per layer and in total, cycles, "
              "inference time, MACs, bandwidth per memory and the SRAM peak. With -o, writes the report "
              "files (text, Vela-compatible summary and per-layer CSV, JSON, HTML) into DIR, and, when "
              "the pipeline has a codegen stage, the deployable model (<network>_vela.tflite for Ethos-U); "
              "nothing is written when compilation fails.",
              options);
    return 0;
  }
  if (pipelineFile.empty() || model.empty()) {
    usageError("run", "expected PIPELINE and MODEL");
  }
  const std::size_t parallelism = workerThreads("run", values, threads);
  tuneAllocatorFor(model, parallelism);
  PipelineSpec spec = parsePipelineFile(pipelineFile);
  for (const auto& assignment : overrides) {
    applyOverride(spec, assignment);
  }
  PluginHost host = loadPlugins(common);
  const ResolvedPipeline pipeline = resolvePipeline(spec, host, defaultConfigSearchPath());
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, parallelism);
  const WorkerHeapTuning workerHeaps;
  TerminalProgress progress;
  Compilation compilation = compileModel(pipeline, model, progress);
  if (!compilation.report) {
    std::cout << "compiled " << compilation.lowered.name << ": the pipeline has no scheduler, nothing to report\n";
    return 0;
  }
  NetworkReport report = std::move(*compilation.report);
  if (timing) {
    report.stageTimes = compilation.stageTimes;
  }
  // Only the report and the generated model are written: the graph, the schedules and the allocation
  // (with the model's constants, hundreds of MB for a large network) are released before the reports
  // are rendered; a small model's (a few MB) beside their rendering, off the critical path.
  const std::optional<GeneratedModel> output = std::move(compilation.output);
  tbb::task_group releasing;
  releaseCompilation(compilation, releasing, true);
  if (!outputDir.empty()) {
    writeReportFiles(report, pipeline.report.formats, outputDir, output ? &*output : nullptr);
  }
  releasing.wait();
  if (verboseConfig) {
    std::cout << renderConfigurationText(report);
  }
  if (verboseSchedule) {
    std::cout << renderScheduleText(report);
  }
  if (verboseAllocation) {
    std::cout << renderAllocationText(report.allocation);
  }
  if (!quiet) {
    std::cout << renderTextReport(report);
  }
  if (timing) {
    std::cout << renderStageTimesText(report.stageTimes) << "allocator: " << allocatorTuningDescription() << "\n";
  }
  return 0;
}

} // namespace npu::cli
