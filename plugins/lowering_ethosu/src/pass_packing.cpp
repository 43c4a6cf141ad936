// SPDX-License-Identifier: Apache-2.0
// Pass packing (Vela pass_packing.py pack_into_passes): stand-alone ReLUs merged into their producers or
// given an AvgPool primary operation, and the operations ordered like Vela's pass list (a depth-first walk
// from the subgraph outputs, then CPU passes grouped). Also dead-code removal and tensor compaction.
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"

#include <algorithm>
#include <map>

namespace ethosu::lowering {

using namespace npu;

void removeDeadOperations(Subgraph& subgraph, const LoweringContext& /*context*/) {
  std::vector<bool> live(subgraph.tensors.size(), false);
  for (TensorId output : subgraph.outputs) {
    if (subgraph.validTensorId(output)) {
      live[static_cast<std::size_t>(output)] = true;
    }
  }
  std::vector<bool> keep(subgraph.operations.size(), false);
  for (std::size_t i = subgraph.operations.size(); i-- > 0;) {
    const Operation& op = subgraph.operations[i];
    const bool used = std::any_of(op.outputs.begin(), op.outputs.end(), [&](TensorId output) {
      return subgraph.validTensorId(output) && live[static_cast<std::size_t>(output)];
    });
    if (!used) {
      continue;
    }
    keep[i] = true;
    for (TensorId input : op.inputs) {
      if (subgraph.validTensorId(input)) {
        live[static_cast<std::size_t>(input)] = true;
      }
    }
  }
  std::vector<Operation> kept;
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    if (keep[i]) {
      kept.push_back(std::move(subgraph.operations[i]));
    }
  }
  subgraph.operations = std::move(kept);
}

void markTensorPurposes(Subgraph& subgraph, const LoweringContext& /*context*/) {
  // Vela's reader gives every convolution and fully connected layer its own copy of its bias (the
  // encoded scales depend on the operation), with an identity of its own: a bias is never stored once
  // for two operations, even when the model shares it (tflite_reader.py, parse_operator). Biases that
  // lowering created (an unrolled LSTM's gates share theirs) stay shared.
  const auto readAsOwnBias = [](const Operation& op) {
    return !op.attributes.has("original_type") &&
           (op.sourceType == "CONV_2D" || op.sourceType == "DEPTHWISE_CONV_2D" || op.sourceType == "FULLY_CONNECTED" ||
            op.sourceType == "TRANSPOSE_CONV");
  };
  std::vector<bool> claimed(subgraph.tensors.size(), false);
  for (Operation& op : subgraph.operations) {
    const TensorId bias = op.bias();
    if (op.placement != Placement::Npu || bias == kNoTensor || !subgraph.tensor(bias).isConstant() ||
        isSharedByContent(subgraph.tensor(bias)) || !readAsOwnBias(op)) {
      continue;
    }
    if (claimed[static_cast<std::size_t>(bias)]) {
      Tensor copy = subgraph.tensor(bias);
      const TensorId own = subgraph.addTensor(std::move(copy));
      std::replace(op.inputs.begin(), op.inputs.end(), bias, own);
      claimed.push_back(true);
      subgraph.tensor(own).equivalenceId = -1;
    } else {
      claimed[static_cast<std::size_t>(bias)] = true;
      subgraph.tensor(bias).equivalenceId = -1;
    }
  }
  for (const Operation& op : subgraph.operations) {
    if (op.placement != Placement::Npu) {
      continue;
    }
    if (op.weights() != kNoTensor && subgraph.tensor(op.weights()).isConstant()) {
      subgraph.tensor(op.weights()).purpose = TensorPurpose::Weights;
    }
    if (op.bias() != kNoTensor && subgraph.tensor(op.bias()).isConstant()) {
      subgraph.tensor(op.bias()).purpose = TensorPurpose::ScalesBiases;
    }
    if (op.activation && op.activation->lut != kNoTensor) {
      subgraph.tensor(op.activation->lut).purpose = TensorPurpose::Lut;
    }
  }
  for (Tensor& tensor : subgraph.tensors) {
    if (tensor.isVariable) {
      tensor.purpose = TensorPurpose::State;
    } else if (!tensor.isConstant()) {
      tensor.purpose = TensorPurpose::FeatureMap;
    } else if (tensor.purpose == TensorPurpose::Unknown) {
      tensor.purpose = TensorPurpose::FeatureMap; // constant operand of an elementwise or CPU operation
    }
  }
}

