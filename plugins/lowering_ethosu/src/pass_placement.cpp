// SPDX-License-Identifier: Apache-2.0
// Static constant folding, placement through the accelerator's support checks, and the 4D operation
// shapes (Vela tflite_graph_optimiser.py: optimise_quantize, convert_shape_op_to_constant_tensor,
// fixup_pool_strides, supported_operator_check, set_ifm_ofm_op_shapes).
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

#include "ethosu/support/vela21_support.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace ethosu::lowering {

using namespace npu;

namespace {

/// QUANTIZE of a constant becomes the requantised constant (Vela optimise_quantize). Vela requantises
/// int->int in fixed point; the doubles here round the same for every value a weight tensor holds.
bool foldConstantQuantize(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Quantize || op.inputs.empty() || op.outputs.empty()) {
    return false;
  }
  const Tensor& ifm = subgraph.tensor(op.inputs[0]);
  if (!ifm.isConstant()) {
    return false;
  }
  const Tensor& ofm = subgraph.tensor(op.outputs[0]);
  const bool integerToInteger = ifm.type == ofm.type && (ifm.type == DataType::Int8 || ifm.type == DataType::Int16);
  if (!integerToInteger && !isFloat(ifm.type)) {
    return false;
  }
  const double outScale = ofm.quantisation.scaleAt(0);
  const auto outZero = static_cast<double>(ofm.quantisation.zeroPointAt(0));
  std::vector<std::int64_t> values;
  for (const double value : ifm.floatValues()) {
    const double real =
        integerToInteger ? (value - static_cast<double>(ifm.quantisation.zeroPointAt(0))) * ifm.quantisation.scaleAt(0)
                         : value;
    const double quantised = integerToInteger ? std::round(real / outScale) + outZero : real / outScale + outZero;
    values.push_back(std::clamp(static_cast<std::int64_t>(quantised), quantisedMin(ofm.type), quantisedMax(ofm.type)));
  }
  const TensorId folded = addConstant(subgraph, ofm.name, ofm.shape, ofm.type, values, ofm.quantisation);
  replaceTensorReads(subgraph, op.outputs[0], folded);
  return true;
}

/// SHAPE of a tensor with a known shape becomes a constant (Vela convert_shape_op_to_constant_tensor).
bool foldShape(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Shape || op.inputs.empty() || op.outputs.empty()) {
    return false;
  }
  const Shape& inputShape = subgraph.tensor(op.inputs[0]).shape;
  const Tensor& ofm = subgraph.tensor(op.outputs[0]);
  if (ofm.shape.rank() != 1 || ofm.shape[0] != inputShape.rank()) {
    return false;
  }
  std::vector<std::int64_t> values(inputShape.dims().begin(), inputShape.dims().end());
  const TensorId folded = addConstant(subgraph, ofm.name, ofm.shape, ofm.type, values, ofm.quantisation);
  replaceTensorReads(subgraph, op.outputs[0], folded);
  return true;
}

/// A pool whose kernel and stride both cover the whole IFM needs no stride (Vela fixup_pool_strides).
void fixupPoolStrides(const Subgraph& subgraph, Operation& op) {
  if (!is(op.type, OpCategory::Pooling) || op.type == OpType::ResizeBilinear ||
      op.type == OpType::ResizeNearestNeighbor || !op.kernel || op.inputs.empty()) {
    return;
  }
  const Shape& ifm = subgraph.tensor(op.inputs[0]).shape;
  if (ifm.rank() < 3) {
    return;
  }
  Kernel& kernel = *op.kernel;
  if (kernel.width == kernel.strideX && kernel.width == ifm.back(1) && kernel.height == kernel.strideY &&
      kernel.height == ifm.back(2)) {
    kernel.strideX = 1;
    kernel.strideY = 1;
    op.padding = Padding::Valid;
  }
}

/// 3.10 constraints that 2.1.1 does not have (its own checks, checkVela21Restrictions, stand instead):
/// RESIZE_BILINEAR upscales by any number of 2x steps and knows no half-pixel centres; a RESHAPE may take
/// its shape from another operation (2.1.1 removes it all the same).
bool relaxedByVela21(OpType type, const std::string& constraint) {
  if (type == OpType::ResizeBilinear) {
    return constraint == "resize" || constraint == "resize_size" || constraint == "resize_attrs" ||
           constraint == "resizebi_half_pixel_centers_dims";
  }
  return type == OpType::Reshape && constraint == "reshape_shape_constant";
}

} // namespace

void foldConstantOperations(Subgraph& subgraph, const LoweringContext& context) {
  if (context.release == VelaRelease::V2_1) {
    return; // 2.1.1 has neither optimise_quantize, convert_shape_op_to_constant_tensor nor fixup_pool_strides
  }
  std::vector<Operation> kept;
  kept.reserve(subgraph.operations.size());
  // Folding rewires readers of the folded output, so work on the subgraph as it changes.
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    Operation op = subgraph.operations[i];
    if (foldConstantQuantize(subgraph, op) || foldShape(subgraph, op)) {
      continue;
    }
    fixupPoolStrides(subgraph, op);
    kept.push_back(std::move(op));
  }
  subgraph.operations = std::move(kept);
}

void placeOperations(Subgraph& subgraph, const LoweringContext& context) {
  // Each operation's verdict reads the graph and nothing another verdict changes (the accelerator's
  // checks are const and thread-safe), so they are found side by side and applied in order afterwards.
  std::vector<std::optional<SupportVerdict>> verdicts(subgraph.operations.size());
  std::vector<std::exception_ptr> errors(subgraph.operations.size());
  tbb::parallel_for(std::size_t{0}, subgraph.operations.size(), [&](std::size_t index) {
    const Operation& op = subgraph.operations[index];
    if (op.placement != Placement::Unplaced) {
      return;
    }
    try {
      SupportVerdict verdict;
      if (context.release == VelaRelease::V2_1) {
        verdict = ethosu::checkVela21Restrictions(subgraph, op).verdict();
      }
      if (verdict.supported) {
        verdict = context.support.check(subgraph, op);
        if (context.release == VelaRelease::V2_1 && relaxedByVela21(op.type, verdict.constraint)) {
          verdict = SupportVerdict{};
        }
      }
      verdicts[index] = std::move(verdict);
    } catch (...) {
      errors[index] = std::current_exception(); // the first operation's error, whatever the thread count
    }
  });
  for (std::size_t index = 0; index < subgraph.operations.size(); ++index) {
    if (errors[index]) {
      std::rethrow_exception(errors[index]);
    }
    if (!verdicts[index]) {
      continue;
    }
    Operation& op = subgraph.operations[index];
    const SupportVerdict& verdict = *verdicts[index];
    if (verdict.supported) {
      op.placement = Placement::Npu;
      op.placementReason.clear();
    } else {
      op.placement = Placement::Cpu;
      op.placementReason = verdict.reason.empty() ? verdict.constraint : verdict.reason;
      if (!verdict.constraint.empty()) {
        op.attributes.set("cpu_constraint", verdict.constraint);
      }
    }
  }
}

void setOperationShapes(Subgraph& subgraph, const LoweringContext& /*context*/) {
  for (Operation& op : subgraph.operations) {
    if (op.placement == Placement::Npu && op.ifmShapes.empty() && op.ofmShapes.empty()) {
      setDefaultShapes(subgraph, op);
    }
  }
}

} // namespace ethosu::lowering
