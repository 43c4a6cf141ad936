// SPDX-License-Identifier: Apache-2.0
#include "fast_storage_homing.hpp"
#include "vela21_overwrite.hpp"

#include "scheduler_common/scheduling_graph.hpp"
#include "scheduler_common/tensor_placement.hpp"

#include <algorithm>
#include <tuple>

namespace npu::dp {

namespace {

using scheduling::Residency;

bool isFeatureMap(const Subgraph& subgraph, TensorId tensor) {
  return subgraph.validTensorId(tensor) && !subgraph.tensor(tensor).isConstant();
}

} // namespace

void CascadeLayout::addPass(int pass, int cascade, int rollingBufferHeight,
                            std::vector<scheduling::WeightBufferUse> buffers) {
  const DpPass& p = graph_.pass(pass);
  const Subgraph& subgraph = graph_.subgraph();
  scheduling::StepLayout step;
  step.cascade = cascade;
  if (rollingBufferHeight > 0 && cascade != 0) {
    const Shape4 ifm = Shape4::fromShape(subgraph.tensor(p.ifm).shape);
    step.rollingBuffer =
        Shape4{1, std::min(ifm.height, rollingBufferHeight), ifm.width, static_cast<int>(roundUp(ifm.depth, 16))};
    fastStorage_[p.ifm] = graph_.memory().fastStorageArea;
  }
  step.weightBuffers = std::move(buffers);
  step.depthSliceBoundaries = static_cast<int>(step.weightBuffers.size());
  steps_.push_back(std::move(step));

  open_.passes.push_back(pass);
  for (const TensorId input : p.featureMapInputs) {
    open_.inputs.insert(input);
  }
  for (const TensorId output : graph_.operation(pass).outputs) {
    if (isFeatureMap(subgraph, output)) {
      open_.outputs.insert(output);
    }
  }
}

void CascadeLayout::endCascadedPass(std::int64_t sramUsed) {
  // apply_result: a tensor both produced and read inside the cascaded pass is an intermediate.
  std::vector<TensorId> intermediates;
  std::set_intersection(open_.inputs.begin(), open_.inputs.end(), open_.outputs.begin(), open_.outputs.end(),
                        std::back_inserter(intermediates));
  for (const TensorId tensor : intermediates) {
    open_.inputs.erase(tensor);
    open_.outputs.erase(tensor);
    brickFormat_.insert(tensor);
  }
  open_.sramUsed = sramUsed;
  cascadedPasses_.push_back(std::move(open_));
  open_ = CascadedPass{};
}

std::int64_t CascadeLayout::storedBytes(TensorId tensor) const {
  const Tensor& t = graph_.subgraph().tensor(tensor);
  Shape4 shape = Shape4::fromShape(t.shape);
  if (homeOf(tensor).format == TensorFormat::NHCWB16) {
    shape.depth = static_cast<int>(roundUp(shape.depth, 16));
  }
  return allocationBytes(static_cast<double>(shape.elements() * bytesOf(t.type)));
}

void CascadeLayout::moveFeatureMapsToFastStorage(std::int64_t limit) {
  const Subgraph& subgraph = graph_.subgraph();
  const NpuRegion& region = graph_.region();
  const std::set<TensorId> regionOutputs(region.outputs.begin(), region.outputs.end());
  const std::set<TensorId> regionInputs(region.inputs.begin(), region.inputs.end());
  std::set<OperationId> regionOps(region.operations.begin(), region.operations.end());
  // Feature maps written by a cascaded pass and read only by NPU operations of this region.
  std::map<TensorId, std::pair<std::size_t, std::size_t>> lifetime;
  for (std::size_t index = 0; index < cascadedPasses_.size(); ++index) {
    const CascadedPass& cascaded = cascadedPasses_[index];
    for (const auto* tensors : {&cascaded.inputs, &cascaded.outputs}) {
      for (const TensorId tensor : *tensors) {
        auto [it, inserted] = lifetime.emplace(tensor, std::pair{index, index});
        it->second.first = std::min(it->second.first, index);
        it->second.second = index;
      }
    }
  }
  std::set<TensorId> candidates;
  for (std::size_t index = 0; index < cascadedPasses_.size(); ++index) {
    for (const TensorId output : cascadedPasses_[index].outputs) {
      // A tensor read before the region writes it holds what the previous inference left in its home
      // (an LSTM's state, whose updates share its storage and are written back at the end): read from
      // fast storage it would be garbage. Vela 2.1 moves such tensors; the command-stream checker
      // catches the read of unwritten memory.
      const Tensor& tensor = subgraph.tensor(output);
      const bool sharesStorage = tensor.equivalenceId >= 0 || tensor.isVariable;
      const bool readBeforeWritten = lifetime.at(output).first < index;
      if (regionOutputs.contains(output) || regionInputs.contains(output) || fastStorage_.contains(output) ||
          sharesStorage || readBeforeWritten) {
        continue;
      }
      bool onlyRegionConsumers = true;
      for (std::size_t op = 0; op < subgraph.operations.size(); ++op) {
        // The lowering keeps the input of a memory-only operation (removed, its readers read the input)
        // out of fast storage, as Vela 2.1 does for a feature map an operator off the NPU reads: its
        // writer's only output.
        const Operation& operation = subgraph.operations[op];
        const auto& outputs = operation.outputs;
        if (operation.attributes.getOr<std::int64_t>("ofm_off_fast_storage", 0) != 0 &&
            std::find(outputs.begin(), outputs.end(), output) != outputs.end()) {
          onlyRegionConsumers = false;
        }
        const auto& inputs = subgraph.operations[op].inputs;
        if (std::find(inputs.begin(), inputs.end(), output) != inputs.end() &&
            !regionOps.contains(static_cast<OperationId>(op))) {
          onlyRegionConsumers = false;
        }
      }
      if (onlyRegionConsumers) {
        candidates.insert(output);
      }
    }
  }
  std::vector<std::tuple<std::size_t, std::int64_t, std::string, TensorId>> order;
  for (const TensorId tensor : candidates) {
    const auto [first, last] = lifetime.at(tensor);
    order.emplace_back(last - first + 1, -storedBytes(tensor), subgraph.tensor(tensor).name, tensor);
  }
  std::sort(order.begin(), order.end());
  for (const auto& [span, negativeBytes, name, tensor] : order) {
    const auto [first, last] = lifetime.at(tensor);
    const std::int64_t bytes = -negativeBytes;
    bool fits = true;
    for (std::size_t index = first; index <= last; ++index) {
      fits = fits && cascadedPasses_[index].sramUsed + bytes <= limit;
    }
    if (!fits) {
      continue;
    }
    fastStorage_[tensor] = graph_.memory().fastStorageArea;
    for (std::size_t index = first; index <= last; ++index) {
      cascadedPasses_[index].sramUsed += bytes;
    }
  }
}

TensorHome CascadeLayout::homeOf(TensorId tensor) const {
  const Tensor& t = graph_.subgraph().tensor(tensor);
  TensorHome home{t.isConstant() ? graph_.memory().constantArea : graph_.memory().featureMapArea, t.format};
  if (const auto it = fastStorage_.find(tensor); it != fastStorage_.end()) {
    home.area = it->second;
  }
  const NpuRegion& region = graph_.region();
  const bool boundary = std::find(region.inputs.begin(), region.inputs.end(), tensor) != region.inputs.end() ||
                        std::find(region.outputs.begin(), region.outputs.end(), tensor) != region.outputs.end();
  if (brickFormat_.contains(tensor)) {
    home.format = TensorFormat::NHCWB16;
  } else if (!options_.nhcwb16BetweenCascadedPasses || boundary) {
    // What crosses the region's boundary is a tensor of the output model: the runtime allocates it in
    // its linear (NHWC) size, so the NPU must not write it in 16-channel bricks.
    home.format = TensorFormat::NHWC;
  }
  return home;
}

void CascadeLayout::writeHomesAndBuffers(const Graph& ir, Schedule& schedule) const {
  const Subgraph& subgraph = graph_.subgraph();
  const MemorySystem& memory = graph_.memory();
  const auto addHome = [&](TensorId tensor) {
    if (isFeatureMap(subgraph, tensor)) {
      schedule.tensorHomes[tensor] = homeOf(tensor);
    }
  };
  for (const ScheduledOperation& scheduled : schedule.operations) {
    const Operation& op = subgraph.operation(scheduled.op);
    for (const TensorId input : op.inputs) {
      addHome(input);
    }
    for (const TensorId output : op.outputs) {
      addHome(output);
    }
  }

  // The buffers follow the formats this schedule writes (its homes), not the cascade scheduler's choice:
  // an OFM stored in bricks between cascaded passes is larger than linear and cannot be written over a
  // linear IFM (Vela 2.1 allocates with the formats its scheduler set).
  std::map<TensorId, TensorFormat> formats;
  for (const auto& [tensor, home] : schedule.tensorHomes) {
    formats.emplace(tensor, home.format);
  }
  const scheduling::SchedulingGraph view(ir, schedule.region, graph_.accelerator(), std::move(formats));
  scheduling::TensorPlacement placement(subgraph, memory);
  for (const auto& [tensor, area] : fastStorage_) {
    placement.place(tensor, scheduling::Placement{area, Residency::ScratchFast});
  }
  std::vector<scheduling::MemoryScope> scopes;
  if (memory.fastStorageIsSeparate()) {
    scopes.push_back({memory.fastStorageArea, {Residency::ScratchFast}, memory.fastStorageArea});
    scopes.push_back({memory.featureMapArea, {Residency::Scratch}, memory.fastStorageArea});
  } else {
    scopes.push_back({memory.featureMapArea, {Residency::Scratch, Residency::ScratchFast}, memory.fastStorageArea});
  }
  for (const auto& scope : scopes) {
    const auto ranges = scheduling::extractLiveRanges(view, steps_, placement, scope, vela21InputOverwrittenByOfm);
    auto requests = scheduling::toBufferRequests(view, ranges, scope.area, memory.allocationAlignment);
    schedule.buffers.insert(schedule.buffers.end(), requests.begin(), requests.end());
  }
  addConstantBuffers(schedule);
}

void CascadeLayout::addConstantBuffers(Schedule& schedule) const {
  // Encoded weights and other constants live for the whole region in permanent storage; equivalent
  // streams are stored once.
  const Subgraph& subgraph = graph_.subgraph();
  const auto last = static_cast<std::int64_t>(schedule.operations.size()) - 1;
  const std::int64_t alignment = graph_.memory().allocationAlignment;
  const MemoryArea area = graph_.memory().constantArea;
  std::set<std::pair<std::int64_t, std::vector<int>>> streams;
  std::set<std::int64_t> constants;
  const auto identity = [&](TensorId tensor) {
    const std::int64_t equivalence = subgraph.tensor(tensor).equivalenceId;
    return equivalence >= 0 ? (std::int64_t{1} << 40) + equivalence : std::int64_t{tensor};
  };
  for (const ScheduledOperation& scheduled : schedule.operations) {
    const Operation& op = subgraph.operation(scheduled.op);
    if (scheduled.weights) {
      std::vector<int> key = scheduled.weights->depthSlices;
      key.push_back(static_cast<int>(scheduled.weights->encodedBytes));
      if (streams.emplace(identity(op.weights()), key).second) {
        schedule.buffers.push_back(
            BufferRequest{LiveRange{subgraph.tensor(op.weights()).name + "_npu_encoded_weights", 0, last,
                                    allocationBytes(static_cast<double>(scheduled.weights->encodedBytes)), alignment},
                          area,
                          {op.weights()}});
      }
    }
    for (const TensorId input : op.inputs) {
      if (input == op.weights() || input == op.bias() || !subgraph.validTensorId(input) ||
          !subgraph.tensor(input).isConstant() || !constants.insert(identity(input)).second) {
        continue;
      }
      schedule.buffers.push_back(
          BufferRequest{LiveRange{subgraph.tensor(input).name, 0, last,
                                  allocationBytes(static_cast<double>(subgraph.tensor(input).byteSize())), alignment},
                        area,
                        {input}});
    }
  }
}

} // namespace npu::dp
