// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Ethos-U implementation of npu::WeightEncoder: encodes an operation's weights, scales and biases
// into the stream Vela 3.10 would write for the same block config and depth slicing, so that sizes
// (and bytes) are exact. Accepted operations: see weight_preparation.hpp.

#include "ethosu/weights/weight_stream.hpp"

#include "npu/plugin/accelerator.hpp"

#include <cstdint>
#include <mutex>
#include <vector>

namespace ethosu::weights {

/// Const and safe to call from many threads at once. It remembers the streams it encodes (by their exact
/// weights), so that the schedulers' sizing and the code generator's writing of the same streams search
/// the codec's parameters once; results are the same whatever was asked before.
class EthosUWeightEncoder final : public npu::WeightEncoder {
public:
  explicit EthosUWeightEncoder(const WeightEncoderConfig& config) : config_(config) {}

  /// Uses the OFM block depth of `block` (its partKernelFirst flag is not used: the traversal follows
  /// from the weights, as in the reference). EncodedWeights::originalBytes is the size of the weight
  /// tensor as given; scaleBytes counts the scale/bias bytes with their padding to 16 bytes.
  [[nodiscard]] npu::EncodedWeights encode(const npu::Subgraph& subgraph, const npu::Operation& op,
                                           const npu::BlockConfig& block, std::span<const int> depthSlices,
                                           bool keepStream) const override;

  [[nodiscard]] const WeightEncoderConfig& config() const { return config_; }

  /// Frees the plans kept of the streams encoded so far (later encodings give the same results, only
  /// slower), and the volume buffers kept for reuse: for a code generator that has written every
  /// stream, so that a large network does not keep them while its model is written. Returns the bytes
  /// the plans and their keys took.
  std::size_t releaseCache() const {
    volumes_.clear();
    return streams_.clear();
  }
  /// Whether the plans kept are of only part of the network (StreamCache::overflowed).
  [[nodiscard]] bool cacheOverflowed() const { return streams_.overflowed(); }

private:
  /// Buffers of prepared weight volumes, handed from one encoding to the next. A volume of megabytes
  /// (a classifier's fully connected weights) is prepared for every block depth and slicing the
  /// schedulers ask about; in a fresh buffer each time, its page faults cost more than its preparation.
  /// Only large buffers are kept, at most a few (one per encoding in flight is enough): small ones come
  /// from the allocator's free lists anyway.
  class VolumeBuffers {
  public:
    std::vector<std::int16_t> take();
    void give(std::vector<std::int16_t> buffer);
    void clear() {
      const std::lock_guard<std::mutex> lock(mutex_);
      free_ = {};
    }

  private:
    std::mutex mutex_;
    std::vector<std::vector<std::int16_t>> free_;
  };

  WeightEncoderConfig config_;
  mutable StreamCache streams_;
  mutable VolumeBuffers volumes_;
};

} // namespace ethosu::weights
