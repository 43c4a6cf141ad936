// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sweep_spec.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace npu::sweep {

/// What the batch scripts run: the same sweep, from the same (shared) paths, on every node.
struct SlurmJob {
  std::string name;
  std::filesystem::path executable; ///< npu-pipeline as the nodes find it
  std::filesystem::path sweepFile;
  std::filesystem::path outputDir;
  std::vector<std::string> extraArguments; ///< e.g. --plugin-path DIR, passed to every run
  SlurmSpec slurm;
};

/// A job array, one task per shard: `npu-pipeline sweep FILE -o DIR --shard $SLURM_ARRAY_TASK_ID/N`.
[[nodiscard]] std::string renderArrayScript(const SlurmJob& job);
/// The merge job: `npu-pipeline sweep merge FILE -o DIR`, writing the table, JSON and HTML.
[[nodiscard]] std::string renderMergeScript(const SlurmJob& job);
/// Submits the array, then the merge job depending on it (afterany, so a failed shard still gets a
/// table that lists its missing points); prints both job ids.
[[nodiscard]] std::string renderSubmitScript(const SlurmJob& job);

/// Single-quotes a word for the shell.
[[nodiscard]] std::string shellQuote(const std::string& word);

} // namespace npu::sweep
