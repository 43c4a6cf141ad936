// SPDX-License-Identifier: Apache-2.0
#include "npu/ir/macs.hpp"
#include "npu/plugin/accelerator.hpp"

#include <algorithm>

namespace npu {

namespace {

/// Input elements an operation needs to produce its output: where the strides are larger than the dilated
/// kernel, the rows and columns between the windows are never read. Scalars may travel in the command
/// stream instead of memory, so they need nothing.
double neededElements(const Operation& op, const Shape4& input, const Shape4& output) {
  if (input.elements() <= 1) {
    return 0.0;
  }
  std::int64_t height = input.height;
  std::int64_t width = input.width;
  if (op.kernel) {
    const Kernel& kernel = *op.kernel;
    height = std::min<std::int64_t>(height, std::int64_t{output.height} *
                                                std::max(std::min(kernel.strideY, kernel.areaHeight()), 1));
    width = std::min<std::int64_t>(width, std::int64_t{output.width} *
                                              std::max(std::min(kernel.strideX, kernel.areaWidth()), 1));
  }
  return static_cast<double>(std::int64_t{input.batch} * height * width * input.depth);
}

/// Work of the operation in multiply-accumulates (or, without MACs, output elements times kernel area),
/// for the output the query writes.
double computeWork(const Subgraph& subgraph, const Operation& op, const CostQuery& query) {
  const auto ofmElements = static_cast<double>(query.ofm.shape.elements());
  const auto macs = static_cast<double>(countMacs(subgraph, op));
  if (macs > 0.0) {
    // countMacs counts the whole operation; the query may write part of its output.
    const auto wholeOfm = static_cast<double>(subgraph.ofmShape(op).elements());
    return wholeOfm > 0.0 ? macs * std::min(ofmElements / wholeOfm, 1.0) : macs;
  }
  const Kernel kernel = op.kernel.value_or(Kernel{});
  return ofmElements * static_cast<double>(kernel.elementsWH());
}

} // namespace

OperationBound genericOperationBound(const AcceleratorInfo& info, const MemorySystem& memory, const Subgraph& subgraph,
                                     const Operation& op, const PerformanceContext& context) {
  OperationBound bound;
  const CostQuery& query = context.query;
  const double peakMacs = static_cast<double>(info.macsPerCycle) * std::max(info.cores, 1);
  if (peakMacs > 0.0) {
    bound.cycles[static_cast<std::size_t>(BoundResource::Compute)] = computeWork(subgraph, op, query) / peakMacs;
  }
  std::array<double, kMemoryAreaCount> bytes{};
  const auto add = [&](MemoryArea area, double count) { bytes[static_cast<std::size_t>(area)] += count; };
  add(query.ifm.area, neededElements(op, query.ifm.shape, query.ofm.shape) * bytesOf(query.ifm.type));
  if (query.ifm2) {
    add(query.ifm2->area, neededElements(op, query.ifm2->shape, query.ofm.shape) * bytesOf(query.ifm2->type));
  }
  add(query.ofm.area, static_cast<double>(query.ofm.shape.elements()) * bytesOf(query.ofm.type));
  if (context.weights.present) {
    add(context.weights.sourceArea, static_cast<double>(context.weights.encodedBytes));
  }
  for (std::size_t area = 0; area < bytes.size(); ++area) {
    const MemoryProperties& properties = memory.areas[area];
    const std::optional<BoundResource> resource = boundResourceOf(static_cast<MemoryArea>(area));
    if (!resource || !properties.present || properties.bandwidthBytesPerCycle <= 0.0) {
      continue;
    }
    bound.cycles[static_cast<std::size_t>(*resource)] += bytes[area] / properties.bandwidthBytesPerCycle;
  }
  return bound;
}

OperationBound operationBound(const Accelerator& accelerator, const Subgraph& subgraph, const Operation& op,
                              const PerformanceContext& context) {
  if (auto bound = accelerator.costModel().bound(subgraph, op, context)) {
    return *bound;
  }
  return genericOperationBound(accelerator.info(), accelerator.memory(), subgraph, op, context);
}

} // namespace npu
