// SPDX-License-Identifier: Apache-2.0
// Static constant folding, placement through the accelerator's support checks, and the 4D operation
// shapes (Vela tflite_graph_optimiser.py: optimise_quantize, convert_shape_op_to_constant_tensor,
// fixup_pool_strides, supported_operator_check, set_ifm_ofm_op_shapes).
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

#include "ethosu/support/vela21_support.hpp"
#include "ethosu/weights/scale_encoding.hpp"
#include "fixed_point.hpp"

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

namespace fp = fixed_point;

/// int->int requantisation of one value as Vela's optimise_quantize does it: the ratio of the scales as a
/// 31-bit multiplier and shift, applied in fixed point (doubles round differently by one for some values).
/// Empty when the shifted value leaves the 32-bit range Vela's fixed-point multiply asserts.
std::optional<std::int64_t> requantiseInFixedPoint(std::int64_t input, const ::ethosu::weights::QuantisedScale& scale) {
  const int leftShift = std::max(31 - scale.shift, 0);
  const std::int64_t limit = std::int64_t{1} << (31 - std::min(leftShift, 31));
  if (input >= limit || input < -limit) {
    return std::nullopt;
  }
  return fp::multiplyByQuantizedMultiplier(input, scale.multiplier, scale.shift);
}

/// QUANTIZE of a constant becomes the requantised constant (Vela optimise_quantize): int->int in fixed
/// point, float->int in double precision.
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
  const double scaleRatio = ifm.quantisation.scaleAt(0) / outScale;
  const bool fixedPoint = integerToInteger && std::isfinite(scaleRatio) && scaleRatio > 0;
  const ::ethosu::weights::QuantisedScale ratio =
      fixedPoint ? ::ethosu::weights::quantiseScale(scaleRatio) : ::ethosu::weights::QuantisedScale{};
  std::vector<std::int64_t> values;
  for (const double value : ifm.floatValues()) {
    const double real =
        integerToInteger ? (value - static_cast<double>(ifm.quantisation.zeroPointAt(0))) * ifm.quantisation.scaleAt(0)
                         : value;
    double quantised = integerToInteger ? std::round(real / outScale) + outZero : real / outScale + outZero;
    if (fixedPoint) {
      const auto input = static_cast<std::int64_t>(value) - ifm.quantisation.zeroPointAt(0);
      if (const auto fixed = requantiseInFixedPoint(input, ratio)) {
        quantised = static_cast<double>(*fixed) + outZero;
      }
    }
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
