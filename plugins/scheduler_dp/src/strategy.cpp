// SPDX-License-Identifier: Apache-2.0
#include "strategy.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace npu::dp {

namespace {

/// Releases a chain of nodes linked through `link` without recursion: each node whose last owner is
/// `next` loses its link before it goes.
template <typename Node, typename Link>
void releaseChain(std::shared_ptr<const Node> next, Link link) {
  while (next && next.use_count() == 1) {
    // The nodes were made non-const (std::make_shared<Node>), so taking the link of the last owner is
    // defined; no one else can see the node any more.
    auto after = std::move(const_cast<Node&>(*next).*link);
    next = std::move(after);
  }
}

/// SplitMix64's finaliser over a running digest and one more value.
std::uint64_t mix(std::uint64_t digest, std::uint64_t value) {
  std::uint64_t z = digest ^ (value + 0x9e3779b97f4a7c15ULL + (digest << 6) + (digest >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t mixDouble(std::uint64_t digest, double value) {
  // sameAs compares with ==, under which -0.0 and 0.0 are equal.
  return mix(digest, std::bit_cast<std::uint64_t>(value == 0.0 ? 0.0 : value));
}

/// A digest of everything Strategy::sameAs compares.
std::uint64_t strategyDigest(const Strategy& strategy) {
  std::uint64_t digest =
      mix(strategy.lastStep ? strategy.lastStep->digest : 0, static_cast<std::uint64_t>(strategy.kind));
  digest = mix(digest, static_cast<std::uint64_t>(strategy.sramUsed));
  digest = mix(digest, static_cast<std::uint64_t>(strategy.metrics.macs));
  for (const double cycles : strategy.metrics.cycles) {
    digest = mixDouble(digest, cycles);
  }
  for (const auto& area : strategy.metrics.bytes) {
    for (const auto& purpose : area) {
      for (const double bytes : purpose) {
        digest = mixDouble(digest, bytes);
      }
    }
  }
  return digest;
}

StrategyTrieNodePtr internalNode(StrategyTrieNodePtr low, StrategyTrieNodePtr high) {
  auto node = std::make_shared<StrategyTrieNode>();
  node->digest = mix(mix(0x5bd1e995ULL, low ? low->digest : 0), high ? high->digest : 0);
  node->low = std::move(low);
  node->high = std::move(high);
  return node;
}

/// `node` (a trie of `levels` levels) with `strategy` at pass `key`.
StrategyTrieNodePtr inserted(const StrategyTrieNodePtr& node, int levels, int key, const StrategyPtr& strategy) {
  if (levels == 0) {
    auto leaf = std::make_shared<StrategyTrieNode>();
    leaf->strategy = strategy;
    leaf->digest = strategyDigest(*strategy);
    return leaf;
  }
  const bool high = ((key >> (levels - 1)) & 1) != 0;
  const StrategyTrieNodePtr low = node ? node->low : nullptr;
  const StrategyTrieNodePtr upper = node ? node->high : nullptr;
  return high ? internalNode(low, inserted(upper, levels - 1, key, strategy))
              : internalNode(inserted(low, levels - 1, key, strategy), upper);
}

void collectStrategies(const StrategyTrieNode* node, std::vector<StrategyPtr>& strategies) {
  if (node == nullptr) {
    return;
  }
  if (node->strategy) {
    strategies.push_back(node->strategy);
    return;
  }
  collectStrategies(node->low.get(), strategies);
  collectStrategies(node->high.get(), strategies);
}

struct Union {
  bool conflict = false;
  std::vector<StrategyPtr> added; ///< strategies only the second trie holds, by last pass
};

/// The union of two tries of `levels` levels. Ranges where both hold the same strategies (equal
/// digests) or where one holds nothing are taken whole, so the cost follows the passes on which the two
/// differ. Equal 64-bit digests of different contents would merge two sets that disagree; the chance is
/// about one in 2^64 per comparison, and leaves are compared in full.
StrategyTrieNodePtr unite(const StrategyTrieNodePtr& first, const StrategyTrieNodePtr& second, int levels,
                          Union& join) {
  if (!second || first == second) {
    return first;
  }
  if (!first) {
    collectStrategies(second.get(), join.added);
    return second;
  }
  if (levels == 0) {
    if (first->strategy != second->strategy && !first->strategy->sameAs(*second->strategy)) {
      join.conflict = true;
    }
    return first;
  }
  if (first->digest == second->digest) {
    return first;
  }
  StrategyTrieNodePtr low = unite(first->low, second->low, levels - 1, join);
  if (join.conflict) {
    return first;
  }
  StrategyTrieNodePtr high = unite(first->high, second->high, levels - 1, join);
  if (join.conflict || (low == first->low && high == first->high)) {
    return first;
  }
  return internalNode(std::move(low), std::move(high));
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

CascadeStep::~CascadeStep() {
  releaseChain(std::move(previous), &CascadeStep::previous);
}

std::vector<int> Strategy::passes() const {
  std::vector<int> result(static_cast<std::size_t>(length()));
  auto slot = result.rbegin();
  for (const CascadeStep* step = lastStep.get(); step != nullptr; step = step->previous.get()) {
    *slot++ = step->pass;
  }
  return result;
}

std::vector<int> Strategy::blockConfigs() const {
  std::vector<int> result(static_cast<std::size_t>(length()));
  auto slot = result.rbegin();
  for (const CascadeStep* step = lastStep.get(); step != nullptr; step = step->previous.get()) {
    *slot++ = step->blockConfig;
  }
  return result;
}

std::vector<RollingBuffer> Strategy::rollingBuffers() const {
  std::vector<RollingBuffer> result;
  for (const CascadeStep* step = lastStep.get(); step != nullptr; step = step->previous.get()) {
    if (step->rollingBufferHeight > 0) {
      result.push_back({step->pass, step->rollingBufferHeight});
    }
  }
  std::reverse(result.begin(), result.end());
  return result;
}

bool Strategy::sameAs(const Strategy& other) const {
  if (kind != other.kind || length() != other.length() || sramUsed != other.sramUsed ||
      metrics.macs != other.metrics.macs || metrics.cycles != other.metrics.cycles ||
      metrics.bytes != other.metrics.bytes) {
    return false;
  }
  // Shared steps are equal steps, so the walk stops where the two cascades meet.
  const CascadeStep* a = lastStep.get();
  const CascadeStep* b = other.lastStep.get();
  for (; a != b; a = a->previous.get(), b = b->previous.get()) {
    if (a->pass != b->pass || a->blockConfig != b->blockConfig || a->rollingBufferHeight != b->rollingBufferHeight) {
      return false;
    }
  }
  return true;
}

std::uint64_t stepDigest(std::uint64_t previous, int pass, int blockConfig, int rollingBufferHeight) {
  std::uint64_t digest = mix(previous, static_cast<std::uint64_t>(static_cast<std::uint32_t>(pass)));
  digest = mix(digest, static_cast<std::uint64_t>(static_cast<std::uint32_t>(blockConfig)));
  return mix(digest, static_cast<std::uint64_t>(static_cast<std::uint32_t>(rollingBufferHeight)));
}

std::vector<StrategyPtr> StrategySet::strategies() const {
  std::vector<StrategyPtr> result;
  result.reserve(static_cast<std::size_t>(size));
  collectStrategies(root.get(), result);
  return result;
}

const Strategy* StrategySet::findByLastPass(int lastPass) const {
  if (lastPass < 0 || lastPass >= (std::int64_t{1} << levels)) {
    return nullptr;
  }
  const StrategyTrieNode* node = root.get();
  for (int level = levels - 1; node != nullptr && level >= 0; --level) {
    node = (((lastPass >> level) & 1) != 0 ? node->high : node->low).get();
  }
  return node == nullptr ? nullptr : node->strategy.get();
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
  if (set->findByLastPass(strategy->lastPass()) != nullptr) {
    return set;
  }
  return withNewStrategy(set, strategy);
}

StrategySetPtr withNewStrategy(const StrategySetPtr& set, const StrategyPtr& strategy) {
  const int key = strategy->lastPass();
  auto result = std::make_shared<StrategySet>();
  result->root = set->root;
  result->levels = set->levels;
  while (key >= (std::int64_t{1} << result->levels)) {
    result->root = internalNode(result->root, nullptr); // the trie grows upwards; existing passes stay low
    ++result->levels;
  }
  result->root = inserted(result->root, result->levels, key, strategy);
  result->size = set->size + 1;
  result->metrics = set->metrics;
  result->metrics += strategy->metrics;
  result->maxSramUsed = std::max(set->maxSramUsed, strategy->sramUsed);
  result->totalSramUsed = set->totalSramUsed + strategy->sramUsed;
  return result;
}

// Why comparing the strategies that end on the same pass is enough: every set the search builds covers
// a set of passes closed under predecessors, each pass once, and a pass inside a cascade has a single
// successor, its next pass in the cascade. So if two sets cover a pass with different strategies, follow
// the cascade of either from there: it stays within what both sets cover, and at the latest where it
// ends, the two sets hold different strategies ending on one pass. Vela checks every pass of one set
// against the other; the answer is the same.
StrategySetPtr joined(const StrategySetPtr& combination, const StrategySetPtr& alternative) {
  if (combination->size == 0) {
    return alternative;
  }
  // Lift the shorter trie so both split on the same bits.
  StrategyTrieNodePtr first = combination->root;
  StrategyTrieNodePtr second = alternative->root;
  const int levels = std::max(combination->levels, alternative->levels);
  for (int level = combination->levels; level < levels; ++level) {
    first = internalNode(first, nullptr);
  }
  for (int level = alternative->levels; level < levels; ++level) {
    second = internalNode(second, nullptr);
  }
  Union join;
  const StrategyTrieNodePtr root = unite(first, second, levels, join);
  if (join.conflict) {
    return nullptr;
  }
  if (join.added.empty()) {
    return combination;
  }
  auto result = std::make_shared<StrategySet>();
  result->root = root;
  result->levels = levels;
  result->size = combination->size + static_cast<int>(join.added.size());
  result->metrics = combination->metrics;
  result->maxSramUsed = combination->maxSramUsed;
  result->totalSramUsed = combination->totalSramUsed;
  for (const StrategyPtr& strategy : join.added) {
    result->metrics += strategy->metrics;
    result->maxSramUsed = std::max(result->maxSramUsed, strategy->sramUsed);
    result->totalSramUsed += strategy->sramUsed;
  }
  return result;
}

} // namespace npu::dp
