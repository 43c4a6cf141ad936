// SPDX-License-Identifier: Apache-2.0
#pragma once
// Encoded weights asked for again and again while a scheduler searches (every stripe proposal encodes
// its operations' weights for its block config) are encoded once. Thread-safe: TBB tasks share it, and
// a task asking for an encoding another task is computing waits for it (helping with its parallel work)
// instead of encoding it a second time. Encoding is a pure function of its inputs, so the cache never
// changes a result.

#include "npu/plugin/accelerator.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

namespace npu::scheduling {

/// What schedulers need to know of an encoded weight stream (not the bytes themselves).
struct WeightStreamSummary {
  std::int64_t totalBytes = 0;
  std::vector<int> depthSlices;         ///< boundaries the stream was encoded for, e.g. {0, 16, 32}
  std::vector<std::int64_t> sliceBytes; ///< bytes of each depth slice
  /// Largest slice among the even and among the odd slices: the two buffers of double buffering
  /// (Vela: NpuWeightTensor.double_buffer_sizes).
  std::array<std::int64_t, 2> doubleBufferBytes{};
  /// Bytes of the first DMA: the first slice of every core, each padded to 16 (Vela:
  /// estimate_full_op_performance's first transfer).
  std::int64_t firstTransferBytes = 0;

  [[nodiscard]] std::int64_t largestBufferBytes() const { return std::max(doubleBufferBytes[0], doubleBufferBytes[1]); }
  [[nodiscard]] std::int64_t doubleBufferTotal() const { return doubleBufferBytes[0] + doubleBufferBytes[1]; }
};

class WeightEncodingCache {
public:
  explicit WeightEncodingCache(const Accelerator& accelerator) : accelerator_(&accelerator) {}

  /// The summary of `op`'s weights encoded for `block` with the given depth slice boundaries.
  [[nodiscard]] std::shared_ptr<const WeightStreamSummary>
  encode(const Subgraph& subgraph, OperationId id, const BlockConfig& block, std::span<const int> depthSlices) const;

private:
  using Key = std::tuple<OperationId, std::vector<std::int32_t>, std::vector<int>>;
  struct Entry; ///< one encoding, computed once (weight_encoding_cache.cpp)
  const Accelerator* accelerator_;
  mutable std::mutex mutex_;
  mutable std::map<Key, std::shared_ptr<Entry>> entries_;
};

/// Summarises an encoded stream for the given boundaries.
[[nodiscard]] WeightStreamSummary summarise(const EncodedWeights& encoded, std::span<const int> depthSlices);

} // namespace npu::scheduling
