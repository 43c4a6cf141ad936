// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/diagnostics.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace npu::sweep {

/// A pipeline setting as `--set` takes it: a dotted key ("accelerator.arena_cache_size") and its text.
using Setting = std::pair<std::string, std::string>;

/// One value of an axis: the settings it applies, and how tables and plots name it.
struct AxisValue {
  std::string label;
  std::vector<Setting> settings;
  SourceLocation location;
};

/// One dimension of the grid. A plain axis is named by the setting it varies; a linked axis has a
/// name of its own and values that set several settings together (e.g. variant, plugin and system).
struct Axis {
  std::string name;
  bool linked = false;
  std::vector<AxisValue> values;
  SourceLocation location;
};

/// One entry of `networks:`: a file, a glob (`models/*.tflite`) or a list file (`@list.txt`, one path a
/// line), relative to the sweep file.
struct NetworkEntry {
  std::string pattern;
  SourceLocation location;
};

/// How `--slurm` writes its batch scripts.
struct SlurmSpec {
  int shards = 4;                   ///< array tasks
  int cpusPerTask = 2;              ///< also the --threads of each shard
  std::string partition;            ///< empty: the cluster's default
  std::string timeLimit;            ///< e.g. "01:00:00"; empty: the partition's default
  std::vector<std::string> options; ///< further `#SBATCH` options, written as given
};

/// A sweep file as written, structurally validated; paths are absolute (resolved against the file).
struct SweepSpec {
  std::filesystem::path file;
  std::string name;
  std::filesystem::path pipeline;
  std::vector<Setting> baseSettings; ///< `set:` applied to the pipeline before any axis
  std::vector<Axis> axes;
  std::vector<NetworkEntry> networks;
  std::vector<std::string> collect; ///< summary columns to keep; empty: all of them
  std::filesystem::path output;     ///< empty when the file names none
  SlurmSpec slurm;
};

/// Parses a sweep file; errors are Config errors naming file:line:column.
[[nodiscard]] SweepSpec parseSweepFile(const std::filesystem::path& file);
[[nodiscard]] SweepSpec parseSweepText(const std::string& text, const std::filesystem::path& file);

} // namespace npu::sweep
