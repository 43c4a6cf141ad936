// SPDX-License-Identifier: Apache-2.0
#include "frontier.hpp"

#include <algorithm>
#include <numeric>

namespace npu::dp {

namespace {

/// Bytes moved, weighted per memory, by the open strategy (`open`, plus `added` when given) and the set.
double weightedBandwidth(const Metrics& open, const Metrics* added, const Metrics& set,
                         const CandidateWeights& weights) {
  double total = 0.0;
  for (std::size_t area = 0; area < open.bytes.size(); ++area) {
    double bytes = 0.0;
    for (std::size_t purpose = 0; purpose < open.bytes[area].size(); ++purpose) {
      for (std::size_t direction = 0; direction < open.bytes[area][purpose].size(); ++direction) {
        // The open strategy's bytes are summed first, as they are once the strategy is built.
        const double strategy = added != nullptr
                                    ? open.bytes[area][purpose][direction] + added->bytes[area][purpose][direction]
                                    : open.bytes[area][purpose][direction];
        bytes += strategy + set.bytes[area][purpose][direction];
      }
    }
    total += bytes * weights.bandwidth[area];
  }
  return total;
}

CandidateFigures figures(double bandwidth, double strategyCycles, std::int64_t strategySram, int blockHeight,
                         const StrategySet& set, const CandidateWeights& weights) {
  const double cycles = strategyCycles + set.metrics.cycle(CycleComponent::Total);
  const std::int64_t setSram = std::max(set.maxSramUsed, weights.setSramFloor);
  CandidateFigures result;
  result.values = {bandwidth + cycles * weights.cycles, static_cast<double>(setSram), static_cast<double>(strategySram),
                   weights.blockHeightInFrontier ? static_cast<double>(blockHeight) : 0.0};
  result.sramUsed = std::max(setSram, strategySram);
  result.metric = static_cast<double>(result.sramUsed) * weights.maxSramUsed + bandwidth + cycles * weights.cycles;
  return result;
}

/// Positions ordered by the candidate metric, ties by position.
std::vector<std::size_t> byMetric(std::span<const CandidateFigures> figures, std::span<const std::size_t> positions) {
  std::vector<std::size_t> order(positions.begin(), positions.end());
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return figures[a].metric < figures[b].metric; });
  return order;
}

} // namespace

CandidateWeights CandidateWeights::vela(bool spilling) {
  CandidateWeights weights;
  weights.bandwidth[static_cast<std::size_t>(MemoryArea::Sram)] = 1.0;
  weights.bandwidth[static_cast<std::size_t>(MemoryArea::Dram)] = 10.0;
  weights.bandwidth[static_cast<std::size_t>(MemoryArea::OnChipFlash)] = 2.0;
  weights.bandwidth[static_cast<std::size_t>(MemoryArea::OffChipFlash)] = 20.0;
  weights.cycles = 40.0;
  weights.maxSramUsed = spilling ? 0.0 : 1000.0;
  return weights;
}

CandidateFigures figuresOf(const Candidate& candidate, const CandidateWeights& weights) {
  const Strategy& strategy = *candidate.strategy;
  return figures(weightedBandwidth(strategy.metrics, nullptr, candidate.set->metrics, weights),
                 strategy.metrics.cycle(CycleComponent::Total), strategy.sramUsed, strategy.lastBlockHeight,
                 *candidate.set, weights);
}

CandidateFigures figuresOfExtension(const Candidate& candidate, const Metrics& metrics, std::int64_t sram,
                                    int blockHeight, const CandidateWeights& weights) {
  const Strategy& open = *candidate.strategy;
  return figures(weightedBandwidth(open.metrics, &metrics, candidate.set->metrics, weights),
                 open.metrics.cycle(CycleComponent::Total) + metrics.cycle(CycleComponent::Total), open.sramUsed + sram,
                 blockHeight, *candidate.set, weights);
}

double candidateMetric(const Candidate& candidate, const CandidateWeights& weights) {
  return figuresOf(candidate, weights).metric;
}

std::vector<std::size_t> paretoSelection(std::span<const CandidateFigures> figures, const CandidateWeights& weights) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    if (figures[i].sramUsed <= weights.sramLimit) {
      order.push_back(i);
    }
  }
  if (order.size() <= 1) {
    return order;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return figures[a].values < figures[b].values; });
  std::vector<std::size_t> frontier;
  while (!order.empty()) {
    const std::array<double, 4> best = figures[order.front()].values;
    frontier.push_back(order.front());
    std::erase_if(order, [&](std::size_t i) {
      const auto& value = figures[i].values;
      return !(value[0] < best[0] || value[1] < best[1] || value[2] < best[2] || value[3] < best[3]);
    });
  }
  if (static_cast<int>(frontier.size()) > weights.maxCandidates) {
    frontier = byMetric(figures, frontier);
    frontier.resize(static_cast<std::size_t>(weights.maxCandidates));
  }
  return frontier;
}

Candidates paretoFrontier(Candidates candidates, const CandidateWeights& weights) {
  std::vector<CandidateFigures> figures(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    figures[i] = figuresOf(candidates[i], weights);
  }
  Candidates frontier;
  for (const std::size_t i : paretoSelection(figures, weights)) {
    frontier.push_back(std::move(candidates[i]));
  }
  return frontier;
}

Candidate bestCandidate(std::span<const Candidate> candidates, const CandidateWeights& weights) {
  if (candidates.empty()) {
    return {};
  }
  std::vector<CandidateFigures> figures(candidates.size());
  std::vector<std::size_t> positions(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    figures[i] = figuresOf(candidates[i], weights);
    positions[i] = i;
  }
  return candidates[byMetric(figures, positions).front()];
}

} // namespace npu::dp
