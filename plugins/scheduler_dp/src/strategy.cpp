#include "strategy.hpp"

#include <algorithm>
#include <numeric>

namespace npu::dp {

namespace {

double weightedBandwidth(const Metrics& a, const Metrics& b, const CandidateWeights& weights) {
  double total = 0.0;
  for (std::size_t area = 0; area < a.bytes.size(); ++area) {
    double bytes = 0.0;
    for (std::size_t purpose = 0; purpose < a.bytes[area].size(); ++purpose) {
      for (std::size_t direction = 0; direction < a.bytes[area][purpose].size(); ++direction) {
        bytes += a.bytes[area][purpose][direction] + b.bytes[area][purpose][direction];
      }
    }
    total += bytes * weights.bandwidth[area];
  }
  return total;
}

double totalCycles(const Candidate& candidate) {
  return candidate.strategy->metrics.cycle(CycleComponent::Total) + candidate.set->metrics.cycle(CycleComponent::Total);
}

/// Vela: DynamicProgrammingScheduler.pareto_metric.
std::array<double, 4> paretoValues(const Candidate& candidate, const CandidateWeights& weights) {
  const Strategy& strategy = *candidate.strategy;
  const StrategySet& set = *candidate.set;
  return {weightedBandwidth(strategy.metrics, set.metrics, weights) + totalCycles(candidate) * weights.cycles,
          static_cast<double>(set.maxSramUsed), static_cast<double>(strategy.sramUsed),
          weights.blockHeightInFrontier ? static_cast<double>(strategy.lastBlockHeight) : 0.0};
}

/// Indices of `candidates` ordered by the candidate metric, ties by position.
std::vector<std::size_t> byCandidateMetric(std::span<const Candidate> candidates, const CandidateWeights& weights) {
  std::vector<double> metric(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    metric[i] = candidateMetric(candidates[i], weights);
  }
  std::vector<std::size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return metric[a] < metric[b]; });
  return order;
}

} // namespace

std::string_view nameOf(StreamingStrategy strategy) {
  switch (strategy) {
  case StreamingStrategy::WeightStream:
    return "WeightStream";
  case StreamingStrategy::IfmStream:
    return "IfmStream";
  case StreamingStrategy::Unknown:
    break;
  }
  return "Unknown";
}

bool Strategy::sameAs(const Strategy& other) const {
  return kind == other.kind && passes == other.passes && blockConfigs == other.blockConfigs &&
         rollingBuffers == other.rollingBuffers && sramUsed == other.sramUsed && metrics.macs == other.metrics.macs &&
         metrics.cycles == other.metrics.cycles && metrics.bytes == other.metrics.bytes;
}

void StrategySet::updateStatistics() {
  metrics = Metrics{};
  maxSramUsed = 0;
  totalSramUsed = 0;
  for (const auto& [last, strategy] : strategies) {
    metrics += strategy->metrics;
    maxSramUsed = std::max(maxSramUsed, strategy->sramUsed);
    totalSramUsed += strategy->sramUsed;
  }
}

const StrategyPtr& emptyStrategy() {
  static const StrategyPtr empty = std::make_shared<const Strategy>();
  return empty;
}

const StrategySetPtr& emptyStrategySet() {
  static const StrategySetPtr empty = std::make_shared<const StrategySet>();
  return empty;
}

StrategySetPtr withStrategy(const StrategySetPtr& set, const StrategyPtr& strategy) {
  const int key = strategy->passes.back();
  if (set->strategies.contains(key)) {
    return set;
  }
  auto result = std::make_shared<StrategySet>(*set);
  result->strategies.emplace(key, strategy);
  result->metrics += strategy->metrics;
  result->maxSramUsed = std::max(result->maxSramUsed, strategy->sramUsed);
  result->totalSramUsed += strategy->sramUsed;
  return result;
}

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

double candidateMetric(const Candidate& candidate, const CandidateWeights& weights) {
  const auto maxSram = static_cast<double>(std::max(candidate.set->maxSramUsed, candidate.strategy->sramUsed));
  return maxSram * weights.maxSramUsed +
         weightedBandwidth(candidate.strategy->metrics, candidate.set->metrics, weights) +
         totalCycles(candidate) * weights.cycles;
}

Candidates paretoFrontier(Candidates candidates, const CandidateWeights& weights) {
  std::erase_if(candidates, [&](const Candidate& candidate) {
    return std::max(candidate.strategy->sramUsed, candidate.set->maxSramUsed) > weights.sramLimit;
  });
  if (candidates.size() <= 1) {
    return candidates;
  }
  std::vector<std::array<double, 4>> values(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    values[i] = paretoValues(candidates[i], weights);
  }
  std::vector<std::size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });

  Candidates frontier;
  while (!order.empty()) {
    const std::array<double, 4> best = values[order.front()];
    frontier.push_back(candidates[order.front()]);
    std::erase_if(order, [&](std::size_t i) {
      const auto& value = values[i];
      return !(value[0] < best[0] || value[1] < best[1] || value[2] < best[2] || value[3] < best[3]);
    });
  }
  if (static_cast<int>(frontier.size()) > weights.maxCandidates) {
    const auto kept = byCandidateMetric(frontier, weights);
    Candidates capped;
    for (std::size_t i = 0; i < static_cast<std::size_t>(weights.maxCandidates); ++i) {
      capped.push_back(frontier[kept[i]]);
    }
    frontier = std::move(capped);
  }
  return frontier;
}

Candidate bestCandidate(std::span<const Candidate> candidates, const CandidateWeights& weights) {
  if (candidates.empty()) {
    return {};
  }
  if (candidates.size() == 1) {
    return candidates.front();
  }
  return candidates[byCandidateMetric(candidates, weights).front()];
}

} // namespace npu::dp
