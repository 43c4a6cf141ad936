// SPDX-License-Identifier: Apache-2.0
#include "slurm_scripts.hpp"

#include <cctype>

namespace npu::sweep {

namespace {

std::filesystem::path slurmFolder(const SlurmJob& job) {
  return job.outputDir / "slurm";
}

/// The sweep's name as a job name: letters, digits, '.', '_' and '-' (a #SBATCH line splits at spaces).
std::string jobName(const std::string& name) {
  std::string safe;
  for (const char c : name) {
    safe += std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-' ? c : '-';
  }
  return safe.empty() ? std::string("sweep") : safe;
}

std::string header(const SlurmJob& job, const std::string& suffix, const std::string& log, int cpus) {
  std::string script = "#!/bin/bash\n";
  script += "#SBATCH --job-name=" + jobName(job.name) + "-" + suffix + "\n";
  script += "#SBATCH --output=" + (slurmFolder(job) / log).string() + "\n";
  script += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=" + std::to_string(cpus) + "\n";
  if (!job.slurm.partition.empty()) {
    script += "#SBATCH --partition=" + job.slurm.partition + "\n";
  }
  if (!job.slurm.timeLimit.empty()) {
    script += "#SBATCH --time=" + job.slurm.timeLimit + "\n";
  }
  for (const auto& option : job.slurm.options) {
    script += "#SBATCH " + option + "\n";
  }
  return script;
}

std::string command(const SlurmJob& job, const std::string& subcommand) {
  std::string line = shellQuote(job.executable.string()) + " sweep " + subcommand + shellQuote(job.sweepFile.string()) +
                     " -o " + shellQuote(job.outputDir.string());
  for (const auto& argument : job.extraArguments) {
    line += " " + shellQuote(argument);
  }
  return line;
}

} // namespace

std::string shellQuote(const std::string& word) {
  std::string quoted = "'";
  for (const char c : word) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

std::string renderArrayScript(const SlurmJob& job) {
  std::string script = header(job, "shards", "shard-%a.log", job.slurm.cpusPerTask);
  script += "#SBATCH --array=0-" + std::to_string(job.slurm.shards - 1) + "\n";
  script += "# Written by npu-pipeline sweep --slurm: one shard of the sweep per array task. Each point's\n"
            "# result lands in the shared points folder as it finishes; re-submitting skips finished points.\n"
            "# Exit status 1 (a point did not compile: it is stored with the reason) counts as done.\n";
  script += "set -uo pipefail\n";
  script += command(job, "") + " --shard \"${SLURM_ARRAY_TASK_ID}/" + std::to_string(job.slurm.shards) +
            "\" --threads \"${SLURM_CPUS_PER_TASK:-" + std::to_string(job.slurm.cpusPerTask) + "}\"\n";
  script += "status=$?\nif [ \"$status\" -eq 1 ]; then status=0; fi\nexit \"$status\"\n";
  return script;
}

std::string renderMergeScript(const SlurmJob& job) {
  std::string script = header(job, "merge", "merge.log", 1);
  script += "# Written by npu-pipeline sweep --slurm: builds the table, JSON and HTML from the point files.\n"
            "# Its exit status (and job state) says whether every point compiled; the table says which did not.\n";
  script += "set -euo pipefail\nexec " + command(job, "merge ") + "\n";
  return script;
}

std::string renderSubmitScript(const SlurmJob& job) {
  const std::string folder = shellQuote(slurmFolder(job).string());
  std::string script = "#!/bin/bash\n# Written by npu-pipeline sweep --slurm: submits the shards, then the merge.\n";
  script += "set -euo pipefail\n";
  script += "array=$(sbatch --parsable " + folder + "/array.sh)\n";
  script += "array=${array%%;*}\n";
  script += "merge=$(sbatch --parsable --dependency=afterany:${array} " + folder + "/merge.sh)\n";
  script += "merge=${merge%%;*}\n";
  script += "echo \"submitted shards as job ${array}, the merge as job ${merge}\"\n";
  script += "echo \"${array} ${merge}\" > " + folder + "/jobs\n";
  return script;
}

} // namespace npu::sweep
