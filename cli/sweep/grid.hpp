// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sweep_spec.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace npu::sweep {

/// One accelerator/pipeline configuration of the grid: a value of every axis.
struct Configuration {
  std::vector<std::size_t> valueIndices; ///< per axis, in axis order
  std::vector<Setting> settings;         ///< the base settings, then each axis value's, in axis order
};

/// The grid in its canonical order: the first axis varies slowest, the last fastest. No axes: one
/// configuration (the base pipeline).
[[nodiscard]] std::vector<Configuration> expandConfigurations(const SweepSpec& spec);

/// The network files, absolute, in the order the entries name them (a glob's matches sorted), each once.
/// An entry that names no existing file is a Config error at its line.
[[nodiscard]] std::vector<std::filesystem::path> expandNetworks(const SweepSpec& spec);

/// How a network is named in tables: its path relative to the sweep file's folder when it is inside
/// that folder, else its absolute path.
[[nodiscard]] std::string networkLabel(const SweepSpec& spec, const std::filesystem::path& network);

/// A deterministic slice of the points: point i belongs to shard i mod count.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
  [[nodiscard]] bool contains(std::size_t point) const { return point % count == index; }
};

/// Reads "I/N" (0 <= I < N); anything else is a Usage error.
[[nodiscard]] Shard parseShard(const std::string& text);

} // namespace npu::sweep
