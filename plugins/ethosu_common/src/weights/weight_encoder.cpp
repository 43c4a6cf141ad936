// SPDX-License-Identifier: Apache-2.0
#include "ethosu/weights/weight_encoder.hpp"

#include "ethosu/weights/weight_preparation.hpp"

namespace ethosu::weights {

npu::EncodedWeights EthosUWeightEncoder::encode(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                const npu::BlockConfig& block, std::span<const int> depthSlices,
                                                bool keepStream) const {
  const std::optional<WeightStreamInput> input = prepareWeightStream(subgraph, op);
  if (!input) {
    return {};
  }
  npu::EncodedWeights encoded =
      encodeWeightsAndScales(*input, config_, block.ofmBlock.depth, depthSlices, keepStream, &streams_);
  encoded.originalBytes = subgraph.tensor(op.weights()).byteSize();
  return encoded;
}

} // namespace ethosu::weights
