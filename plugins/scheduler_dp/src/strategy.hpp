// SPDX-License-Identifier: Apache-2.0
#pragma once
// The values the dynamic-programming search combines (Vela 2.1 scheduler.Strategy / StrategySet):
// a strategy is one cascaded pass (a run of passes streamed one way), a strategy set the finished
// cascaded passes of part of the graph with their summed figures. Both are immutable once built and
// persistent: a strategy extended by one pass shares its earlier steps, and a set grown by one strategy
// shares all of the set it grew from but one path, so extending either costs (almost) the same whatever
// the network's depth. That keeps the search about linear in the number of passes (Vela copies its
// dictionaries whole at every step).

#include "npu/plugin/performance.hpp"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace npu::dp {

/// Bandwidth, MACs and cycles of a pass or of several summed (Vela's bws, macs, cycles arrays).
using Metrics = OperationPerformance;

/// How a cascaded pass is streamed (Vela's SchedulingStrategy; names as its pass-breakdown CSV).
enum class StreamingStrategy : std::uint8_t { Unknown, WeightStream, IfmStream };
[[nodiscard]] std::string_view nameOf(StreamingStrategy strategy);

/// The IFM of `pass` is kept as a rolling buffer of `height` rows in fast storage.
struct RollingBuffer {
  int pass = 0;
  int height = 0;
  friend bool operator==(const RollingBuffer&, const RollingBuffer&) = default;
};

/// One pass of a cascade, linked to the steps before it; cascades that begin alike share those steps.
struct CascadeStep {
  CascadeStep() = default;
  CascadeStep(const CascadeStep&) = delete;
  CascadeStep& operator=(const CascadeStep&) = delete;
  /// Unlinks a long chain step by step: a recursive release of thousands of steps would overflow the stack.
  ~CascadeStep();

  int pass = 0;
  int blockConfig = 0;         ///< index into the pass's block config candidates
  int rollingBufferHeight = 0; ///< rows of this pass's IFM kept as a rolling buffer; 0 without one
  int length = 1;              ///< steps up to and including this one
  std::uint64_t digest = 0;    ///< of the passes, block configs and rolling buffers up to this step
  int firstPass = 0;           ///< pass of the cascade's first step
  int firstBlockConfig = 0;
  /// For IFM/OFM overlap: how many OFM rows the first pass has produced once this pass has produced r
  /// OFM rows (index r); empty when the search does not need it.
  std::vector<std::int32_t> firstPassRows;
  std::shared_ptr<const CascadeStep> previous;
};
using CascadeStepPtr = std::shared_ptr<const CascadeStep>;

/// The digest of a step from the digest of the step before it (0 for a cascade's first step).
[[nodiscard]] std::uint64_t stepDigest(std::uint64_t previous, int pass, int blockConfig, int rollingBufferHeight);

struct Strategy {
  StreamingStrategy kind = StreamingStrategy::Unknown;
  CascadeStepPtr lastStep; ///< null for the empty strategy
  int lastBlockHeight = 0; ///< OFM block height of the last pass (for the BwCycMemBlkH frontier)
  Metrics metrics;
  std::int64_t sramUsed = 0;

  [[nodiscard]] bool empty() const { return !lastStep; }
  [[nodiscard]] int length() const { return lastStep ? lastStep->length : 0; }
  [[nodiscard]] int lastPass() const { return lastStep->pass; }
  [[nodiscard]] int firstPass() const { return lastStep->firstPass; }
  /// Passes in execution order.
  [[nodiscard]] std::vector<int> passes() const;
  /// Per pass, in execution order, the index into that pass's block config candidates.
  [[nodiscard]] std::vector<int> blockConfigs() const;
  [[nodiscard]] std::vector<RollingBuffer> rollingBuffers() const;
  /// Vela: Strategy.__eq__.
  [[nodiscard]] bool sameAs(const Strategy& other) const;
};
using StrategyPtr = std::shared_ptr<const Strategy>;

/// A node of the persistent map from last pass to strategy behind StrategySet: a binary trie over the
/// pass index, so a set's shape depends only on its contents, never on the order it was built in.
/// Every node carries a digest of what lies below it, so two sets that agree on a range of passes are
/// recognised without visiting it even when they were built apart.
struct StrategyTrieNode {
  std::shared_ptr<const StrategyTrieNode> low;  ///< passes whose bit of this level is 0
  std::shared_ptr<const StrategyTrieNode> high; ///< ... is 1
  StrategyPtr strategy;                         ///< at the leaves
  std::uint64_t digest = 0;
};
using StrategyTrieNodePtr = std::shared_ptr<const StrategyTrieNode>;

struct StrategySet {
  StrategyTrieNodePtr root; ///< null in the empty set
  int levels = 0;           ///< the trie holds passes below 2^levels
  int size = 0;             ///< strategies in the set
  Metrics metrics;
  std::int64_t maxSramUsed = 0;
  std::int64_t totalSramUsed = 0;

  /// Every strategy, ordered by last pass.
  [[nodiscard]] std::vector<StrategyPtr> strategies() const;
  /// The strategy whose last pass is `lastPass`, or null.
  [[nodiscard]] const Strategy* findByLastPass(int lastPass) const;
};
using StrategySetPtr = std::shared_ptr<const StrategySet>;

/// A strategy under construction beside the finished ones (Vela's (strat, strat_set) pairs).
struct Candidate {
  StrategyPtr strategy;
  StrategySetPtr set;
};
using Candidates = std::vector<Candidate>;

[[nodiscard]] const StrategyPtr& emptyStrategy();
[[nodiscard]] const StrategySetPtr& emptyStrategySet();

/// Vela: StrategySet.clone_add_strategy (the set itself when the strategy is already in it).
[[nodiscard]] StrategySetPtr withStrategy(const StrategySetPtr& set, const StrategyPtr& strategy);
/// `set` grown by a strategy whose last pass it does not hold yet.
[[nodiscard]] StrategySetPtr withNewStrategy(const StrategySetPtr& set, const StrategyPtr& strategy);
/// The union of two sets, or null when they disagree: some pass ends a strategy in both, and the two
/// strategies differ (Vela collate_strats_for_passes; see the .cpp for why last passes suffice).
/// `combination`'s figures are kept and the strategies only `alternative` holds are added to them.
[[nodiscard]] StrategySetPtr joined(const StrategySetPtr& combination, const StrategySetPtr& alternative);

} // namespace npu::dp
