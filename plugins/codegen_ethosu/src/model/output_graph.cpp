// SPDX-License-Identifier: Apache-2.0
#include "model/output_graph.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/ir/graph_algorithms.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <set>

namespace ethosu::codegen {

namespace {

/// Vela's custom options of the operator: a FlexBuffer holding the unsigned integer 1.
const std::vector<std::int64_t> kCustomOptions{0x01, 0x04, 0x01};

/// Builds one output subgraph, copying the tensors it uses.
class SubgraphBuilder {
public:
  SubgraphBuilder(const npu::Subgraph& source, const std::map<npu::TensorId, std::int64_t>& arenaOffsets)
      : source_(source), arenaOffsets_(arenaOffsets) {
    target_.name = source.name;
  }

  npu::TensorId copy(npu::TensorId tensor) {
    if (!source_.validTensorId(tensor)) {
      return npu::kNoTensor;
    }
    if (const auto it = remap_.find(tensor); it != remap_.end()) {
      return it->second;
    }
    const npu::TensorId copied = target_.addTensor(source_.tensor(tensor));
    remap_.emplace(tensor, copied);
    const auto offset = arenaOffsets_.find(tensor);
    offsets_[copied] = offset == arenaOffsets_.end() ? -1 : offset->second;
    return copied;
  }

  npu::TensorId add(npu::Tensor tensor, std::int64_t arenaOffset) {
    const npu::TensorId added = target_.addTensor(std::move(tensor));
    offsets_[added] = arenaOffset;
    return added;
  }

  void addCpuOperation(const npu::Operation& op) {
    npu::Operation copied = op;
    for (auto* list : {&copied.inputs, &copied.outputs, &copied.intermediates}) {
      for (npu::TensorId& tensor : *list) {
        tensor = copy(tensor);
      }
    }
    // A CPU operator's lookup table is an IR-only reference: it does not exist in the output.
    copied.activation = op.activation ? std::optional(npu::Activation{op.activation->type, op.activation->min,
                                                                      op.activation->max, npu::kNoTensor})
                                      : std::nullopt;
    target_.addOperation(std::move(copied));
  }

  void addOperation(npu::Operation op) { target_.addOperation(std::move(op)); }

