// SPDX-License-Identifier: Apache-2.0
// Memory-only operators on the NPU (Vela graph_optimiser_util.py bypass_memory_only_ops): the producer
// writes the operator's output directly, or, when the input must be kept (other readers, produced by
// the CPU, a graph input or a constant), the operator becomes a Memcpy.
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"

#include <algorithm>

namespace ethosu::lowering {

using namespace npu;

namespace {

bool isMemoryOnly(OpType type) {
  return type == OpType::Reshape || type == OpType::QuantizedReshape || type == OpType::Squeeze ||
         type == OpType::ExpandDims || type == OpType::Identity;
}

bool inputMustBeKept(const Subgraph& subgraph, TensorId ifm) {
  if (consumerCount(subgraph, ifm) > 1 || isSubgraphInput(subgraph, ifm) || subgraph.tensor(ifm).isConstant()) {
    return true;
  }
  const auto producers = producersOf(subgraph, ifm);
  if (producers.empty()) {
    return true; // Vela: read from a Placeholder, which never runs on the NPU
  }
  for (OperationId producer : producers) {
    if (subgraph.operation(producer).placement != Placement::Npu) {
      return true;
    }
  }
  return false;
}

/// Whether 2.1.1 makes the operation after remove_reshapes (rewriteOperators' "own_tensor_shapes").
bool ownTensorShapes(const Operation& op) {
  return op.attributes.getOr<bool>("own_tensor_shapes", false);
}

/// An operation 2.1.1 makes after remove_reshapes sees the tensor it now reads or writes in that tensor's
/// own shape (set_ifm_ofm_shapes), which its costs and block configs take ("vela21_ifm_shape",
/// "vela21_ifm2_shape", "vela21_ofm_shape"); the operation keeps the view it runs with.
void costWithOwnShape(Operation& op, const char* key, const Shape4& own) {
  op.attributes.set(key, std::vector<std::int64_t>{own.batch, own.height, own.width, own.depth});
}

/// rewrite_concat_ops flags the concatenation's output, not the tensor remove_reshapes has its copies
/// write instead: an unaligned write offset no longer keeps that one out of the brick format.
void keepBrickAtWriteOffset(Operation& writer) {
  if (writer.writeOffset) {
    writer.attributes.set("write_offset_keeps_brick", true);
  }
}

/// Vela 2.1.1 (fix_sg_input_output, remove_reshapes): every NPU RESHAPE goes without a copy. When the
/// output is a subgraph output, the input's producers write it and the input's readers read it; else the
/// output's readers read the input (a graph input, a CPU output or a constant alike). Only when the input
/// is a graph input, constant or subgraph output and the output a subgraph output too does an AvgPool copy
/// of the input ("<input>_avgpool") come first, so that both tensors survive. A reshape that changes the
/// quantisation stays a Memcpy; one that a CPU operation would see in another shape runs on the CPU.
void removeReshapesVela21(Subgraph& subgraph) {
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation op = subgraph.operations[i];
    if (op.placement != Placement::Npu || (op.type != OpType::Reshape && op.type != OpType::QuantizedReshape) ||
        op.inputs.empty() || op.outputs.size() != 1) {
      continue;
    }
    TensorId ifm = op.inputs[0];
    const TensorId ofm = op.ofm();
    const Quantisation& in = subgraph.tensor(ifm).quantisation;
    const Quantisation& out = subgraph.tensor(ofm).quantisation;
    // A CPU operation must keep the shape it was written for, as reader of the output or as writer of an
    // input the output replaces (2.1.1 rewires it too, which the written model could not express).
    const auto readsOutput = [ofm](const Operation& other) {
      return other.placement != Placement::Npu &&
             std::find(other.inputs.begin(), other.inputs.end(), ofm) != other.inputs.end();
    };
    bool cpuReader = std::any_of(subgraph.operations.begin(), subgraph.operations.end(), readsOutput);
    if (isSubgraphOutput(subgraph, ofm)) {
      for (const OperationId producer : producersOf(subgraph, ifm)) {
        cpuReader = cpuReader || subgraph.operation(producer).placement != Placement::Npu;
      }
    }
    if (cpuReader) {
      // It runs on the CPU with its neighbour instead, moving nothing (2.1.1's totals have no pass for it).
      subgraph.operations[i].placement = Placement::Cpu;
      subgraph.operations[i].placementReason = "a CPU operation reads or writes it in another shape";
      subgraph.operations[i].attributes.set("bypassed_reshape", true);
      subgraph.operations[i].attributes.set("no_pass", true);
      subgraph.operations[i].attributes.set("output_aliases_input", true);
      continue;
    }
    if (in.scale != out.scale || in.zeroPoint != out.zeroPoint) {
      // The copy reads only its input: a shape computed on the CPU is left to removeDeadOperations.
      subgraph.operations[i].type = OpType::Memcpy;
      subgraph.operations[i].inputs.resize(1);
      setDefaultShapes(subgraph, subgraph.operations[i]);
      continue;
    }
    const bool ifmIsGraphInput =
        isSubgraphInput(subgraph, ifm) || subgraph.tensor(ifm).isConstant() || producersOf(subgraph, ifm).empty();
    const bool ofmIsOutput = isSubgraphOutput(subgraph, ofm);
    if (ofmIsOutput && (ifmIsGraphInput || isSubgraphOutput(subgraph, ifm))) {
      const TensorId copy = cloneTensor(subgraph, ifm, "_clone");
      Operation nop = makeAvgPoolNop(op, subgraph.tensor(ifm).name + "_avgpool");
      // Every reader reads the copy (insert_copy_op_after_tens), so it comes before the first of them.
      std::size_t position = i;
      for (std::size_t reader = 0; reader < i; ++reader) {
        const auto& inputs = subgraph.operations[reader].inputs;
        if (std::find(inputs.begin(), inputs.end(), ifm) != inputs.end()) {
          position = reader;
          break;
        }
      }
      for (Operation& reader : subgraph.operations) {
        std::replace(reader.inputs.begin(), reader.inputs.end(), ifm, copy);
      }
      nop.inputs = {ifm};
      nop.outputs = {copy};
      setDefaultShapes(subgraph, nop);
      subgraph.operations.insert(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(position), std::move(nop));
      ++i;
      ifm = copy;
    }
    subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
    const bool memoryOnlyPass = op.attributes.getOr<std::int64_t>("memory_only_pass", 0) != 0;
    if (memoryOnlyPass) {
      // Its operator does not run on the NPU, so 2.1.1 stores the input linearly and leaves it (and the
      // output, which no NPU pass writes) out of fast storage (scheduler use_fast_storage).
      for (const OperationId producer : producersOf(subgraph, ifm)) {
        Operation& writer = subgraph.operation(producer);
        if (writer.placement == Placement::Npu && writer.outputs.size() == 1) {
          writer.attributes.set("linear_ofm_tensor", static_cast<std::int64_t>(ifm));
          writer.attributes.set("ofm_off_fast_storage", std::int64_t{1}); // its only output, whatever its id
        }
      }
    }
    const Shape4 view = shape4Of(subgraph, ofm);
    const Shape4 inputShape = shape4Of(subgraph, ifm);
    if (ofmIsOutput) {
      for (Operation& other : subgraph.operations) {
        if (other.attributes.getOr<std::int64_t>("linear_ofm_tensor", -1) == static_cast<std::int64_t>(ifm)) {
          other.attributes.set("linear_ofm_tensor", static_cast<std::int64_t>(ofm));
        }
        if (!other.outputs.empty() && other.outputs.front() == ifm && !memoryOnlyPass) {
          keepBrickAtWriteOffset(other);
          if (ownTensorShapes(other)) {
            costWithOwnShape(other, "vela21_ofm_shape", view);
          }
        }
        for (std::size_t input = 0; input < other.inputs.size() && input < other.ifmShapes.size(); ++input) {
          if (other.inputs[input] == ifm && input < 2 && ownTensorShapes(other) && !memoryOnlyPass) {
            costWithOwnShape(other, input == 0 ? "vela21_ifm_shape" : "vela21_ifm2_shape", view);
          }
        }
        std::replace(other.outputs.begin(), other.outputs.end(), ifm, ofm);
        std::replace(other.inputs.begin(), other.inputs.end(), ifm, ofm);
      }
    } else {
      // The readers read the input in the shape they were written for (the reshape's output shape),
      // unless they see it in a view of their own (a SOFTMAX's max pool reads [1, H*W, C, 1]): 2.1.1's
      // remove_reshapes leaves the readers' IFM shapes as they are.
      for (Operation& reader : subgraph.operations) {
        for (std::size_t input = 0; input < reader.inputs.size() && input < reader.ifmShapes.size(); ++input) {
          const Shape4& seen = reader.ifmShapes[input];
          const bool ownView = seen != view && seen != inputShape && seen.elements() == view.elements();
          if (reader.inputs[input] == ofm && input < 2 && !memoryOnlyPass) {
            // The split's part flag was the RESHAPE's output's (rewrite_split_ops), which is gone.
            reader.attributes.set(input == 0 ? "ifm_split_part_unaligned" : "ifm2_split_part_unaligned", false);
          }
          if (reader.inputs[input] == ofm && input < 2 && !memoryOnlyPass && ownTensorShapes(reader)) {
            costWithOwnShape(reader, input == 0 ? "vela21_ifm_shape" : "vela21_ifm2_shape", inputShape);
          }
          if (reader.inputs[input] == ofm && !ownView) {
            reader.ifmShapes[input] = view;
          }
          if (reader.inputs[input] == ofm && memoryOnlyPass && input < 2) {
            // 2.1.1 reads the memory-only pass's output, a tensor of its own in this shape: the view
            // does not keep its bursts out of the brick format.
            const std::int64_t slots = reader.attributes.getOr<std::int64_t>("brick_bursts_ifm", 0);
            reader.attributes.set("brick_bursts_ifm", slots | (std::int64_t{1} << input));
          }
        }
      }
      replaceTensorReads(subgraph, ofm, ifm);
    }
  }
}

/// Vela 2.1.1's pass packing makes every SQUEEZE, EXPAND_DIMS, RESHAPE and QuantizedReshape a memory-only
/// pass, whichever processor its operator was placed on, and extract_subgraph moves a memory-only pass onto
/// the NPU when the nearest other pass before it (walking forward) or after it (walking backward) is an NPU
/// pass: such an operator does not cut the NPU subgraph. Its input and output share one live range, so it
/// is removed as an NPU RESHAPE is (removeReshapesVela21). The walk follows 2.1.1's pass list, the order
/// pack_into_passes builds walking back from the outputs (velaPassOrder), not the model's operation order:
/// a memory-only pass the walk reaches last (e.g. on a graph input feeding only a graph output) comes
/// first and has no NPU pass before it.
void placeMemoryOnlyBesideNpuVela21(Subgraph& subgraph) {
  const auto memoryOnly = [](const Operation& op) {
    return op.type == OpType::Reshape || op.type == OpType::QuantizedReshape || op.type == OpType::Squeeze ||
           op.type == OpType::ExpandDims;
  };
  const std::vector<std::size_t> order = velaPassOrder(subgraph);
  const std::size_t count = order.size();
  std::vector<bool> toNpu(subgraph.operations.size(), false);
  for (int direction = 0; direction < 2; ++direction) {
    Placement last = Placement::Cpu;
    for (std::size_t step = 0; step < count; ++step) {
      const std::size_t i = order[direction == 0 ? step : count - 1 - step];
      const Operation& op = subgraph.operations[i];
      if (!memoryOnly(op)) {
        last = op.placement;
      } else if (last == Placement::Npu) {
        toNpu[i] = true;
      }
    }
  }
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    Operation& op = subgraph.operations[i];
    if (toNpu[i] && op.placement != Placement::Npu && !op.inputs.empty() && op.outputs.size() == 1) {
      op.placement = Placement::Npu;
      op.placementReason.clear();
      op.attributes.set("memory_only_pass", std::int64_t{1});
      op.type = op.type == OpType::QuantizedReshape ? op.type : OpType::Reshape;
    }
  }
}

