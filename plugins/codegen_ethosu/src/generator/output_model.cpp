// SPDX-License-Identifier: Apache-2.0
#include "generator/code_generator.hpp"

#include "frontend_tflite/model_writer.hpp"

#include "npu/core/input_file.hpp"

#include <span>
#include <string>
#include <vector>

namespace ethosu::codegen {

namespace {

/// Constants of the output model from this size on are written out from their own buffers.
constexpr std::size_t kReferencedConstantBytes = std::size_t{1} << 20;

/// Per subgraph, the arena offset of every feature map the runtime sees (Vela's OfflineMemoryAllocation).
std::vector<std::map<npu::TensorId, std::int64_t>> arenaOffsetsOf(const npu::CodegenRequest& request) {
  const npu::MemorySystem& memory = request.accelerator.memory();
  std::vector<std::map<npu::TensorId, std::int64_t>> offsets(request.lowered.subgraphs.size());
  for (std::size_t s = 0; s < request.lowered.subgraphs.size() && s < request.addresses.subgraphs.size(); ++s) {
    const npu::Subgraph& subgraph = request.lowered.subgraphs[s];
    for (const auto& [tensor, address] : request.addresses.subgraphs[s]) {
      const bool arena = address.area == memory.featureMapArea || address.area == memory.fastStorageArea;
      if (arena && subgraph.validTensorId(tensor) && !subgraph.tensor(tensor).isConstant()) {
        offsets[s][tensor] = address.address;
      }
    }
  }
  return offsets;
}

} // namespace

npu::GeneratedModel generateModel(const npu::CodegenRequest& request, const CodegenOptions& options) {
  const GeneratedCode code = generateCode(request, options);
  const OutputGraph output = buildOutputGraph(request.lowered, request.schedules, code, arenaOffsetsOf(request));

  // CPU operators keep the options of the model they were read from. Mapped, not read: the writer looks
  // only at its operator options, so its weights (most of a large model) are never paged in or copied.
  const npu::InputFileBytes source(request.lowered.sourcePath, npu::kModelFile, npu::InputFileBytes::Reading::Parts);
  auto writeOptions = npu::tflite_frontend::velaWriteOptions();
  writeOptions.sourceModel = source.bytes();
  const bool hasNpuCode = !request.schedules.empty();
  for (std::size_t s = 0; s < output.graph.subgraphs.size(); ++s) {
    auto& placements = writeOptions.placements.emplace_back(output.graph.subgraphs[s].tensors.size());
    for (const auto& [tensor, offset] : output.arenaOffsets[s]) {
      auto& placement = placements.at(static_cast<std::size_t>(tensor));
      placement.offlineOffset = static_cast<std::int32_t>(offset);
      // With NPU code, tensors in the arena live in the scratch tensor and have no buffer of their own.
      placement.inScratchArea = hasNpuCode && offset >= 0;
    }
  }

  npu::GeneratedModel model;
  model.fileName = request.lowered.name + options.fileSuffix + ".tflite";
  // The read-only area (most of a large model) is written out from where it lies, not copied first.
  model.bytes = npu::tflite_frontend::writeModelPieces(output.graph, writeOptions, kReferencedConstantBytes);
  model.statistics.npuOperators = static_cast<int>(request.schedules.size());
  for (const npu::Subgraph& subgraph : output.graph.subgraphs) {
    model.statistics.cpuOperators += static_cast<int>(subgraph.operations.size());
  }
  model.statistics.cpuOperators -= model.statistics.npuOperators;
  for (const auto& stream : code.commandStreams) {
    model.statistics.commandStreamBytes += static_cast<std::int64_t>(stream.size());
  }
  model.statistics.readOnlyBytes = static_cast<std::int64_t>(code.readOnly->size());
  model.statistics.scratchBytes = code.scratchBytes;
  model.statistics.fastScratchBytes = code.fastScratchBytes;
  return model;
}

} // namespace ethosu::codegen
