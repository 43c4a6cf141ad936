// SPDX-License-Identifier: Apache-2.0
#include "scheduler_common/scheduling_graph.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/pipeline/compiler.hpp"

#include <algorithm>

namespace npu::scheduling {

namespace {

bool isConcatWrite(const Operation& op) {
  if (op.writeOffset.has_value()) {
    return true;
  }
  return op.attributes.get<std::string>("memory_function") == std::optional<std::string>("ConcatSliceWrite");
}

} // namespace

std::int64_t SchedulingOperation::fullFeatureMapBytes() const {
  return (requiresFullIfm ? ifm.bytes : 0) + (requiresFullIfm2 ? ifm2.bytes : 0) + (requiresFullOfm ? ofm.bytes : 0);
}

bool swapsOperands(const Subgraph& subgraph, const Operation& op) {
  if (!isBinaryElementwise(op.type)) {
    return false;
  }
  const Tensor* ifm = subgraph.findTensor(op.ifm());
  const Tensor* ifm2 = subgraph.findTensor(op.ifm2());
  const Tensor* ofm = subgraph.findTensor(op.ofm());
  if (ifm == nullptr || ifm2 == nullptr || ofm == nullptr) {
    return false;
  }
  const bool ifmCanSwap = ifm->isConstant() || ifm->shape.isScalar();
  const bool ifm2CanBePrimary = !(ifm2->isConstant() || ifm2->shape.isScalar() || ifm2->shape != ofm->shape);
  return ifmCanSwap && ifm2CanBePrimary;
}

namespace {

/// Operations of the NPU regions of the same subgraph that run before `region` (none when `region` is
/// not one the framework finds, e.g. a test's own).
std::set<OperationId> operationsOfEarlierRegions(const Graph& graph, const NpuRegion& region) {
  std::set<OperationId> earlier;
  for (const NpuRegion& other : findNpuRegions(graph)) {
    if (other.subgraph != region.subgraph) {
      continue;
    }
    if (other.operations == region.operations) {
      return earlier;
    }
    earlier.insert(other.operations.begin(), other.operations.end());
  }
  return {};
}

} // namespace

SchedulingGraph::SchedulingGraph(const Graph& graph, const NpuRegion& region, const Accelerator& accelerator)
    : SchedulingGraph(graph, region, accelerator, {}) {}

SchedulingGraph::SchedulingGraph(const Graph& graph, const NpuRegion& region, const Accelerator& accelerator,
                                 std::map<TensorId, TensorFormat> decidedFormats)
    : subgraph_(&graph.subgraphs.at(static_cast<std::size_t>(region.subgraph))), region_(&region),
      accelerator_(&accelerator), inputs_(region.inputs.begin(), region.inputs.end()),
      outputs_(region.outputs.begin(), region.outputs.end()), decidedFormats_(std::move(decidedFormats)) {
  const Subgraph& subgraph = *subgraph_;
  for (const Operation& op : subgraph.operations) {
    for (const TensorId input : op.inputs) {
      if (subgraph.validTensorId(input)) {
        ++uses_[input].consumers;
      }
    }
    for (const TensorId output : op.outputs) {
      if (subgraph.validTensorId(output)) {
        ++uses_[output].producers;
      }
    }
  }
  const std::set<TensorId> subgraphInputs(subgraph.inputs.begin(), subgraph.inputs.end());
  const std::set<TensorId> subgraphOutputs(subgraph.outputs.begin(), subgraph.outputs.end());
  for (const TensorId output : subgraph.outputs) {
    ++uses_[output].consumers;
  }
  // Vela's extract_npu_subgraphs: an NPU subgraph input read by several operators, or that is also an
  // output of the network, must not be overwritten in place. Vela rewrites the NPU subgraphs in execution
  // order, each taking its readers of the tensor away before the next is judged, so readers in earlier
  // NPU regions do not count for a network input (for the protection nor for the single reader an
  // in-place write needs), nor for any other input of the region: a feature map that an earlier region
  // wrote and read is copied (MEMCPY) over itself in a later one.
  const std::set<OperationId> earlier = operationsOfEarlierRegions(graph, region);
  // A feature map that an earlier NPU subgraph wrote reaches this one through the CPU graph, whose copy
  // of it Vela always protects (rewrite_tensor_npu_producer_cpu_consumers: the producing subgraph's
  // output); the clone this subgraph reads keeps the protection.
  std::set<TensorId> writtenByOtherRegions;
  for (const Operation& op : subgraph.operations) {
    if (op.placement == Placement::Npu) {
      writtenByOtherRegions.insert(op.outputs.begin(), op.outputs.end());
    }
  }
  // The clone this subgraph reads is read only by this subgraph's operations: readers in later regions
  // and on the CPU count for the protection (judged on the original before they are moved) but not for
  // the single reader an in-place write needs, so a MEMCPY (which ignores the protection) may be written
  // over a network input that later regions also read.
  for (const TensorId input : region.inputs) {
    TensorUse& use = uses_[input];
    int consumers = use.consumers;
    for (const OperationId id : earlier) {
      const auto& inputs = subgraph.operation(id).inputs;
      consumers -= static_cast<int>(std::count(inputs.begin(), inputs.end(), input));
    }
    use.writeProtected = (subgraphInputs.contains(input) && consumers > 1) || subgraphOutputs.contains(input) ||
                         writtenByOtherRegions.contains(input);
    use.consumers = 0;
    for (const OperationId id : region.operations) {
      const auto& inputs = subgraph.operation(id).inputs;
      use.consumers += static_cast<int>(std::count(inputs.begin(), inputs.end(), input));
    }
  }
  for (std::size_t index = 0; index < region.operations.size(); ++index) {
    const OperationId id = region.operations[index];
    decideOutputFormats(subgraph.operation(id));
    operations_.push_back(makeOperation(static_cast<int>(index), id));
    const std::int64_t needed = operations_.back().fullFeatureMapBytes();
    if (needed > minimumMemory_) {
      minimumMemory_ = needed;
      minimumMemoryOperation_ = static_cast<int>(index);
    }
  }
  connect();
}

TensorUse SchedulingGraph::use(TensorId tensor) const {
  const auto it = uses_.find(tensor);
  return it == uses_.end() ? TensorUse{} : it->second;
}

TensorFormat SchedulingGraph::format(TensorId tensor) const {
  if (const auto decided = decidedFormats_.find(tensor); decided != decidedFormats_.end()) {
    return decided->second;
  }
  const auto it = formats_.find(tensor);
  return it == formats_.end() ? TensorFormat::NHWC : it->second;
}

std::int64_t SchedulingGraph::storageBytes(TensorId tensor) const {
  const Tensor& t = subgraph_->tensor(tensor);
  return accelerator_->layout().storageBytes(Shape4::fromShape(t.shape), t.type, format(tensor));
}

std::string SchedulingGraph::describe(int index) const {
  return subgraph_->describe(operation(index).id);
}

// Vela: Scheduler.create_scheduler_representation and avoid_nhcwb16_for_ofm. An OFM the lowering allows in
// the brick format gets it, unless an elementwise operation could then no longer write it over a linear
// input of the same shape (the brick format would pad a depth that is not a multiple of 16).
void SchedulingGraph::decideOutputFormats(const Operation& op) {
  const Subgraph& subgraph = *subgraph_;
  for (const TensorId output : op.outputs) {
    if (!subgraph.validTensorId(output) || outputs_.contains(output)) {
      continue;
    }
    const Tensor& tensor = subgraph.tensor(output);
    if (tensor.purpose != TensorPurpose::FeatureMap || tensor.format != TensorFormat::NHCWB16) {
      continue;
    }
    bool keepLinear = false;
    const Shape4 ofmShape = subgraph.ofmShape(op);
    if (isElementwise(op.type) && ofmShape.depth % 16 != 0) {
      const TensorId inputs[] = {op.ifm(), op.ifm2()};
      for (std::size_t i = 0; i < 2 && !keepLinear; ++i) {
        const Tensor* input = subgraph.findTensor(inputs[i]);
        keepLinear = input != nullptr && subgraph.ifmShape(op, i) == ofmShape && !input->shape.isScalar() &&
                     format(inputs[i]) == format(output) && input->type == tensor.type &&
                     format(inputs[i]) == TensorFormat::NHWC;
      }
    }
    if (keepLinear) {
      forcedLinear_.insert(output);
    } else {
      formats_[output] = TensorFormat::NHCWB16;
    }
  }
}

bool SchedulingGraph::isLinear(TensorId tensor) const {
  if (const auto decided = decidedFormats_.find(tensor); decided != decidedFormats_.end()) {
    return decided->second != TensorFormat::NHCWB16;
  }
  const Tensor* t = subgraph_->findTensor(tensor);
  return t == nullptr || t->format != TensorFormat::NHCWB16 || forcedLinear_.contains(tensor);
}

SchedulingOperation SchedulingGraph::makeOperation(int index, OperationId id) {
  const Subgraph& subgraph = *subgraph_;
  const Operation& op = subgraph.operation(id);
  const TensorLayout& layout = accelerator_->layout();
  const auto operand = [&](TensorId tensor, const Shape4& shape) {
    FeatureMapOperand result;
    if (!subgraph.validTensorId(tensor)) {
      return result;
    }
    result.tensor = tensor;
    result.shape = shape;
    result.type = subgraph.tensor(tensor).type;
    result.format = format(tensor);
    result.bytes = layout.storageBytes(shape, result.type, result.format);
    return result;
  };
  SchedulingOperation scheduled;
  scheduled.index = index;
  scheduled.id = id;
  scheduled.type = op.type;
  scheduled.name = op.name;
  scheduled.ifm = operand(op.ifm(), subgraph.ifmShape(op, 0));
  scheduled.ifm2 = operand(op.ifm2(), subgraph.ifmShape(op, 1));
  scheduled.ofm = operand(op.ofm(), subgraph.ofmShape(op, 0));
  scheduled.reversedOperands = swapsOperands(subgraph, op);
  if (scheduled.reversedOperands) {
    std::swap(scheduled.ifm, scheduled.ifm2);
  }
  const std::size_t primary = scheduled.reversedOperands ? 1 : 0;
  scheduled.ifmReadShape = op.readShapes[primary].value_or(scheduled.ifm.shape);
  if (scheduled.ifm2.present()) {
    scheduled.ifm2ReadShape = op.readShapes[1 - primary].value_or(scheduled.ifm2.shape);
  }
  scheduled.ofmWriteShape = op.writeShape.value_or(scheduled.ofm.shape);
  scheduled.kernel = op.kernel.value_or(Kernel{});
  scheduled.resampling = op.ifmResampling;
  scheduled.writesVariable =
      op.attributes.get<std::string>("memory_function") == std::optional<std::string>("VariableTensorWrite");
  scheduled.weights = subgraph.validTensorId(op.weights()) ? op.weights() : kNoTensor;
  scheduled.bias = subgraph.validTensorId(op.bias()) ? op.bias() : kNoTensor;

  // Vela: create_scheduler_representation's requirements on whole feature maps.
  scheduled.requiresFullIfm = inputs_.contains(scheduled.ifm.tensor) || isLinear(scheduled.ifm.tensor);
  scheduled.requiresFullIfm2 =
      scheduled.ifm2.present() && (inputs_.contains(scheduled.ifm2.tensor) || isLinear(scheduled.ifm2.tensor));
  scheduled.requiresFullOfm = outputs_.contains(scheduled.ofm.tensor) || isLinear(scheduled.ofm.tensor) ||
                              isConcatWrite(op) || op.outputs.size() > 1 || use(scheduled.ofm.tensor).consumers > 1;
  return scheduled;
}

void SchedulingGraph::connect() {
  std::map<TensorId, std::vector<int>> consumers;
  for (const SchedulingOperation& op : operations_) {
    consumers[op.ifm.tensor].push_back(op.index);
    if (op.ifm2.present()) {
      consumers[op.ifm2.tensor].push_back(op.index);
    }
  }
  for (SchedulingOperation& op : operations_) {
    op.ifmConsumerCount = static_cast<int>(consumers[op.ifm.tensor].size());
    const auto it = consumers.find(op.ofm.tensor);
    if (it != consumers.end()) {
      op.ofmConsumers = it->second;
    }
  }
}

std::optional<TensorId> inputOverwrittenByOfm(const SchedulingGraph& graph, int index, const TensorFilter& considered) {
  const Subgraph& subgraph = graph.subgraph();
  const Operation& op = graph.irOperation(index);
  const auto takesPart = [&](TensorId tensor) {
    const Tensor* t = subgraph.findTensor(tensor);
    return t != nullptr && t->purpose != TensorPurpose::Virtual && (!considered || considered(tensor));
  };
  const TensorId ofm = op.ofm();
  if (isElementwise(op.type) && !graph.operation(index).writesVariable) {
    if (!takesPart(ofm)) {
      return std::nullopt;
    }
    const Shape4 ofmShape = subgraph.ofmShape(op);
    const TensorId inputs[] = {op.ifm(), op.ifm2()};
    for (std::size_t i = 0; i < 2; ++i) {
      const Tensor* input = subgraph.findTensor(inputs[i]);
      if (input != nullptr && subgraph.ifmShape(op, i) == ofmShape && !input->shape.isScalar() &&
          !graph.use(inputs[i]).writeProtected && takesPart(inputs[i]) &&
          graph.format(inputs[i]) == graph.format(ofm) && input->type == subgraph.tensor(ofm).type &&
          graph.use(inputs[i]).consumers == 1 && graph.use(ofm).producers == 1) {
        return inputs[i];
      }
    }
  } else if (op.type == OpType::Memcpy) {
    const TensorId ifm = op.ifm();
    if (takesPart(ifm) && takesPart(ofm) && graph.use(ifm).consumers <= 1) {
      return ifm;
    }
  }
  return std::nullopt;
}

} // namespace npu::scheduling
