// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/report/report.hpp"

#include <optional>
#include <string>
#include <vector>

namespace npu {

/// One model compiled by two pipelines. A side that could not compile it (the model does not fit, is
/// malformed, ...) keeps the reason instead of a report; such a model is listed but not compared.
struct ComparedModel {
  std::string model;
  NetworkReport a;
  NetworkReport b;
  std::string failureA{}; ///< empty when A compiled the model
  std::string failureB{};
  [[nodiscard]] bool compared() const { return failureA.empty() && failureB.empty(); }
};

/// An A/B comparison of two pipelines over one or more models.
struct Comparison {
  std::string labelA; ///< e.g. the pipeline's name or file stem
  std::string labelB;
  std::vector<ComparedModel> models;
};

/// Two layers that ran the same operation, or a layer only one side has.
struct LayerPair {
  std::optional<std::size_t> a; ///< index into ComparedModel::a.layers
  std::optional<std::size_t> b;
};

/// Pairs the layers of both sides: by (subgraph, operation) when both schedules ran the same lowered
/// graph, otherwise by operation name; unmatched layers keep their order.
[[nodiscard]] NPU_API std::vector<LayerPair> pairLayers(const ComparedModel& model);

/// "A", "B" or "tie" for a figure where lower is better.
[[nodiscard]] NPU_API std::string winner(double a, double b);

/// Network totals of every model side by side, deltas and winners; then per-layer tables.
[[nodiscard]] NPU_API std::string renderComparisonText(const Comparison& comparison);
/// One row per model: totals of A and B, deltas, winners.
[[nodiscard]] NPU_API std::string renderComparisonSummaryCsv(const Comparison& comparison);
/// One row per layer pair of one model.
[[nodiscard]] NPU_API std::string renderComparisonLayersCsv(const Comparison& comparison, const ComparedModel& model);
/// A self-contained HTML page (inline SVG, no external resources): summary table, and per model the
/// cycles per layer of A and B and the SRAM use over time of A and B.
[[nodiscard]] NPU_API std::string renderComparisonHtml(const Comparison& comparison);
/// A self-contained HTML page for one run: totals, per-layer cycle bars, SRAM over time.
[[nodiscard]] NPU_API std::string renderHtmlReport(const NetworkReport& report);

} // namespace npu