namespace {

bool isStandaloneActivation(OpType type) {
  return isReluLike(type) || type == OpType::Sigmoid || type == OpType::Tanh;
}

bool isMacOrElementwise(OpType type) {
  return is(type, OpCategory::Convolution) || is(type, OpCategory::DepthwiseConvolution) ||
         is(type, OpCategory::VectorProduct) || is(type, OpCategory::Pooling) || type == OpType::ReduceSum ||
         isElementwise(type);
}

/// Records `activation` as the one the pass's commands (and Vela 3.10's final figures) apply, while the
/// operation keeps its own for scheduling.
void setCommandStreamActivation(Operation& op, const Activation& activation) {
  op.attributes.set("command_stream_activation", std::string(nameOf(activation.type)));
  if (activation.min) {
    op.attributes.set("command_stream_activation_min", *activation.min);
  }
  if (activation.max) {
    op.attributes.set("command_stream_activation_max", *activation.max);
  }
}

/// Merges each stand-alone activation into its producer when Vela's can_pack allows it, else gives it
/// an AvgPool primary operation (Vela build_pass / create_primary_op).
void packActivations(Subgraph& subgraph, VelaRelease release) {
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    Operation& op = subgraph.operations[i];
    if (op.placement != Placement::Npu || !isStandaloneActivation(op.type) || op.inputs.empty()) {
      continue;
    }
    const bool reluLike = isReluLike(op.type);
    const auto producers = producersOf(subgraph, op.ifm());
    if (reluLike && producers.size() == 1) {
      Operation& producer = subgraph.operation(producers.front());
      const bool packable =
          producer.placement == Placement::Npu && isMacOrElementwise(producer.type) && producer.outputs.size() == 1 &&
          consumerCount(subgraph, producer.ofm()) == 1 &&
          (producer.ofmShapes.empty() || op.ifmShapes.empty() || producer.ofmShapes[0] == op.ifmShapes[0]);
      if (packable) {
        // A producer with a fused activation of its own keeps it for scheduling (scheduler.py
        // SchedulerOperation takes ps.primary_op.activation), but the packed ReLU replaces it when the
        // pass becomes commands (high_level_command_stream_generator.py), so the final figures and the
        // command stream use the ReLU: recorded as "command_stream_activation" (with its clamp).
        // Vela 2.1.1's search costs the pass with the producer's own activation too (none for a
        // producer without one): the ReLU is the pass's only from the command stream on.
        if (!producer.activation && release == VelaRelease::V3_10) {
          producer.activation = activationFromOperation(op);
        } else {
          setCommandStreamActivation(producer, activationFromOperation(op));
        }
        producer.outputs = op.outputs;
        // The pass writes the activation's OFM: its shape is the pass's (Vela's pass_packing takes the
        // last operation's ofm_shapes), e.g. a ReLU reading a slice of the producer's OFM.
        if (!op.ofmShapes.empty()) {
          producer.ofmShapes = op.ofmShapes;
        }
        producer.attributes.set("packed_operations",
                                producer.attributes.getOr<std::int64_t>("packed_operations", 0) + 1);
        // The producer's own OFM is now an intermediate of the pass, which 2.1.1's cost model reads.
        if (release == VelaRelease::V2_1) {
          producer.attributes.set("ofm_of_packed_activation", true);
        }
        subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
        --i;
        continue;
      }
    }
    Operation primary = makeAvgPoolNop(op, op.name + "_avgpool");
    primary.inputs = {op.ifm()};
    primary.outputs = op.outputs;
    // Vela's create_primary_op makes a new 1x1 AvgPool with no activation of its own: the scheduler
    // costs the pass without it (e.g. the slack it gives the next operation's weight DMA), and the
    // stand-alone activation is attached only when the pass becomes commands
    // (high_level_command_stream_generator.py), which the final figures follow (both releases).
    setCommandStreamActivation(primary, activationFromOperation(op));
    primary.ifmShapes = op.ifmShapes;
    primary.ofmShapes = op.ofmShapes;
    primary.readOffsets = op.readOffsets;
    primary.readShapes = op.readShapes;
    if (op.attributes.getOr<bool>("ifm_split_part_unaligned", false)) {
      primary.attributes.set("ifm_split_part_unaligned", true);
    }
    primary.attributes.set("packed_operations", std::int64_t{1});
    primary.attributes.set("pass_primary_nop", true);
    if (primary.ifmShapes.empty()) {
      setDefaultShapes(subgraph, primary);
    }
    op = std::move(primary);
  }
}

