// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/weight_encoding_cache.hpp"

#include <tbb/collaborative_call_once.h>

#include <algorithm>

namespace npu::scheduling {

namespace {

/// Every field of a block config, flattened, as part of a cache key.
std::vector<std::int32_t> blockKey(const BlockConfig& block) {
  std::vector<std::int32_t> key;
  for (const Shape4& shape : {block.ofmBlock, block.ifmBlock}) {
    key.insert(key.end(), {shape.batch, shape.height, shape.width, shape.depth});
  }
  key.push_back(block.partKernelFirst ? 1 : 0);
  key.push_back(block.accumulatorBits);
  key.insert(key.end(), block.detail.begin(), block.detail.end());
  return key;
}

} // namespace

WeightStreamSummary summarise(const EncodedWeights& encoded, std::span<const int> depthSlices) {
  WeightStreamSummary summary;
  summary.totalBytes = encoded.totalBytes;
  summary.depthSlices.assign(depthSlices.begin(), depthSlices.end());
  for (std::size_t i = 0; i < encoded.slices.size(); ++i) {
    const EncodedWeightSlice& slice = encoded.slices[i];
    summary.sliceBytes.push_back(slice.bytes);
    auto& buffer = summary.doubleBufferBytes[i % 2];
    buffer = std::max(buffer, slice.bytes);
  }
  if (!encoded.slices.empty()) {
    for (const std::int64_t bytes : encoded.slices.front().coreBytes) {
      summary.firstTransferBytes += roundUp(bytes, 16);
    }
  }
  return summary;
}

struct WeightEncodingCache::Entry {
  tbb::collaborative_once_flag encoded;
  std::shared_ptr<const WeightStreamSummary> summary;
};

std::shared_ptr<const WeightStreamSummary> WeightEncodingCache::encode(const Subgraph& subgraph, OperationId id,
                                                                       const BlockConfig& block,
                                                                       std::span<const int> depthSlices) const {
  Key key{id, blockKey(block), std::vector<int>(depthSlices.begin(), depthSlices.end())};
  std::shared_ptr<Entry> entry;
  {
    const std::lock_guard lock(mutex_);
    std::shared_ptr<Entry>& slot = entries_[std::move(key)];
    if (!slot) {
      slot = std::make_shared<Entry>();
    }
    entry = slot;
  }
  // Encoded outside the lock, once: a task asking meanwhile joins the encoder's parallel work and
  // returns its result. When encoding throws, the next task to ask tries again (and throws the same).
  tbb::collaborative_call_once(entry->encoded, [&] {
    const EncodedWeights encoded =
        accelerator_->weights().encode(subgraph, subgraph.operation(id), block, depthSlices, false);
    entry->summary = std::make_shared<const WeightStreamSummary>(summarise(encoded, depthSlices));
  });
  return entry->summary;
}

} // namespace npu::scheduling
