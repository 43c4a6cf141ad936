// SPDX-License-Identifier: Apache-2.0
#include "html_report_parts.hpp"

#include "html_page.hpp"

namespace npu::html {

namespace {

std::string cycleDetails(const LayerReport& layer) {
  const auto& performance = layer.performance;
  return "\n" + grouped(figures::layerCycles(layer)) + " cycles, bound by " +
         figures::nameOf(figures::boundOf(performance)) + "\ncompute (NPU) " +
         grouped(performance.cycle(CycleComponent::Npu)) + "\nSRAM access " +
         grouped(performance.cycle(CycleComponent::SramAccess)) + "\nDRAM access " +
         grouped(performance.cycle(CycleComponent::DramAccess)) + "\non-chip flash access " +
         grouped(performance.cycle(CycleComponent::OnChipFlashAccess)) + "\noff-chip flash access " +
         grouped(performance.cycle(CycleComponent::OffChipFlashAccess));
}

/// A memory size in the largest binary unit that keeps it readable: "384 KiB", "1.5 MiB", "4 GiB".
std::string sizeText(std::int64_t bytes) {
  const auto value = static_cast<double>(bytes);
  for (const auto& [unit, scale] : {std::pair{"GiB", 1024.0 * 1024.0 * 1024.0}, std::pair{"MiB", 1024.0 * 1024.0}}) {
    if (value >= scale) {
      const double scaled = value / scale;
      return fixed(scaled, scaled == static_cast<double>(static_cast<std::int64_t>(scaled)) ? 0 : 2) + " " + unit;
    }
  }
  return fixed(value / 1024.0, 0) + " KiB";
}

} // namespace

Bar layerBar(std::size_t index, const LayerReport& layer,
             const std::array<const char*, figures::kBoundCount>& colours) {
  Bar bar;
  const auto segments = figures::boundSegments(layer.performance);
  for (std::size_t b = 0; b < figures::kBoundCount; ++b) {
    bar.segments.push_back({segments[b], colours[b]});
  }
  bar.tooltip = "#" + std::to_string(index) + " " + layer.irType + " " + layer.name + cycleDetails(layer);
  return bar;
}

Bar layerBar(std::size_t index, const LayerReport& layer, const std::string& colour, const std::string& side) {
  return {{{figures::layerCycles(layer), colour}},
          side + " #" + std::to_string(index) + " " + layer.irType + " " + layer.name + cycleDetails(layer)};
}

std::vector<Level> sramLevels(const NetworkReport& report, const std::string& side) {
  const std::string prefix = side.empty() ? "" : side + " ";
  std::vector<Level> levels;
  const auto peak = static_cast<double>(figures::sramPeakBytes(report)) / 1024.0;
  levels.push_back({prefix + "allocated peak " + fixed(peak, 2) + " KiB", peak, side == "B" ? "#8a4b12" : "#1d3f6e"});
  if (report.memory.arenaCacheSize > 0) {
    const auto limit = static_cast<double>(report.memory.arenaCacheSize) / 1024.0;
    levels.push_back({prefix + "limit " + sizeText(report.memory.arenaCacheSize), limit, "#c62828"});
  }
  return levels;
}

std::string stripeText(const Shape4& stripe) {
  return std::to_string(stripe.height) + "x" + std::to_string(stripe.width) + "x" + std::to_string(stripe.depth);
}

std::string weightsText(const ScheduledOperation& op) {
  if (!op.weights || op.weights->encodedBytes == 0) {
    return "-";
  }
  const WeightPlan& plan = *op.weights;
  // Where the NPU reads them from: the buffers when they are copied in, else their permanent home.
  const std::string bytes = grouped(static_cast<double>(plan.encodedBytes)) + " B";
  if (!plan.buffered()) {
    return escape(bytes + " from " + std::string(displayNameOf(plan.storageArea)));
  }
  return escape(bytes + (plan.doubleBuffered() ? ", double-buffered in " : ", buffered in ") +
                std::string(displayNameOf(plan.bufferArea)));
}

} // namespace npu::html