/// Vela 2.1.1's pack_into_passes packs post-operations (RELUs, and LOGISTIC, TANH and QUANTIZE, which
/// it fuses with no main operation) into one pass as long as it meets no main operation: a chain of them,
/// each the only reader of the one before, is one AvgPool nop pass from the first one's IFM to the last
/// one's OFM, named after the first (build_pass, create_primary_op). Merges each such nop into the nop
/// that produces its IFM.
void mergePostOperationChains(Subgraph& subgraph) {
  const auto isNop = [](const Operation& op) {
    return op.placement == Placement::Npu && op.attributes.getOr<bool>("pass_primary_nop", false);
  };
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation& op = subgraph.operations[i];
    if (!isNop(op) || op.inputs.empty()) {
      continue;
    }
    const auto producers = producersOf(subgraph, op.ifm());
    if (producers.size() != 1 || static_cast<std::size_t>(producers.front()) == i) {
      continue;
    }
    Operation& producer = subgraph.operation(producers.front());
    const bool packable =
        isNop(producer) && producer.outputs.size() == 1 && consumerCount(subgraph, producer.ofm()) == 1 &&
        (producer.ofmShapes.empty() || op.ifmShapes.empty() || producer.ofmShapes[0] == op.ifmShapes[0]);
    if (!packable) {
      continue;
    }
    producer.outputs = op.outputs;
    producer.ofmShapes = op.ofmShapes;
    if (op.activation) {
      producer.activation = op.activation; // the last activation of the pass is the one it runs
    }
    producer.attributes.set("packed_operations", producer.attributes.getOr<std::int64_t>("packed_operations", 1) +
                                                     op.attributes.getOr<std::int64_t>("packed_operations", 1));
    subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
  }
}

} // namespace

std::vector<std::size_t> velaPassOrder(const Subgraph& subgraph) {
  const std::size_t tensorCount = subgraph.tensors.size();
  std::vector<int> readers(tensorCount, 0);
  std::vector<std::vector<std::size_t>> producers(tensorCount);
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    for (TensorId input : subgraph.operations[i].inputs) {
      if (subgraph.validTensorId(input)) {
        ++readers[static_cast<std::size_t>(input)];
      }
    }
    for (TensorId output : subgraph.operations[i].outputs) {
      producers[static_cast<std::size_t>(output)].push_back(i);
    }
  }
  for (TensorId output : subgraph.outputs) {
    ++readers[static_cast<std::size_t>(output)];
  }
  std::vector<int> tensorVisits(tensorCount, 0);
  std::vector<int> operationVisits(subgraph.operations.size(), 0);
  std::vector<std::size_t> reversed;
  // Explicit stack instead of Vela's recursion: each entry is a tensor visit.
  std::vector<TensorId> pending;
  const auto visitOperation = [&](std::size_t index, std::vector<TensorId>& next) {
    const Operation& op = subgraph.operations[index];
    int& visits = operationVisits[index];
    ++visits;
    if (visits == 1) {
      for (TensorId output : op.outputs) {
        if (readers[static_cast<std::size_t>(output)] == 0) {
          ++visits;
        }
      }
    }
    if (visits != static_cast<int>(op.outputs.size())) {
      return;
    }
    reversed.push_back(index);
    // Vela visits the pass inputs in order, once per occurrence; the recursion is depth first.
    for (TensorId input : op.inputs) {
      if (subgraph.validTensorId(input)) {
        next.push_back(input);
      }
    }
  };
  const std::function<void(TensorId)> visitTensor = [&](TensorId tensor) {
    auto& visits = tensorVisits[static_cast<std::size_t>(tensor)];
    ++visits;
    if (visits != readers[static_cast<std::size_t>(tensor)]) {
      return;
    }
    const auto& writers = producers[static_cast<std::size_t>(tensor)];
    for (auto it = writers.rbegin(); it != writers.rend(); ++it) {
      std::vector<TensorId> next;
      visitOperation(*it, next);
      for (TensorId input : next) {
        visitTensor(input);
      }
    }
  };
  for (TensorId output : subgraph.outputs) {
    visitTensor(output);
  }
  std::reverse(reversed.begin(), reversed.end());
  // Operations the walk did not reach (e.g. with no outputs) keep their place at the end.
  std::vector<bool> reached(subgraph.operations.size(), false);
  for (const std::size_t index : reversed) {
    reached[index] = true;
  }
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    if (!reached[i]) {
      reversed.push_back(i);
    }
  }
  return reversed;
}

