// SPDX-License-Identifier: Apache-2.0
// Pieces both HTML reports (run and compare) build from: layer bars, SRAM reference lines, cell texts.
#pragma once

#include "npu/report/report.hpp"
#include "report_figures.hpp"
#include "svg_chart.hpp"

#include <array>
#include <string>
#include <vector>

namespace npu::html {

/// Colours of the cycle stack, indexed by figures::Bound.
inline constexpr std::array<const char*, figures::kBoundCount> kBoundColours{"#2f6db5", "#53a653", "#b07cc6", "#d9534f",
                                                                             "#999999"};

/// The bar of one layer: its cycles stacked by what bounds them, in `colours` (one per bound), with a
/// tooltip naming the layer and every cycle component.
[[nodiscard]] Bar layerBar(std::size_t index, const LayerReport& layer,
                           const std::array<const char*, figures::kBoundCount>& colours);
/// The same bar in one colour (for side-by-side comparisons).
[[nodiscard]] Bar layerBar(std::size_t index, const LayerReport& layer, const std::string& colour,
                           const std::string& side);
/// The SRAM limit (arena cache size) and the allocated SRAM peak, in KiB, as reference lines.
[[nodiscard]] std::vector<Level> sramLevels(const NetworkReport& report, const std::string& side = "");
/// "HxWxC" of a stripe.
[[nodiscard]] std::string stripeText(const Shape4& stripe);
/// Encoded weight bytes and where they are read from, e.g. "12,345 B, 2 buffers in SRAM"; "-" without.
[[nodiscard]] std::string weightsText(const ScheduledOperation& op);

} // namespace npu::html
