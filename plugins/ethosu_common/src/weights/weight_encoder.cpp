// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_encoder.hpp"

#include "ethosu/weights/weight_preparation.hpp"

#include <mutex>
#include <vector>

namespace ethosu::weights {
namespace {

constexpr std::size_t kSmallestKeptVolume = std::size_t{256} << 10U;
constexpr std::size_t kMostKeptVolumes = 4;

} // namespace

std::vector<std::int16_t> EthosUWeightEncoder::VolumeBuffers::take() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (free_.empty()) {
    return {};
  }
  std::vector<std::int16_t> buffer = std::move(free_.back());
  free_.pop_back();
  return buffer;
}

void EthosUWeightEncoder::VolumeBuffers::give(std::vector<std::int16_t> buffer) {
  if (buffer.capacity() * sizeof(std::int16_t) < kSmallestKeptVolume) {
    return;
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  if (free_.size() < kMostKeptVolumes) {
    free_.push_back(std::move(buffer));
  }
}

npu::EncodedWeights EthosUWeightEncoder::encode(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                const npu::BlockConfig& block, std::span<const int> depthSlices,
                                                bool keepStream) const {
  std::optional<WeightStreamInput> input = prepareWeightStream(subgraph, op, volumes_.take());
  if (!input) {
    return {};
  }
  npu::EncodedWeights encoded =
      encodeWeightsAndScales(*input, config_, block.ofmBlock.depth, depthSlices, keepStream, &streams_);
  encoded.originalBytes = subgraph.tensor(op.weights()).byteSize();
  volumes_.give(std::move(input->weights.values)); // not on the error paths: those end the compile
  return encoded;
}

} // namespace ethosu::weights
