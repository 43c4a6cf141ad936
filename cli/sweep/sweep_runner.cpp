// SPDX-License-Identifier: Apache-2.0
#include "sweep_runner.hpp"

#include "npu/core/progress.hpp"
#include "npu/pipeline/compiler.hpp"
#include "npu/report/writers.hpp"

#include <tbb/parallel_for_each.h>

#include <fstream>
#include <iterator>
#include <mutex>
#include <ostream>

namespace npu::sweep {

namespace {

std::string readBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throwConfigError("cannot read the network", SourceLocation{file.string(), 0, 0, {}});
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string oneLine(std::string text) {
  for (char& c : text) {
    c = c == '\n' || c == '\r' ? ' ' : c;
  }
  return text;
}

/// The base pipeline with a configuration's settings applied; a setting `--set` refuses is reported at
/// the sweep file line that wrote it.
PipelineSpec configure(const SweepSpec& spec, const Configuration& configuration) {
  PipelineSpec pipeline = parsePipelineFile(spec.pipeline);
  for (const auto& [key, value] : configuration.settings) {
    try {
      applyOverride(pipeline, key + "=" + value);
    } catch (const Error& error) {
      SourceLocation where{spec.file.string(), 0, 0, {}};
      for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
        const auto& written = spec.axes[axis].values[configuration.valueIndices[axis]];
        for (const auto& setting : written.settings) {
          where = setting.first == key ? written.location : where;
        }
      }
      throwConfigError("setting " + key + "=" + value + ": " + error.message(), where, error.hint());
    }
  }
  return pipeline;
}

/// A resolve error of one configuration, told as that configuration's, and placed at the axis value
/// that wrote the refused setting when the error names one (`--set key=value`).
Error blame(const SweepSpec& spec, const Configuration& configuration, std::size_t index, const Error& error) {
  std::string settings;
  SourceLocation where = error.location();
  for (const auto& [key, value] : configuration.settings) {
    settings += (settings.empty() ? "" : " ") + key + "=" + value;
  }
  for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
    const auto& written = spec.axes[axis].values[configuration.valueIndices[axis]];
    for (const auto& [key, value] : written.settings) {
      if (error.location().file == "--set " + key + "=" + value) {
        where = written.location;
      }
    }
  }
  return Error(error.kind(), "configuration #" + std::to_string(index) + " (" + settings + "): " + error.message(),
               where, error.hint());
}

} // namespace

std::string SweepPlan::describe(const PlannedPoint& point) const {
  std::string text = networkLabels[point.network] + " #" + std::to_string(point.configuration);
  for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
    const auto& value = spec.axes[axis].values[configurations[point.configuration].valueIndices[axis]];
    text += " " + spec.axes[axis].name + "=" + value.label;
  }
  return text;
}

SweepPlan planSweep(SweepSpec spec, PluginHost& host, std::string_view toolVersion) {
  SweepPlan plan;
  plan.networks = expandNetworks(spec);
  plan.configurations = expandConfigurations(spec);
  for (std::size_t index = 0; index < plan.configurations.size(); ++index) {
    const PipelineSpec pipeline = configure(spec, plan.configurations[index]);
    try {
      plan.pipelines.push_back(resolvePipeline(pipeline, host, defaultConfigSearchPath()));
    } catch (const Error& error) {
      throw blame(spec, plan.configurations[index], index, error);
    }
    if (plan.pipelines.back().stage(PluginKind::Scheduler) == nullptr) {
      throwConfigError("the sweep's pipeline has no scheduler stage, so there is nothing to measure",
                       SourceLocation{spec.pipeline.string(), 0, 0, {}});
    }
  }
  std::vector<std::string> pipelineTexts;
  for (const auto& pipeline : plan.pipelines) {
    pipelineTexts.push_back(pipeline.toYaml());
  }
  for (std::size_t network = 0; network < plan.networks.size(); ++network) {
    plan.networkLabels.push_back(networkLabel(spec, plan.networks[network]));
    const std::string networkHash = contentHash(readBytes(plan.networks[network]));
    for (std::size_t configuration = 0; configuration < plan.configurations.size(); ++configuration) {
      plan.points.push_back({plan.points.size(), network, configuration,
                             pointKey(toolVersion, networkHash, pipelineTexts[configuration])});
    }
  }
  plan.spec = std::move(spec);
  return plan;
}

PointResult compilePoint(const SweepPlan& plan, const PlannedPoint& point) {
  PointResult result{
      point.key, plan.networkLabels[point.network], plan.configurations[point.configuration].settings, "ok", {}, {}};
  try {
    SilentProgress progress;
    const Compilation compilation =
        compileModel(plan.pipelines[point.configuration], plan.networks[point.network], progress);
    require(compilation.report.has_value(), "a pipeline with a scheduler reports (checked when planning)");
    result.summary = summaryColumns(renderSummaryCsv(*compilation.report));
  } catch (const Error& error) {
    result.status = error.kind() == ErrorKind::Internal ? "error" : "failed";
    const std::string& object = error.location().object;
    result.reason = oneLine(error.message() + (object.empty() ? "" : " (at " + object + ")"));
  } catch (const std::exception& error) {
    result.status = "error";
    result.reason = oneLine(std::string("internal error: ") + error.what());
  }
  return result;
}

RunCounts runSweep(const SweepPlan& plan, const PointStore& store, Shard shard, std::ostream& log) {
  RunCounts counts;
  std::vector<const PlannedPoint*> pending;
  for (const auto& point : plan.points) {
    if (!shard.contains(point.index)) {
      continue;
    }
    ++counts.inShard;
    if (const auto stored = store.load(point.key)) {
      ++counts.alreadyDone;
      counts.notOk += stored->status == "ok" ? 0 : 1;
    } else {
      pending.push_back(&point);
    }
  }
  std::mutex mutex;
  tbb::parallel_for_each(pending.begin(), pending.end(), [&](const PlannedPoint* point) {
    const PointResult result = compilePoint(plan, *point);
    store.save(result);
    const std::lock_guard lock(mutex);
    ++counts.compiled;
    counts.notOk += result.status == "ok" ? 0 : 1;
    log << "[" << counts.compiled << "/" << pending.size() << "] " << plan.describe(*point) << ": " << result.status;
    if (result.status != "ok") {
      log << ": " << result.reason;
    }
    log << "\n" << std::flush;
  });
  return counts;
}

SweepTable collectTable(const SweepPlan& plan, const PointStore& store) {
  SweepTable table;
  table.name = plan.spec.name;
  for (const auto& axis : plan.spec.axes) {
    table.axisNames.push_back(axis.name);
  }
  for (const auto& point : plan.points) {
    SweepRow row;
    row.network = plan.networkLabels[point.network];
    row.configuration = point.configuration;
    for (std::size_t axis = 0; axis < plan.spec.axes.size(); ++axis) {
      row.axisValues.push_back(
          plan.spec.axes[axis].values[plan.configurations[point.configuration].valueIndices[axis]].label);
    }
    if (auto result = store.load(point.key)) {
      row.status = result->status;
      row.reason = result->reason;
      row.summary = std::move(result->summary);
    } else {
      row.status = "missing";
      row.reason = "no result yet (run the sweep, or the missing shards)";
    }
    table.rows.push_back(std::move(row));
  }
  chooseColumns(table, plan.spec.collect, SourceLocation{plan.spec.file.string(), 0, 0, {}});
  return table;
}

} // namespace npu::sweep
