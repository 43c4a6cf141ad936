// SPDX-License-Identifier: Apache-2.0
// npu-pipeline sweep: many networks × many configurations, locally (resumable, sharded) or as a
// Slurm job array. The units live in cli/sweep/; this file is the command line around them.
#include "cli_common.hpp"
#include "commands.hpp"

#include "grid.hpp"
#include "point_store.hpp"
#include "slurm_scripts.hpp"
#include "sweep_html.hpp"
#include "sweep_runner.hpp"
#include "sweep_table.hpp"

#include <tbb/global_control.h>

#include <sys/wait.h>

#include <cstdlib>
#include <iostream>

namespace po = boost::program_options;

namespace npu::cli {

namespace {

constexpr const char* kDescription =
    "Compiles every network of SWEEP (a YAML file: base pipeline, axes of settings, networks, columns to "
    "collect; see docs/sweeps.md) with every configuration of the grid, several points at once. Each "
    "point's result is stored in DIR/points/ as it finishes, keyed by a hash of the network, the resolved "
    "pipeline and the plugin versions, so a re-run (after a kill, or with more axes) compiles only what is "
    "missing. Then writes DIR/sweep.csv (one row per network and configuration: settings, status, reason, "
    "every summary column), DIR/sweep.json and DIR/sweep.html (Pareto front of cycles against SRAM peak, "
    "per-axis plots). With --shard I/N only a slice is compiled and no table is written; `sweep merge` "
    "writes it from the point files. --slurm writes a job array (one shard a task) and a dependent merge "
    "job into DIR/slurm/, and --submit submits them with sbatch.\n\n"
    "Exit status: 0 every point compiled; 1 a point failed (it is still a row, with the reason) or, for "
    "merge, has no result yet; 2 a usage or configuration error (nothing is compiled).";

struct SweepOptions {
  CommonOptions common;
  std::vector<std::string> inputs;
  std::string outputDir;
  std::string shard;
  int threads = 0;
  int shards = 0;
  bool dryRun = false;
  bool slurm = false;
  bool submit = false;
  std::string executable;
};

std::filesystem::path outputOf(const SweepOptions& options, const sweep::SweepSpec& spec) {
  if (!options.outputDir.empty()) {
    return std::filesystem::absolute(options.outputDir).lexically_normal();
  }
  if (spec.output.empty()) {
    usageError("sweep", "give the output folder with -o DIR or `output:` in the sweep file");
  }
  return spec.output;
}

int writeTable(const sweep::SweepPlan& plan, const sweep::PointStore& store, const std::filesystem::path& output) {
  const sweep::SweepTable table = sweep::collectTable(plan, store);
  sweep::writeFileAtomically(output / "sweep.csv", sweep::renderSweepCsv(table));
  sweep::writeFileAtomically(output / "sweep.json", sweep::renderSweepJson(table));
  sweep::writeFileAtomically(output / "sweep.html", sweep::renderSweepHtml(table));
  std::cout << "table: " << table.rows.size() << " rows, " << table.count("ok") << " ok, " << table.count("failed")
            << " failed, " << table.count("error") << " internal errors, " << table.count("missing")
            << " missing; wrote " << (output / "sweep.csv").string() << ", sweep.json, sweep.html\n";
  return table.count("ok") == table.rows.size() ? 0 : 1;
}

int writeSlurm(const SweepOptions& options, const sweep::SweepPlan& plan, const std::filesystem::path& output) {
  sweep::SlurmJob job{plan.spec.name, {}, plan.spec.file, output, {}, plan.spec.slurm};
  job.executable = options.executable.empty() ? std::filesystem::canonical("/proc/self/exe")
                                              : std::filesystem::path(options.executable);
  for (const auto& path : options.common.pluginPaths) {
    job.extraArguments.push_back("--plugin-path");
    job.extraArguments.push_back(std::filesystem::absolute(path).lexically_normal().string());
  }
  if (options.shards > 0) {
    job.slurm.shards = options.shards;
  }
  const std::filesystem::path folder = output / "slurm";
  std::filesystem::create_directories(folder);
  sweep::writeFileAtomically(folder / "array.sh", sweep::renderArrayScript(job));
  sweep::writeFileAtomically(folder / "merge.sh", sweep::renderMergeScript(job));
  sweep::writeFileAtomically(folder / "submit.sh", sweep::renderSubmitScript(job));
  std::cout << "wrote " << (folder / "array.sh").string() << " (" << job.slurm.shards << " shards of "
            << plan.points.size() << " points), merge.sh and submit.sh\n";
  if (!options.submit) {
    std::cout << "submit with: bash " << sweep::shellQuote((folder / "submit.sh").string()) << "\n";
    return 0;
  }
  std::cout << std::flush;
  const int status = std::system(("bash " + sweep::shellQuote((folder / "submit.sh").string())).c_str());
  if (status != 0) {
    throw Error(ErrorKind::Usage, "submitting with sbatch failed (status " + std::to_string(status) + ")", {},
                "run " + (folder / "submit.sh").string() + " by hand to see why; is Slurm reachable from here?");
  }
  return 0;
}

} // namespace

int sweepCommand(const std::vector<std::string>& arguments) {
  SweepOptions options;
  po::options_description description("sweep options");
  addCommonOptions(description, options.common);
  description.add_options()("inputs", po::value(&options.inputs)->composing(), "[merge] SWEEP")(
      "output,o", po::value(&options.outputDir), "results folder (default: the sweep file's `output:`)")(
      "threads", po::value(&options.threads), "points compiled at once, and threads in all (default: all cores)")(
      "shard", po::value(&options.shard), "compile only slice I of N (points i with i mod N == I); no table")(
      "dry-run", po::bool_switch(&options.dryRun), "list the points, their keys and whether each is done")(
      "slurm", po::bool_switch(&options.slurm), "write DIR/slurm/{array,merge,submit}.sh instead of compiling")(
      "shards", po::value(&options.shards), "array tasks for --slurm (default: the sweep file's slurm.shards, or 4)")(
      "submit", po::bool_switch(&options.submit), "with --slurm: submit the scripts with sbatch")(
      "executable", po::value(&options.executable),
      "npu-pipeline as the cluster nodes run it (default: this program's path)");
  po::positional_options_description positional;
  positional.add("inputs", -1);
  parseArguments(arguments, description, positional);
  if (options.common.help) {
    printHelp("npu-pipeline sweep SWEEP [-o DIR] [--threads N] [--shard I/N] [--dry-run]\n"
              "       npu-pipeline sweep merge SWEEP [-o DIR]\n"
              "       npu-pipeline sweep SWEEP --slurm [--shards N] [--submit] [-o DIR]",
              kDescription, description);
    return 0;
  }
  const bool merge = !options.inputs.empty() && options.inputs.front() == "merge";
  if (options.inputs.size() != (merge ? 2U : 1U)) {
    usageError("sweep", "expected SWEEP (or merge SWEEP)");
  }
  if (options.threads < 0 || options.shards < 0) {
    usageError("sweep", "--threads and --shards must be positive");
  }
  if (options.submit && !options.slurm) {
    usageError("sweep", "--submit goes with --slurm");
  }
  const sweep::Shard shard = options.shard.empty() ? sweep::Shard{} : sweep::parseShard(options.shard);
  const sweep::SweepSpec spec = sweep::parseSweepFile(options.inputs.back());
  const std::filesystem::path output = outputOf(options, spec);
  PluginHost host = loadPlugins(options.common);
  const sweep::SweepPlan plan = sweep::planSweep(spec, host, NPU_PIPELINE_VERSION);
  const sweep::PointStore store(output / "points");
  if (options.slurm) {
    return writeSlurm(options, plan, output);
  }
  if (merge) {
    return writeTable(plan, store, output);
  }
  if (options.dryRun) {
    for (const auto& point : plan.points) {
      if (shard.contains(point.index)) {
        std::cout << point.index << " " << point.key.substr(0, 16) << " "
                  << (store.load(point.key) ? "done    " : "pending ") << plan.describe(point) << "\n";
      }
    }
    return 0;
  }
  const auto parallelism = options.threads > 0
                               ? static_cast<std::size_t>(options.threads)
                               : tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, parallelism);
  const sweep::RunCounts counts = sweep::runSweep(plan, store, shard, std::cerr);
  std::cout << "sweep " << plan.spec.name << ": " << plan.networks.size() << " networks x "
            << plan.configurations.size() << " configurations = " << plan.points.size() << " points";
  if (!options.shard.empty()) {
    std::cout << "; shard " << options.shard << " has " << counts.inShard;
  }
  std::cout << "; " << counts.alreadyDone << " already done, " << counts.compiled << " compiled, " << counts.notOk
            << " failed\n";
  if (!options.shard.empty()) {
    return counts.notOk == 0 ? 0 : 1;
  }
  return writeTable(plan, store, output);
}

} // namespace npu::cli
