// SPDX-License-Identifier: Apache-2.0
// The compiled part of the Python API (`npu_pipeline._native`): a thin layer over the C++ API that
// resolves a pipeline, compiles a model and hands back exactly what the command line writes (the
// report JSON, text and CSVs, the optimised model's bytes). Everything Python sees is computed here by
// the same functions the CLI calls, so the two cannot disagree.
#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/report/comparison.hpp"
#include "npu/report/writers.hpp"

#include "point_store.hpp"
#include "sweep_html.hpp"
#include "sweep_runner.hpp"
#include "sweep_spec.hpp"
#include "sweep_table.hpp"
#include "vela_options.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <tbb/global_control.h>

#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// A pipeline as the Python caller gave it: a file, or YAML/JSON text standing for a file name.
struct PipelineSource {
  std::string text; ///< empty: read `file`
  std::string file;
  std::vector<std::string> overrides;
};

npu::PipelineSpec parseSource(const PipelineSource& source) {
  npu::PipelineSpec spec =
      source.text.empty() ? npu::parsePipelineFile(source.file) : npu::parsePipelineText(source.text, source.file);
  for (const auto& assignment : source.overrides) {
    npu::applyOverride(spec, assignment);
  }
  return spec;
}

npu::PluginHost loadHost(const std::vector<std::string>& pluginDirs) {
  npu::PluginHost host;
  for (const auto& directory : pluginDirs) {
    host.loadDirectory(directory);
  }
  host.loadSearchPath(npu::PluginHost::defaultSearchPath());
  return host;
}

std::vector<std::filesystem::path> configPath(const std::vector<std::string>& configDirs) {
  std::vector<std::filesystem::path> path(configDirs.begin(), configDirs.end());
  for (auto& directory : npu::defaultConfigSearchPath()) {
    path.push_back(std::move(directory));
  }
  return path;
}

/// The scheduler threads for one call: the caller's count, or every core.
std::size_t parallelismFor(int threads) {
  if (threads < 0) {
    throw npu::Error(npu::ErrorKind::Usage, "threads must be positive (0 means every core)");
  }
  return threads > 0 ? static_cast<std::size_t>(threads)
                     : tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
}

py::dict reportFiles(const npu::NetworkReport& report) {
  py::dict files;
  files["json"] = npu::renderJsonReport(report);
  files["text"] = npu::renderTextReport(report);
  files["summary_csv"] = npu::renderSummaryCsv(report);
  files["per_layer_csv"] = npu::renderPerLayerCsv(report);
  files["html"] = npu::renderHtmlReport(report);
  return files;
}

py::dict compileResolved(const npu::ResolvedPipeline& pipeline, const std::string& model, int threads) {
  py::dict result;
  result["pipeline_yaml"] = pipeline.toYaml();
  std::optional<npu::Compilation> compilation;
  {
    const py::gil_scoped_release release;
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, parallelismFor(threads));
    npu::SilentProgress progress;
    compilation = npu::compileModel(pipeline, model, progress);
  }
  result["network"] = compilation->lowered.name;
  result["report"] = compilation->report ? py::object(reportFiles(*compilation->report)) : py::none();
  if (compilation->output) {
    const std::vector<std::uint8_t> bytes = compilation->output->bytes.joined();
    result["output_name"] = compilation->output->fileName;
    result["output_bytes"] = py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  } else {
    result["output_name"] = py::none();
    result["output_bytes"] = py::none();
  }
  return result;
}

py::dict compile(const PipelineSource& source, const std::string& model, int threads,
                 const std::vector<std::string>& pluginDirs, const std::vector<std::string>& configDirs) {
  npu::PluginHost host = loadHost(pluginDirs);
  return compileResolved(npu::resolvePipeline(parseSource(source), host, configPath(configDirs)), model, threads);
}

/// Compiles with the pipeline Vela's command line describes (`npu-pipeline vela`'s options; the network is
/// one of the arguments), as compile() does with a pipeline file.
py::dict compileVela(const std::vector<std::string>& arguments, int threads,
                     const std::vector<std::string>& pluginDirs) {
  const npu::cli::VelaOptions options = npu::cli::parseVelaArguments(arguments);
  if (options.network.empty()) {
    throw npu::Error(npu::ErrorKind::Usage, "Vela's options name no network");
  }
  npu::PluginHost host = loadHost(pluginDirs);
  const npu::ResolvedPipeline pipeline =
      npu::resolvePipeline(npu::cli::velaPipelineSpec(options, host), host, npu::defaultConfigSearchPath());
  return compileResolved(pipeline, options.network, threads);
}

