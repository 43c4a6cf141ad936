// SPDX-License-Identifier: Apache-2.0
#pragma once
// Turns the strategies the search chose into the framework's Schedule (Vela 2.1
// DynamicProgrammingScheduler.apply_result, move_scales_to_fast_storage and
// use_fast_storage_for_feature_maps): cascaded passes in dependency order, block configs, weights
// re-encoded for the chosen blocks, rolling buffers and weight buffers in fast storage, feature maps
// between cascaded passes moved into fast storage while they fit, and every buffer with its live range.

#include "dp_options.hpp"
#include "pass_evaluator.hpp"
#include "pass_graph.hpp"
#include "strategy.hpp"

#include "npu/schedule/schedule.hpp"

#include <string>

namespace npu::dp {

/// The cascaded passes of a strategy set in the order Vela 2.1 runs them: a depth-first walk from the
/// passes nobody reads, each cascaded pass after the ones it reads from.
[[nodiscard]] std::vector<StrategyPtr> executionOrder(const PassGraph& graph, const StrategySet& set);

/// `progress`, when given, advances one step per pass whose weights are encoded.
[[nodiscard]] Schedule buildSchedule(const Graph& ir, const PassGraph& graph, const PassEvaluator& evaluator,
                                     const StrategySet& set, const DpOptions& options, std::int64_t sramLimit,
                                     const std::string& label, Progress* progress = nullptr);

} // namespace npu::dp
