// SPDX-License-Identifier: Apache-2.0
// The memory traffic of a pass Vela 2.1 places on the CPU: npu_performance.performance_metrics_for_pass
// gives it no compute cycles but still counts reading its inputs and writing its outputs, with the
// 1x1x1 block of a non-NPU pass (scheduler.get_block_configs), and the network's totals include it.

#include "ethosu/performance_vela2/vela2_estimates.hpp"

#include <algorithm>
#include <set>

namespace ethosu::vela2 {

namespace {

using npu::AccessDirection;
using npu::MemoryArea;
using npu::TensorPurpose;

/// Vela 2.1's memory-only passes (pass_packing.memory_only_ops): they move nothing.
bool movesNothing(npu::OpType type) {
  return type == npu::OpType::Reshape || type == npu::OpType::QuantizedReshape || type == npu::OpType::Squeeze ||
         type == npu::OpType::ExpandDims;
}

/// estimate_memory_transfer_efficiency for a 1x1x1 block: a brick-format feature map bursts one
/// 16-channel brick (times the cores when written), a linear one a single element.
double burstScale(const Architecture& arch, MemoryArea area, bool isRead, bool brick, int elementBytes) {
  const std::int64_t memoryBurst = arch.burstLength(area);
  std::int64_t burst = elementBytes;
  if (brick) {
    burst = std::int64_t{16} * elementBytes * (isRead ? 1 : arch.cores());
  }
  burst = std::min(memoryBurst, burst);
  return burst > 0 ? static_cast<double>(memoryBurst) / static_cast<double>(burst) : 1.0;
}

/// Bytes of a tensor in the brick format: its innermost dimension rounded up to 16.
double brickBytes(const npu::Tensor& tensor) {
  if (tensor.shape.isScalar() || tensor.shape.back(0) <= 0) {
    return static_cast<double>(tensor.byteSize());
  }
  const std::int64_t depth = tensor.shape.back(0);
  return static_cast<double>(tensor.elements() / depth * npu::roundUp(depth, 16) * npu::bytesOf(tensor.type));
}

/// Whether every use of `tensor` is the shape input of a RESHAPE that Vela 2.1.1 removes, directly or
/// through CPU operations whose outputs are used so too: 2.1.1 packs passes walking from the outputs,
/// and a removed RESHAPE no longer reaches the side chain that computed its shape (SHAPE,
/// STRIDED_SLICE, PACK), so that chain has no passes.
bool feedsOnlyRemovedShapes(const npu::Subgraph& subgraph, npu::TensorId tensor, int depth) {
  if (depth > 64 || std::find(subgraph.outputs.begin(), subgraph.outputs.end(), tensor) != subgraph.outputs.end()) {
    return false;
  }
  bool used = false;
  for (const npu::Operation& reader : subgraph.operations) {
    const auto input = std::find(reader.inputs.begin(), reader.inputs.end(), tensor);
    if (input == reader.inputs.end()) {
      continue;
    }
    used = true;
    if (reader.attributes.getOr<bool>("bypassed_reshape", false) && input != reader.inputs.begin() &&
        std::find(input + 1, reader.inputs.end(), tensor) == reader.inputs.end()) {
      continue;
    }
    if (reader.placement == npu::Placement::Npu || reader.outputs.empty()) {
      return false;
    }
    for (const npu::TensorId output : reader.outputs) {
      if (!feedsOnlyRemovedShapes(subgraph, output, depth + 1)) {
        return false;
      }
    }
  }
  return used;
}

} // namespace

std::optional<npu::OperationPerformance> estimateCpuPass(const Architecture& arch, const npu::Subgraph& subgraph,
                                                         const npu::Operation& op) {
  if (movesNothing(op.type)) {
    return std::nullopt;
  }
  if (!op.outputs.empty() && std::all_of(op.outputs.begin(), op.outputs.end(), [&](npu::TensorId output) {
        return feedsOnlyRemovedShapes(subgraph, output, 0);
      })) {
    return std::nullopt;
  }
  const npu::MemorySystem& memory = arch.memory();
  npu::OperationPerformance result;
  npu::OperationPerformance scaled;
  const auto add = [&](MemoryArea area, TensorPurpose purpose, AccessDirection direction, double bytes,
                       double scaledBytes) {
    result.byteCount(area, purpose, direction) += bytes;
    scaled.byteCount(area, purpose, direction) += scaledBytes;
  };
  std::set<npu::TensorId> seen;
  for (const npu::TensorId id : op.outputs) {
    const npu::Tensor* tensor = subgraph.findTensor(id);
    if (tensor == nullptr || !seen.insert(id).second) {
      continue;
    }
    // The burst estimate measures the tensor as it judges it (brick unless avoided): an output's bytes
    // are rounded to whole bricks there, not in the byte count.
    const bool brick = !avoidsBrickFormat(subgraph, id);
    const double bytes = static_cast<double>(tensor->byteSize());
    add(memory.featureMapArea, TensorPurpose::FeatureMap, AccessDirection::Write, bytes,
        (brick ? brickBytes(*tensor) : bytes) *
            burstScale(arch, memory.featureMapArea, false, brick, npu::bytesOf(tensor->type)));
  }
  seen.clear();
  for (const npu::TensorId id : op.inputs) {
    const npu::Tensor* tensor = subgraph.findTensor(id);
    if (tensor == nullptr || !seen.insert(id).second) {
      continue;
    }
    const MemoryArea area = tensor->isConstant() ? memory.constantArea : memory.featureMapArea;
    const double bytes = static_cast<double>(tensor->byteSize());
    if (tensor->isConstant() && id == op.weights()) {
      // Weights are marked compressed (5/8 of their bytes) and are not judged for bursts.
      const double compressed = bytes * 5.0 / 8.0;
      add(area, TensorPurpose::Weights, AccessDirection::Read, compressed, compressed);
      continue;
    }
    const bool brick = !avoidsBrickFormat(subgraph, id);
    add(area, TensorPurpose::FeatureMap, AccessDirection::Read, bytes,
        bytes * burstScale(arch, area, true, brick, npu::bytesOf(tensor->type)));
  }
  return withAccessCycles(arch, result, scaled, 0.0);
}

} // namespace ethosu::vela2