/// A RESHAPE left on the CPU next to a CPU operation is one 2.1.1 removes all the same (its remove_reshapes
/// rewires the CPU neighbour): pack_into_passes, walking from the outputs, no longer reaches the CPU side
/// chain (SHAPE, STRIDED_SLICE, PACK) that computed its shape, so that chain has no passes and its tensors
/// no live ranges. Marks each CPU operation whose outputs serve only such shapes "no_pass".
void markRemovedShapeChainsVela21(Subgraph& subgraph) {
  const auto servesOnlyRemovedShapes = [&subgraph](TensorId tensor) {
    bool used = false;
    for (const Operation& reader : subgraph.operations) {
      for (std::size_t input = 0; input < reader.inputs.size(); ++input) {
        if (reader.inputs[input] != tensor) {
          continue;
        }
        used = true;
        const bool bypassed = reader.attributes.getOr<bool>("bypassed_reshape", false);
        if (bypassed ? input == 0 : !reader.attributes.getOr<bool>("no_pass", false)) {
          return false;
        }
      }
    }
    return used && !isSubgraphOutput(subgraph, tensor);
  };
  for (std::size_t i = subgraph.operations.size(); i-- > 0;) {
    Operation& op = subgraph.operations[i];
    if (op.placement == Placement::Npu || op.outputs.empty() || op.attributes.getOr<bool>("bypassed_reshape", false)) {
      continue;
    }
    if (std::all_of(op.outputs.begin(), op.outputs.end(), servesOnlyRemovedShapes)) {
      op.attributes.set("no_pass", true);
    }
  }
}

} // namespace