namespace {

/// Reshapes left on the CPU (e.g. with a shape computed at run time) form passes of their own kind in
/// Vela: placement MemoryOnly, not Cpu (pass_packing.py memory_only_ops). A CPU pass is never moved past
/// one, and they themselves stay where they are; only when cutting NPU subgraphs do they count as CPU.
bool isMemoryOnlyPass(const Operation& op) {
  return op.placement == Placement::Cpu && (op.type == OpType::Reshape || op.type == OpType::Squeeze ||
                                            op.type == OpType::ExpandDims || op.type == OpType::QuantizedReshape);
}

/// Vela's grouping of CPU passes: those reading only subgraph inputs go first (in model order), the
/// others move down to the next CPU pass when nothing in between needs them.
std::vector<std::size_t> groupCpuPasses(const Subgraph& subgraph, const std::vector<std::size_t>& order) {
  const auto isCpuPass = [&](std::size_t index) {
    const Operation& op = subgraph.operations[index];
    return op.placement == Placement::Cpu && !isMemoryOnlyPass(op);
  };
  std::vector<std::size_t> top;
  std::vector<std::size_t> rest;
  for (std::size_t index : order) {
    const Operation& op = subgraph.operations[index];
    TensorId ifm2 = op.ifm2();
    if (ifm2 == kNoTensor && op.type == OpType::FullyConnected && op.weights() != kNoTensor &&
        !subgraph.tensor(op.weights()).isConstant()) {
      ifm2 = op.weights();
    }
    const bool readsOnlyInputs =
        isSubgraphInput(subgraph, op.ifm()) && (ifm2 == kNoTensor || isSubgraphInput(subgraph, ifm2));
    if (isCpuPass(index) && readsOnlyInputs) {
      top.push_back(index);
    } else {
      rest.push_back(index);
    }
  }
  std::stable_sort(top.begin(), top.end(), [&](std::size_t a, std::size_t b) {
    return subgraph.operations[a].sourceIndex < subgraph.operations[b].sourceIndex;
  });
  const std::vector<std::size_t> snapshot = rest;
  for (auto it = snapshot.rbegin(); it != snapshot.rend(); ++it) {
    const std::size_t cpu = *it;
    if (!isCpuPass(cpu)) {
      continue;
    }
    auto position = std::find(rest.begin(), rest.end(), cpu);
    const auto outputs = subgraph.operations[cpu].outputs;
    for (auto next = position + 1; next != rest.end(); ++next) {
      const Operation& following = subgraph.operations[*next];
      if (isCpuPass(*next)) {
        const std::size_t target = *next;
        rest.erase(position);
        rest.insert(std::find(rest.begin(), rest.end(), target), cpu);
        break;
      }
      const bool dependent =
          isMemoryOnlyPass(following) || std::any_of(outputs.begin(), outputs.end(), [&](TensorId output) {
            return output == following.ifm() || output == following.ifm2();
          });
      if (dependent) {
        break;
      }
      if (next + 1 == rest.end()) {
        rest.erase(position);
        rest.push_back(cpu);
        break;
      }
    }
  }
  top.insert(top.end(), rest.begin(), rest.end());
  return top;
}

} // namespace

