// SPDX-License-Identifier: Apache-2.0
#pragma once
// An accelerator that answers every question as the wrapped one does, except which block config an
// operation runs with: among the accelerator's own valid candidates it picks the one the accelerator's
// cost model estimates fastest (instead of the accelerator's heuristic). Running Vela's cascade
// scheduler against it gives the cascade pipeline with costed block configs, with no change to the
// cascade scheduler itself; the block configs end up in the schedule, which the framework then judges
// and generates code for with the real accelerator.

#include "npu/plugin/accelerator.hpp"

#include <array>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace npu::search {

/// What a block config is judged by.
enum class BlockObjective : std::uint8_t {
  /// The cost model's total cycles with weights read from where they are stored (compute, feature-map
  /// and weight traffic including re-fetches).
  StoredWeights,
  /// The same with weights copied into the fast storage first (as the cascade scheduler buffers them).
  BufferedWeights,
  /// Compute cycles alone.
  Compute,
};

/// How an operation's block config is chosen: the `rank`-th cheapest (0: the cheapest) under the objective.
/// Ranks beyond the cheapest give the per-operation improvement round other choices to pick from.
struct BlockChoice {
  BlockObjective objective = BlockObjective::StoredWeights;
  int rank = 0;
  friend auto operator<=>(const BlockChoice&, const BlockChoice&) = default;
};

/// The choice for an operation; nullopt: the accelerator's own.
using ObjectiveOf = std::function<std::optional<BlockChoice>(const Operation&)>;

/// Block configs ranked by cost for one question (operation, shapes, objective), remembered: the
/// cascade scheduler asks the same questions for every stripe proposal, and every candidate of a
/// region asks them again. Thread-safe; ranking is a pure function, so sharing never changes a result.
class BlockRankingCache {
public:
  using Ranking = std::vector<BlockConfig>;
  /// The ranking for the question, made by `rank` the first time it is asked.
  [[nodiscard]] std::shared_ptr<const Ranking> get(const Operation& op, const OperationShapes& shapes,
                                                   BlockObjective objective,
                                                   const std::function<Ranking()>& rank) const;

private:
  using Key = std::pair<const Operation*, std::array<int, 14>>;
  mutable std::mutex mutex_;
  mutable std::map<Key, std::shared_ptr<const Ranking>> entries_;
};

/// Chooses block configs by cost. The accelerator's own choice is judged first and kept on ties, so a
/// config is replaced only by one estimated strictly faster (ties between others: the earlier candidate).
class CostedBlockConfigs final : public BlockConfigSelector {
public:
  CostedBlockConfigs(const Accelerator& base, ObjectiveOf objectiveOf,
                     std::shared_ptr<const BlockRankingCache> cache = nullptr)
      : base_(base), objectiveOf_(std::move(objectiveOf)),
        cache_(cache ? std::move(cache) : std::make_shared<const BlockRankingCache>()) {}

  [[nodiscard]] std::optional<BlockConfig> choose(const Subgraph& subgraph, const Operation& op,
                                                  const OperationShapes& shapes) const override;
  [[nodiscard]] std::vector<BlockConfig> candidates(const Subgraph& subgraph, const Operation& op,
                                                    const OperationShapes& shapes) const override {
    return base_.blockConfigs().candidates(subgraph, op, shapes);
  }
  [[nodiscard]] Shape4 requiredIfmArea(const Subgraph& subgraph, const Operation& op,
                                       const Shape4& ofmArea) const override {
    return base_.blockConfigs().requiredIfmArea(subgraph, op, ofmArea);
  }

  /// The estimated cycles of `op` on `shapes` with `block` under the objective.
  [[nodiscard]] double cost(const Subgraph& subgraph, const Operation& op, const OperationShapes& shapes,
                            const BlockConfig& block, BlockObjective objective) const;

private:
  [[nodiscard]] BlockRankingCache::Ranking rank(const Subgraph& subgraph, const Operation& op,
                                                const OperationShapes& shapes, const BlockConfig& own,
                                                BlockObjective objective) const;

  const Accelerator& base_;
  ObjectiveOf objectiveOf_;
  std::shared_ptr<const BlockRankingCache> cache_;
};

/// `base` with its block configs chosen by CostedBlockConfigs, by one objective or one per operation.
class CostedAccelerator final : public Accelerator {
public:
  CostedAccelerator(const Accelerator& base, ObjectiveOf objectiveOf,
                    std::shared_ptr<const BlockRankingCache> cache = nullptr)
      : base_(base), blocks_(base, std::move(objectiveOf), std::move(cache)) {}
  CostedAccelerator(const Accelerator& base, BlockChoice choice,
                    std::shared_ptr<const BlockRankingCache> cache = nullptr)
      : CostedAccelerator(
            base, [choice](const Operation&) { return std::optional<BlockChoice>(choice); }, std::move(cache)) {}

  [[nodiscard]] const AcceleratorInfo& info() const override { return base_.info(); }
  [[nodiscard]] const MemorySystem& memory() const override { return base_.memory(); }
  [[nodiscard]] const OperatorSupport& support() const override { return base_.support(); }
  [[nodiscard]] const TensorLayout& layout() const override { return base_.layout(); }
  [[nodiscard]] const BlockConfigSelector& blockConfigs() const override { return blocks_; }
  [[nodiscard]] const WeightEncoder& weights() const override { return base_.weights(); }
  [[nodiscard]] const CostModel& costModel() const override { return base_.costModel(); }

private:
  const Accelerator& base_;
  CostedBlockConfigs blocks_;
};

} // namespace npu::search