void removeReshapesAfterRewrites(Subgraph& subgraph, const LoweringContext& context) {
  if (context.release == VelaRelease::V2_1) {
    placeMemoryOnlyBesideNpuVela21(subgraph);
    removeReshapesVela21(subgraph);
    markRemovedShapeChainsVela21(subgraph);
  }
}

void bypassMemoryOnlyOperations(Subgraph& subgraph, const LoweringContext& context) {
  if (context.release == VelaRelease::V2_1) {
    return; // removeReshapesAfterRewrites
  }
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    Operation& op = subgraph.operations[i];
    if (op.placement != Placement::Npu || !isMemoryOnly(op.type) || op.inputs.empty()) {
      continue;
    }
    const TensorId ifm = op.inputs[0];
    const TensorId ofm = op.ofm();
    if (inputMustBeKept(subgraph, ifm)) {
      // The copy keeps every input, as Vela's Memcpy pass does: a RESHAPE's shape constant stays an
      // input and is laid out in the read-only area like any other constant a pass reads.
      op.type = OpType::Memcpy;
      setDefaultShapes(subgraph, op);
      continue;
    }
    for (OperationId producer : producersOf(subgraph, ifm)) {
      for (TensorId& output : subgraph.operation(producer).outputs) {
        if (output == ifm) {
          output = ofm;
        }
      }
    }
    subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
  }
}

void removePassThroughOperations(Subgraph& subgraph, const LoweringContext& /*context*/) {
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation op = subgraph.operations[i];
    if (op.type != OpType::Identity || op.inputs.empty() || op.outputs.size() != 1) {
      continue;
    }
    subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
    replaceTensorReads(subgraph, op.ofm(), op.ifm());
  }
}

} // namespace ethosu::lowering