namespace {

/// The operation types an Ethos-U pass can have as its main operation (Vela pass_packing.py mac_main_ops,
/// elem_wise_main_ops and memcpy_ops).
bool isHardwareOperation(OpType type) {
  switch (type) {
  case OpType::Conv2DBias:
  case OpType::DepthwiseConv2DBias:
  case OpType::FullyConnected:
  case OpType::Conv2DBackpropInputSwitchedBias:
  case OpType::AvgPool:
  case OpType::MaxPool:
  case OpType::ReduceSum:
  case OpType::ResizeBilinear:
  case OpType::ResizeNearestNeighbor:
  case OpType::Memcpy:
    return true;
  default:
    return isElementwise(type) && type != OpType::SquaredDifference && type != OpType::Exp && type != OpType::Rsqrt;
  }
}

/// An operation the accelerator accepted but that no rewrite turned into something the hardware runs stays
/// on the CPU (Vela packs such operations into CPU passes too), so an over-permissive support check never
/// leaves an operation on the NPU that cannot run there.
void keepUnloweredOperationsOnCpu(Subgraph& subgraph) {
  for (Operation& op : subgraph.operations) {
    if (op.placement == Placement::Npu && !isHardwareOperation(op.type)) {
      op.placement = Placement::Cpu;
      op.placementReason = "the Ethos-U lowering has no NPU form of " + std::string(nameOf(op.type));
    }
  }
}

} // namespace

void packPasses(Subgraph& subgraph, const LoweringContext& context) {
  packActivations(subgraph, context.release);
  if (context.release == VelaRelease::V2_1) {
    mergePostOperationChains(subgraph);
  }
  keepUnloweredOperationsOnCpu(subgraph);
  // Vela 2.1.1's pack_into_passes keeps its walk's order: it does not group CPU passes.
  const std::vector<std::size_t> walk = velaPassOrder(subgraph);
  const std::vector<std::size_t> order = context.release == VelaRelease::V2_1 ? walk : groupCpuPasses(subgraph, walk);
  std::vector<Operation> ordered;
  ordered.reserve(order.size());
  for (std::size_t index : order) {
    ordered.push_back(std::move(subgraph.operations[index]));
  }
  subgraph.operations = std::move(ordered);
}

void removeUnusedTensors(Subgraph& subgraph, const LoweringContext& /*context*/) {
  std::vector<bool> used(subgraph.tensors.size(), false);
  const auto mark = [&](TensorId id) {
    if (subgraph.validTensorId(id)) {
      used[static_cast<std::size_t>(id)] = true;
    }
  };
  for (const Operation& op : subgraph.operations) {
    std::for_each(op.inputs.begin(), op.inputs.end(), mark);
    std::for_each(op.outputs.begin(), op.outputs.end(), mark);
    std::for_each(op.intermediates.begin(), op.intermediates.end(), mark);
    if (op.activation) {
      mark(op.activation->lut);
    }
  }
  std::for_each(subgraph.inputs.begin(), subgraph.inputs.end(), mark);
  std::for_each(subgraph.outputs.begin(), subgraph.outputs.end(), mark);
  std::vector<TensorId> remap(subgraph.tensors.size(), kNoTensor);
  std::vector<Tensor> kept;
  for (std::size_t i = 0; i < subgraph.tensors.size(); ++i) {
    if (used[i]) {
      remap[i] = static_cast<TensorId>(kept.size());
      kept.push_back(std::move(subgraph.tensors[i]));
    }
  }
  const auto renumber = [&](TensorId& id) {
    if (subgraph.validTensorId(id)) {
      id = remap[static_cast<std::size_t>(id)];
    }
  };
  for (Operation& op : subgraph.operations) {
    std::for_each(op.inputs.begin(), op.inputs.end(), renumber);
    std::for_each(op.outputs.begin(), op.outputs.end(), renumber);
    std::for_each(op.intermediates.begin(), op.intermediates.end(), renumber);
    if (op.activation) {
      renumber(op.activation->lut);
    }
  }
  std::for_each(subgraph.inputs.begin(), subgraph.inputs.end(), renumber);
  std::for_each(subgraph.outputs.begin(), subgraph.outputs.end(), renumber);
  subgraph.tensors = std::move(kept);
}

} // namespace ethosu::lowering
