// SPDX-License-Identifier: Apache-2.0
#pragma once

// Test helper: the cost queries and performance contexts of Vela's final schedule, rebuilt from
// schedule.txt and the lowered model (memory homing, weight buffering, slack of the previous operation).

#include "vela_reference_models.hpp"

#include "ethosu/blocks/block_config_selector.hpp"

namespace ethosu::test {

/// Where a tensor lives in the reference run.
inline npu::MemoryArea areaOf(const Architecture& arch, const ReferenceSchedule& schedule, const npu::Tensor& tensor) {
  const npu::MemorySystem& memory = arch.memory();
  if (tensor.isConstant()) {
    return memory.constantArea;
  }
  if (memory.fastStorageIsSeparate() && schedule.sramFeatureMaps.contains(tensor.name)) {
    return memory.fastStorageArea;
  }
  return memory.featureMapArea;
}

/// The storage format Vela gave a feature map, where its allocated size tells (a depth that is not a
/// multiple of 16 takes more bytes in NHCWB16); the lowering's choice otherwise.
inline npu::TensorFormat formatOf(const ReferenceSchedule& schedule, const npu::Tensor& tensor) {
  const auto allocated = schedule.featureMapBytes.find(tensor.name);
  if (allocated == schedule.featureMapBytes.end() || tensor.isConstant()) {
    return tensor.format;
  }
  const npu::Shape4 shape = npu::Shape4::fromShape(tensor.shape);
  const auto bytes = [&](const npu::Shape4& stored) {
    return npu::roundUp(stored.elements() * npu::bytesOf(tensor.type), 16);
  };
  const std::int64_t linear = bytes(shape);
  const std::int64_t bricks = bytes(shape.withDepth(static_cast<int>(npu::roundUp(shape.depth, 16))));
  if (linear != bricks && allocated->second == bricks) {
    return npu::TensorFormat::NHCWB16;
  }
  if (linear != bricks && allocated->second == linear) {
    return npu::TensorFormat::NHWC;
  }
  return tensor.format;
}

inline npu::FeatureMapQuery featureMapOf(const Architecture& arch, const ReferenceSchedule& schedule,
                                         const npu::Tensor& tensor, const npu::Shape4& shape) {
  return {shape, tensor.type, formatOf(schedule, tensor), areaOf(arch, schedule, tensor)};
}

/// The cost query of a reference operation over its whole OFM (as Vela's estimates use the full read
/// and write shapes), with Vela's block config.
struct ReferenceQuery {
  npu::CostQuery query;
  npu::BlockConfig block;
};

inline ReferenceQuery referenceQuery(const Architecture& arch, const ReferenceSchedule& schedule,
                                     const ReferenceOperation& reference) {
  const npu::Subgraph& subgraph = *reference.lowered.subgraph;
  const npu::Operation& op = *reference.lowered.operation;
  const std::size_t primary = reference.traits.primaryIsIfm2 ? 1 : 0;
  const std::size_t secondary = 1 - primary;
  const auto operand = [&](std::size_t index) { return index == 0 ? op.ifm() : op.ifm2(); };

  ReferenceQuery result;
  const auto found = findBlockConfig(arch, reference.blockQuery);
  npu::require(found.has_value(), "no block config");
  result.block = toBlockConfig(*found);
  npu::CostQuery& query = result.query;
  query.ifm = featureMapOf(arch, schedule, subgraph.tensor(operand(primary)),
                           op.readShapes[primary].value_or(subgraph.ifmShape(op, primary)));
  if (subgraph.validTensorId(op.ifm2())) {
    query.ifm2 = featureMapOf(arch, schedule, subgraph.tensor(operand(secondary)),
                              op.readShapes[secondary].value_or(subgraph.ifmShape(op, secondary)));
  }
  query.ofm = featureMapOf(arch, schedule, subgraph.tensor(op.ofm()), op.writeShape.value_or(subgraph.ofmShape(op)));
  query.hasScalesBiases = reference.traits.hasBias;
  query.constantArea = arch.memory().fastStorageArea; // as the scheduler estimates (slack)
  query.reversedOperands = reference.traits.primaryIsIfm2;
  return result;
}

/// Compute cycles the operation leaves for the next one's buffered DMA (Vela's slack_buffering_cycles).
inline double slackCycles(const Architecture& arch, const npu::CostModel& model, const ReferenceOperation& reference,
                          ReferenceQuery referenceQuery) {
  referenceQuery.query.block = &referenceQuery.block;
  const auto& slices = reference.scheduled->depthSlices;
  if (reference.scheduled->weightBuffers.size() > 0 && slices.size() > 2 && reference.scheduled->cascade == 0) {
    referenceQuery.query.ofm.shape =
        referenceQuery.query.ofm.shape.withDepth(slices[slices.size() - 1] - slices[slices.size() - 2]);
  }
  (void)arch;
  return model.cycles(*reference.lowered.subgraph, *reference.lowered.operation, referenceQuery.query).cycles;
}

/// The performance context of the final estimate. `firstSliceBytes` and `fullDepthBytes` are the
/// weight encoder's answers when known, else approximated from schedule.txt.
inline npu::PerformanceContext referenceContext(const Architecture& arch, const ReferenceSchedule& schedule,
                                                const ReferenceOperation& reference,
                                                const ReferenceQuery& referenceQuery, double previousSlack,
                                                double ownSlack, std::optional<std::int64_t> firstSliceBytes = {},
                                                std::optional<std::int64_t> fullDepthBytes = {}) {
  const npu::Subgraph& subgraph = *reference.lowered.subgraph;
  const npu::Operation& op = *reference.lowered.operation;
  const ScheduledOperation& scheduled = *reference.scheduled;
  const npu::MemorySystem& memory = arch.memory();
  npu::PerformanceContext context;
  context.query = referenceQuery.query;
  context.query.block = nullptr; // set by the caller, which owns the block config
  context.previousSlackCycles = previousSlack;
  context.ownSlackCycles = ownSlack;
  if (scheduled.encodedWeights) {
    npu::WeightTransfer& weights = context.weights;
    weights.present = true;
    weights.encodedBytes = *scheduled.encodedWeights;
    const npu::Tensor* weightTensor = subgraph.findTensor(op.weights());
    weights.sourceArea = weightTensor != nullptr ? areaOf(arch, schedule, *weightTensor) : memory.constantArea;
    if (!scheduled.weightBuffers.empty()) {
      weights.bufferArea = memory.fastStorageArea;
      weights.doubleBuffered = scheduled.weightBuffers.size() == 2;
      weights.firstTransferBytes = firstSliceBytes.value_or(scheduled.weightBuffers.front());
      if (scheduled.cascade == 0) {
        weights.fullTransferCycles =
            memoryToMemoryCycles(arch, weights.sourceArea, memory.fastStorageArea,
                                 static_cast<double>(fullDepthBytes.value_or(*scheduled.encodedWeights)));
      }
    }
  }
  if (op.activation && subgraph.validTensorId(op.activation->lut)) {
    const npu::Tensor& lut = subgraph.tensor(op.activation->lut);
    const std::int64_t bytes = npu::roundUp(std::max<std::int64_t>(lut.byteSize(), 1), 16);
    context.lutTransfer =
        npu::ConstantTransfer{memory.constantArea, npu::MemoryArea::Shram, bytes, npu::TensorPurpose::Lut};
  }
  return context;
}

/// Sizes of the weight stream Vela's final estimate uses, from our weight encoder: the first DMA (first
/// depth slice, every core padded to 16 bytes) and the whole stream encoded without slicing.
struct WeightSizes {
  std::int64_t sliced = 0;
  std::int64_t firstSlice = 0;
  std::int64_t fullDepth = 0;
};

inline std::optional<WeightSizes> weightSizes(const npu::Accelerator& accelerator, const ReferenceOperation& reference,
                                              const npu::BlockConfig& block) {
  const ScheduledOperation& scheduled = *reference.scheduled;
  if (!scheduled.encodedWeights || scheduled.depthSlices.size() < 2) {
    return std::nullopt;
  }
  const auto& subgraph = *reference.lowered.subgraph;
  const auto& op = *reference.lowered.operation;
  const auto sliced = accelerator.weights().encode(subgraph, op, block, scheduled.depthSlices, false);
  const std::vector<int> whole{0, scheduled.depthSlices.back()};
  const auto full = accelerator.weights().encode(subgraph, op, block, whole, false);
  if (sliced.slices.empty()) {
    return std::nullopt;
  }
  WeightSizes sizes{sliced.totalBytes, 0, full.totalBytes};
  for (const std::int64_t bytes : sliced.slices.front().coreBytes) {
    sizes.firstSlice += npu::roundUp(bytes, 16);
  }
  return sizes;
}

} // namespace ethosu::test
