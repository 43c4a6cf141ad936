// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Ethos-U implementation of npu::WeightEncoder: encodes an operation's weights, scales and biases
// into the stream Vela 3.10 would write for the same block config and depth slicing, so that sizes
// (and bytes) are exact. Accepted operations: see weight_preparation.hpp.

#include "ethosu/weights/weight_stream.hpp"

#include "npu/plugin/accelerator.hpp"

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
  /// slower): for a code generator that has written every stream, so that a large network does not keep
  /// them while its model is written. Returns the bytes the plans and their keys took.
  std::size_t releaseCache() const { return streams_.clear(); }
  /// Whether the plans kept are of only part of the network (StreamCache::overflowed).
  [[nodiscard]] bool cacheOverflowed() const { return streams_.overflowed(); }

private:
  WeightEncoderConfig config_;
  mutable StreamCache streams_;
};

} // namespace ethosu::weights