std::string labelOf(const npu::ResolvedPipeline& pipeline) {
  const std::string stem = pipeline.file.stem().string();
  return pipeline.name.empty() ? stem : stem + " (" + pipeline.name + ")";
}

/// Compiles one side for a comparison; a model that does not compile on that side keeps the reason.
void compileSide(const npu::ResolvedPipeline& pipeline, const std::string& model, npu::NetworkReport& report,
                 std::string& failure) {
  try {
    npu::SilentProgress progress;
    npu::Compilation compilation = npu::compileModel(pipeline, model, progress);
    if (!compilation.report) {
      throw npu::Error(npu::ErrorKind::Config, "the pipeline has no scheduler stage, so there is nothing to compare",
                       npu::SourceLocation{pipeline.file.string(), 0, 0, {}});
    }
    report = std::move(*compilation.report);
  } catch (const npu::Error& error) {
    if (error.kind() != npu::ErrorKind::Compile && error.kind() != npu::ErrorKind::Model) {
      throw;
    }
    failure = error.message();
  }
}

py::dict compare(const PipelineSource& sourceA, const PipelineSource& sourceB, const std::vector<std::string>& models,
                 int threads, const std::vector<std::string>& pluginDirs, const std::vector<std::string>& configDirs) {
  npu::PluginHost host = loadHost(pluginDirs);
  const auto configs = configPath(configDirs);
  const npu::ResolvedPipeline pipelineA = npu::resolvePipeline(parseSource(sourceA), host, configs);
  const npu::ResolvedPipeline pipelineB = npu::resolvePipeline(parseSource(sourceB), host, configs);
  npu::Comparison comparison{labelOf(pipelineA), labelOf(pipelineB), {}};
  {
    const py::gil_scoped_release release;
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, parallelismFor(threads));
    for (const auto& model : models) {
      npu::ComparedModel compared;
      compileSide(pipelineA, model, compared.a, compared.failureA);
      compileSide(pipelineB, model, compared.b, compared.failureB);
      compared.model = compared.failureA.empty()   ? compared.a.network
                       : compared.failureB.empty() ? compared.b.network
                                                   : std::filesystem::path(model).stem().string();
      comparison.models.push_back(std::move(compared));
    }
  }
  py::dict result;
  result["text"] = npu::renderComparisonText(comparison);
  result["summary_csv"] = npu::renderComparisonSummaryCsv(comparison);
  result["html"] = npu::renderComparisonHtml(comparison);
  py::list models_out;
  for (const auto& compared : comparison.models) {
    py::dict entry;
    entry["model"] = compared.model;
    entry["failure_a"] = compared.failureA;
    entry["failure_b"] = compared.failureB;
    entry["json_a"] = compared.failureA.empty() ? py::object(py::str(npu::renderJsonReport(compared.a))) : py::none();
    entry["json_b"] = compared.failureB.empty() ? py::object(py::str(npu::renderJsonReport(compared.b))) : py::none();
    entry["layers_csv"] =
        compared.compared() ? py::object(py::str(npu::renderComparisonLayersCsv(comparison, compared))) : py::none();
    models_out.append(std::move(entry));
  }
  result["models"] = std::move(models_out);
  return result;
}