  npu::Subgraph finish(std::map<npu::TensorId, std::int64_t>& offsets) {
    for (const npu::TensorId input : source_.inputs) {
      target_.inputs.push_back(copy(input));
    }
    for (const npu::TensorId output : source_.outputs) {
      target_.outputs.push_back(copy(output));
    }
    offsets = offsets_;
    return std::move(target_);
  }

private:
  const npu::Subgraph& source_;
  const std::map<npu::TensorId, std::int64_t>& arenaOffsets_;
  npu::Subgraph target_;
  std::map<npu::TensorId, npu::TensorId> remap_;
  std::map<npu::TensorId, std::int64_t> offsets_;
};

npu::Tensor bytesTensor(std::string name, std::int64_t size, std::shared_ptr<const std::vector<std::uint8_t>> data) {
  npu::Tensor tensor;
  tensor.name = std::move(name);
  tensor.shape = npu::Shape{static_cast<int>(size)};
  tensor.type = npu::DataType::UInt8;
  tensor.purpose = npu::TensorPurpose::FeatureMap;
  tensor.data = std::move(data);
  return tensor;
}

} // namespace

std::pair<std::vector<npu::TensorId>, std::vector<npu::TensorId>> regionBoundary(const npu::Subgraph& subgraph,
                                                                                 const npu::NpuRegion& region) {
  const npu::DataflowIndex dataflow(subgraph);
  const std::set<npu::OperationId> members(region.operations.begin(), region.operations.end());
  const std::set<npu::TensorId> subgraphOutputs(subgraph.outputs.begin(), subgraph.outputs.end());
  std::vector<npu::TensorId> inputs;
  std::vector<npu::TensorId> outputs;
  for (const npu::OperationId id : region.operations) {
    const npu::Operation& op = subgraph.operation(id);
    for (const npu::TensorId input : op.inputs) {
      if (!subgraph.validTensorId(input) || subgraph.tensor(input).isConstant()) {
        continue;
      }
      const auto& producers = dataflow.producers(input);
      const bool outside = producers.empty() || !members.contains(producers.front());
      if (outside && std::find(inputs.begin(), inputs.end(), input) == inputs.end()) {
        inputs.push_back(input);
      }
    }
    for (const npu::TensorId output : op.outputs) {
      // A tensor an earlier operation outside the region also writes (a concatenation fed from both sides
      // of a CPU operator) has that producer; this region takes it in and writes its part in place, so
      // the written model keeps one producer per tensor (as Vela's does when a later region reads it).
      const auto& producers = dataflow.producers(output);
      if (std::any_of(producers.begin(), producers.end(),
                      [&](npu::OperationId producer) { return !members.contains(producer) && producer < id; })) {
        if (std::find(inputs.begin(), inputs.end(), output) == inputs.end()) {
          inputs.push_back(output);
        }
        continue;
      }
      const auto& consumers = dataflow.consumers(output);
      const bool usedOutside = std::any_of(consumers.begin(), consumers.end(),
                                           [&](npu::OperationId consumer) { return !members.contains(consumer); });
      if ((usedOutside || subgraphOutputs.contains(output)) &&
          std::find(outputs.begin(), outputs.end(), output) == outputs.end()) {
        outputs.push_back(output);
      }
    }
  }
  return {inputs, outputs};
}

std::string npuSubgraphName(const std::string& subgraphName, int index) {
  return subgraphName + "_split_" + std::to_string(index);
}

OutputGraph buildOutputGraph(const npu::Graph& lowered, std::span<const npu::Schedule> schedules,
                             const GeneratedCode& code,
                             const std::vector<std::map<npu::TensorId, std::int64_t>>& arenaOffsets) {
  npu::require(code.commandStreams.size() == schedules.size(), "one command stream per schedule");
  OutputGraph result;
  result.graph.name = lowered.name;
  result.graph.sourcePath = lowered.sourcePath;
  result.graph.description = lowered.description;
  result.graph.metadata = lowered.metadata; // Vela keeps the input model's metadata
  std::string sharedName;                   // the first NPU subgraph names the shared flash and scratch areas
  for (std::size_t s = 0; s < lowered.subgraphs.size(); ++s) {
    const npu::Subgraph& source = lowered.subgraphs[s];
    static const std::map<npu::TensorId, std::int64_t> kNone;
    SubgraphBuilder builder(source, s < arenaOffsets.size() ? arenaOffsets[s] : kNone);
    // Every operation of a region, whatever order its scheduler runs them in: the region's call takes
    // the place of its first operation in the graph, and the others are left out.
    std::map<npu::OperationId, std::size_t> regionOf;
    for (std::size_t r = 0; r < schedules.size(); ++r) {
      if (schedules[r].region.subgraph == static_cast<int>(s)) {
        for (const npu::OperationId member : schedules[r].region.operations) {
          regionOf.emplace(member, r);
        }
      }
    }
    std::set<std::size_t> emitted;
    int split = 0;
    std::array<npu::TensorId, 3> shared{npu::kNoTensor, npu::kNoTensor, npu::kNoTensor};
    const auto count = static_cast<npu::OperationId>(source.operations.size());
    for (npu::OperationId id = 0; id < count; ++id) {
      const auto region = regionOf.find(id);
      if (region == regionOf.end()) {
        builder.addCpuOperation(source.operation(id));
        continue;
      }
      if (!emitted.insert(region->second).second) {
        continue;
      }
      const npu::Schedule& schedule = schedules[region->second];
      const std::string name = npuSubgraphName(source.name, ++split);
      if (sharedName.empty()) {
        sharedName = name;
      }
      if (shared[0] == npu::kNoTensor) {
        shared[0] = builder.add(
            bytesTensor(sharedName + "_flash", static_cast<std::int64_t>(code.readOnly->size()), code.readOnly), -1);
        shared[1] = builder.add(bytesTensor(sharedName + "_scratch", code.scratchBytes, nullptr), 0);
        shared[2] = builder.add(bytesTensor(sharedName + "_scratch_fast", code.fastScratchBytes, nullptr), 0);
      }
      const auto& stream = code.commandStreams[region->second];
      npu::Operation call;
      call.type = npu::OpType::Custom;
      call.name = "call_" + name;
      call.sourceType = "CUSTOM:ethos-u";
      call.placement = npu::Placement::Cpu;
      call.attributes.set("custom_code", std::string("ethos-u"));
      call.attributes.set("custom_options", kCustomOptions);
      call.inputs = {builder.add(bytesTensor(name + "_command_stream", static_cast<std::int64_t>(stream.size()),
                                             std::make_shared<const std::vector<std::uint8_t>>(stream)),
                                 -1),
                     shared[0], shared[1], shared[2]};
      const auto [inputs, outputs] = regionBoundary(source, schedule.region);
      for (const npu::TensorId input : inputs) {
        call.inputs.push_back(builder.copy(input));
      }
      for (const npu::TensorId output : outputs) {
        call.outputs.push_back(builder.copy(output));
      }
      builder.addOperation(std::move(call));
    }
    result.arenaOffsets.emplace_back();
    result.graph.subgraphs.push_back(builder.finish(result.arenaOffsets.back()));
  }
  return result;
}

} // namespace ethosu::codegen
