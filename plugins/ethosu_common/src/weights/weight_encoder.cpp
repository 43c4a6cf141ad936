// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_encoder.hpp"

#include "ethosu/weights/weight_preparation.hpp"

#include <mutex>
#include <vector>

namespace ethosu::weights {
namespace {

/// Buffers of prepared weight volumes, handed from one encoding to the next. A volume of megabytes
/// (a classifier's fully connected weights) is prepared for every block depth and slicing the
/// schedulers ask about; in a fresh buffer each time, its page faults cost more than its preparation.
/// Only large buffers are kept, at most a few (one per encoding in flight is enough): small ones come
/// from the allocator's free lists anyway.
class VolumeBuffers {
public:
  std::vector<std::int16_t> take() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) {
      return {};
    }
    std::vector<std::int16_t> buffer = std::move(free_.back());
    free_.pop_back();
    return buffer;
  }
  void give(std::vector<std::int16_t> buffer) {
    if (buffer.capacity() * sizeof(std::int16_t) < kSmallestKept) {
      return;
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kMostKept) {
      free_.push_back(std::move(buffer));
    }
  }

private:
  static constexpr std::size_t kSmallestKept = std::size_t{256} << 10U;
  static constexpr std::size_t kMostKept = 4;
  std::mutex mutex_;
  std::vector<std::vector<std::int16_t>> free_;
};

VolumeBuffers& volumeBuffers() {
  static VolumeBuffers buffers;
  return buffers;
}

} // namespace

npu::EncodedWeights EthosUWeightEncoder::encode(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                const npu::BlockConfig& block, std::span<const int> depthSlices,
                                                bool keepStream) const {
  std::optional<WeightStreamInput> input = prepareWeightStream(subgraph, op, volumeBuffers().take());
  if (!input) {
    return {};
  }
  npu::EncodedWeights encoded =
      encodeWeightsAndScales(*input, config_, block.ofmBlock.depth, depthSlices, keepStream, &streams_);
  encoded.originalBytes = subgraph.tensor(op.weights()).byteSize();
  volumeBuffers().give(std::move(input->weights.values)); // not on the error paths: those end the compile
  return encoded;
}

} // namespace ethosu::weights