/// Runs a sweep file as `npu-pipeline sweep FILE -o DIR` does (resumable: points already stored in DIR are
/// not compiled again) and returns its table as CSV and JSON, with the counts.
py::dict sweep(const std::string& file, const std::string& outputDir, int threads,
               const std::vector<std::string>& pluginDirs) {
  const npu::sweep::SweepSpec spec = npu::sweep::parseSweepFile(file);
  const std::filesystem::path output =
      !outputDir.empty() ? std::filesystem::absolute(outputDir).lexically_normal() : spec.output;
  if (output.empty()) {
    throw npu::Error(npu::ErrorKind::Usage, "give the output folder (output_dir, or `output:` in the sweep file)",
                     npu::SourceLocation{file, 0, 0, {}});
  }
  npu::PluginHost host = loadHost(pluginDirs);
  const npu::sweep::SweepPlan plan = npu::sweep::planSweep(spec, host, NPU_PIPELINE_VERSION);
  const npu::sweep::PointStore store(output / "points");
  std::ostringstream log;
  npu::sweep::RunCounts counts;
  {
    const py::gil_scoped_release release;
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, parallelismFor(threads));
    counts = npu::sweep::runSweep(plan, store, npu::sweep::Shard{}, log);
  }
  const npu::sweep::SweepTable table = npu::sweep::collectTable(plan, store);
  const std::string csv = npu::sweep::renderSweepCsv(table);
  const std::string json = npu::sweep::renderSweepJson(table);
  npu::sweep::writeFileAtomically(output / "sweep.csv", csv);
  npu::sweep::writeFileAtomically(output / "sweep.json", json);
  npu::sweep::writeFileAtomically(output / "sweep.html", npu::sweep::renderSweepHtml(table));
  py::dict result;
  result["output_dir"] = output.string();
  result["csv"] = csv;
  result["json"] = json;
  result["already_done"] = counts.alreadyDone;
  result["compiled"] = counts.compiled;
  result["failed"] = counts.notOk;
  result["log"] = log.str();
  return result;
}

/// A CompileError whose `smallest_fitting_sram` names the smallest fast-storage limit that fits (None
/// when none up to the search's ceiling does) and `sram_limit` the limit it did not fit.
void raiseDoesNotFit(const py::object& type, const npu::DoesNotFitError& error) {
  py::object instance = type(error.render());
  const auto& search = error.search();
  instance.attr("sram_limit") = search.limit;
  instance.attr("smallest_fitting_sram") =
      search.smallestFittingLimit ? py::object(py::int_(*search.smallestFittingLimit)) : py::object(py::none());
  PyErr_SetObject(type.ptr(), instance.ptr());
}

} // namespace

PYBIND11_MODULE(_native, module) {
  module.doc() = "npu-pipeline's C++ core; use the npu_pipeline package, not this module";
  static py::exception<npu::Error> baseError(module, "Error");
  static py::exception<npu::Error> configError(module, "ConfigError", baseError.ptr());
  static py::exception<npu::Error> modelError(module, "ModelError", baseError.ptr());
  static py::exception<npu::Error> compileError(module, "CompileError", baseError.ptr());
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer) {
        std::rethrow_exception(pointer);
      }
    } catch (const npu::Error& error) {
      switch (error.kind()) {
      case npu::ErrorKind::Usage:
      case npu::ErrorKind::Config:
        configError(error.render().c_str());
        break;
      case npu::ErrorKind::Model:
        modelError(error.render().c_str());
        break;
      case npu::ErrorKind::Compile:
        if (const auto* doesNotFit = dynamic_cast<const npu::DoesNotFitError*>(&error)) {
          raiseDoesNotFit(compileError, *doesNotFit);
        } else {
          compileError(error.render().c_str());
        }
        break;
      case npu::ErrorKind::Internal:
        baseError(error.render().c_str());
        break;
      }
    }
  });
  py::class_<PipelineSource>(module, "PipelineSource")
      .def(py::init<std::string, std::string, std::vector<std::string>>(), py::arg("text"), py::arg("file"),
           py::arg("overrides"));
  module.def("compile", &compile, py::arg("pipeline"), py::arg("model"), py::arg("threads"), py::arg("plugin_dirs"),
             py::arg("config_dirs"));
  module.def("compare", &compare, py::arg("pipeline_a"), py::arg("pipeline_b"), py::arg("models"), py::arg("threads"),
             py::arg("plugin_dirs"), py::arg("config_dirs"));
  module.def("compile_vela", &compileVela, py::arg("arguments"), py::arg("threads"), py::arg("plugin_dirs"));
  module.def("sweep", &sweep, py::arg("file"), py::arg("output_dir"), py::arg("threads"), py::arg("plugin_dirs"));
  module.attr("version") = NPU_PIPELINE_VERSION;
}
