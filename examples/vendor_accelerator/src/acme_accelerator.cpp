// SPDX-License-Identifier: Apache-2.0
#include "acme_accelerator.hpp"

#include <algorithm>

namespace acme {

Accelerator::Accelerator(const Variant& variant, double clockHz, std::int64_t sramBytes)
    : costModel_(variant, memory_) {
  info_.variant = std::string(variant.name);
  info_.displayName = std::string(variant.displayName);
  info_.macsPerCycle = variant.macsPerCycle;
  info_.cores = 1;
  info_.ofmMicroBlock = npu::Shape4{1, 1, 1, 16};
  info_.ifmMicroBlock = npu::Shape4{1, 1, 1, 16};
  memory_.systemName = "Acme_Reference_Board";
  memory_.memoryMode = "Sram_And_Flash";
  memory_.coreClockHz = clockHz;
  memory_.areas[static_cast<std::size_t>(npu::MemoryArea::Sram)] =
      npu::MemoryProperties{true, 1.0, variant.sramBytesPerCycle, variant.sramLatency, variant.sramLatency, 32};
  memory_.areas[static_cast<std::size_t>(npu::MemoryArea::OffChipFlash)] =
      npu::MemoryProperties{true, 1.0, variant.flashBytesPerCycle, variant.flashLatency, variant.flashLatency, 64};
  memory_.constantArea = npu::MemoryArea::OffChipFlash;
  memory_.featureMapArea = npu::MemoryArea::Sram;
  memory_.fastStorageArea = npu::MemoryArea::Sram;
  memory_.arenaCacheSize = sramBytes;
  memory_.allocationAlignment = 16;
}

std::int64_t Layout::storageBytes(const npu::Shape4& shape, npu::DataType type, npu::TensorFormat) const {
  return npu::roundUp(shape.elements() * npu::bytesOf(type), 16);
}

npu::Shape4 Blocks::requiredIfmArea(const npu::Subgraph&, const npu::Operation& op, const npu::Shape4& ofmArea) const {
  const npu::Kernel kernel = op.kernel.value_or(npu::Kernel{});
  return ofmArea.withHW((ofmArea.height - 1) * kernel.strideY + kernel.areaHeight(),
                        (ofmArea.width - 1) * kernel.strideX + kernel.areaWidth());
}

std::vector<npu::BlockConfig> Blocks::candidates(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                 const npu::OperationShapes& shapes) const {
  std::vector<npu::BlockConfig> result;
  for (const npu::Shape4& block : kOfmBlocks) {
    npu::BlockConfig config;
    config.ofmBlock = npu::elementwiseMin(block, shapes.ofm);
    config.ifmBlock = requiredIfmArea(subgraph, op, config.ofmBlock).withDepth(std::min(shapes.ifm.depth, 32));
    if (std::find(result.begin(), result.end(), config) == result.end()) {
      result.push_back(config);
    }
  }
  return result;
}

std::optional<npu::BlockConfig> Blocks::choose(const npu::Subgraph& subgraph, const npu::Operation& op,
                                               const npu::OperationShapes& shapes) const {
  // Fewest blocks wins (each block costs a fixed start-up time); ties keep the table order.
  const auto all = candidates(subgraph, op, shapes);
  const auto blocks = [&](const npu::BlockConfig& config) { return npu::divRoundUp(shapes.ofm, config.ofmBlock).elements(); };
  return *std::min_element(all.begin(), all.end(),
                           [&](const auto& a, const auto& b) { return blocks(a) < blocks(b); });
}

npu::EncodedWeights Weights::encode(const npu::Subgraph& subgraph, const npu::Operation& op, const npu::BlockConfig&,
                                    std::span<const int> depthSlices, bool keepStream) const {
  npu::EncodedWeights encoded;
  const npu::Tensor* weights = subgraph.findTensor(op.weights());
  if (weights == nullptr || !weights->isConstant() || depthSlices.size() < 2) {
    return encoded;
  }
  const int channels = subgraph.ofmShape(op).depth;
  const std::int64_t bytesPerChannel = weights->byteSize() / std::max(channels, 1);
  encoded.originalBytes = weights->byteSize();
  for (std::size_t i = 0; i + 1 < depthSlices.size(); ++i) {
    npu::EncodedWeightSlice slice;
    slice.depthStart = depthSlices[i];
    slice.depthEnd = depthSlices[i + 1];
    slice.offset = encoded.totalBytes;
    const std::int64_t sliceChannels = slice.depthEnd - slice.depthStart;
    const std::int64_t scales = sliceChannels * kBytesPerChannel;
    slice.bytes = npu::roundUp(sliceChannels * bytesPerChannel + scales, kWeightAlignment);
    slice.coreBytes = {slice.bytes};
    slice.coreScaleBytes = {scales};
    encoded.totalBytes += slice.bytes;
    encoded.scaleBytes += scales;
    encoded.slices.push_back(slice);
  }
  if (keepStream) {
    // Channel-major weights as stored in the model file (plus zeroed parameter bytes and padding).
    const auto raw = weights->bytes();
    encoded.stream.assign(static_cast<std::size_t>(encoded.totalBytes), 0);
    for (const auto& slice : encoded.slices) {
      const auto begin = static_cast<std::size_t>(slice.depthStart * bytesPerChannel);
      const auto end = static_cast<std::size_t>(slice.depthEnd * bytesPerChannel);
      std::copy(raw.begin() + static_cast<std::ptrdiff_t>(begin), raw.begin() + static_cast<std::ptrdiff_t>(end),
                encoded.stream.begin() + static_cast<std::ptrdiff_t>(slice.offset));
    }
  }
  return encoded;
}

} // namespace acme
