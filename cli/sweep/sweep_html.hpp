// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sweep_table.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace npu::sweep {

/// A point of a trade-off plot: smaller is better on both axes.
struct TradeOffPoint {
  double sram = 0; ///< KiB
  double cycles = 0;
  std::string label;
};

/// The indices of the points no other point beats on both axes (ties kept once: the first in input
/// order), sorted by SRAM then cycles.
[[nodiscard]] std::vector<std::size_t> paretoFront(const std::vector<TradeOffPoint>& points);

/// Per configuration: the cycles summed over the networks and the largest SRAM peak among them, for the
/// configurations that compiled every network.
[[nodiscard]] std::vector<TradeOffPoint> aggregatedPoints(const SweepTable& table);

/// A self-contained page (inline SVG, no scripts): counts and failures, the Pareto front of cycles
/// against SRAM peak over all networks and per network, and how each axis moves cycles and SRAM.
[[nodiscard]] std::string renderSweepHtml(const SweepTable& table);

} // namespace npu::sweep
