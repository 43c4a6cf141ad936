// SPDX-License-Identifier: Apache-2.0
// TRANSPOSE of height and width as an AvgPool copy that writes the OFM with its height and width strides
// swapped (Vela tflite_graph_optimiser.py fixup_transpose). The operation works on the IFM's 4D shape;
// the supported permutations are those where only two of H, W (and a unit C) change places.
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

namespace ethosu::lowering {

using namespace npu;

namespace {

/// The 4D view in which swapping H and W performs the permutation (Vela fixup_transpose's cases).
Shape4 transposeView(const Shape& ifm, const std::vector<std::int64_t>& permutation) {
  const auto perm = [&](std::size_t index) { return index < permutation.size() ? permutation[index] : -1; };
  if (ifm.rank() == 2) {
    return {1, ifm[0], ifm[1], 1}; // W x C -> C x W
  }
  if (ifm.rank() == 3) {
    if (perm(0) == 1 && perm(1) == 0) {
      return {1, ifm[0], ifm[1], ifm[2]}; // H x W x C -> W x H x C
    }
    if (ifm[0] == 1 && perm(1) == 2 && perm(2) == 1) {
      return {1, ifm[1], ifm[2], 1}; // 1 x W x C -> 1 x C x W
    }
    if (ifm[1] == 1 && perm(0) == 2 && perm(2) == 0) {
      return {1, ifm[0], ifm[2], 1}; // H x 1 x C -> C x 1 x H
    }
  }
  if (ifm.rank() == 4 && !(perm(1) == 2 && perm(2) == 1)) {
    if (ifm[1] == 1 && perm(2) == 3 && perm(3) == 2) {
      return {1, ifm[2], ifm[3], 1}; // 1 x 1 x W x C -> 1 x 1 x C x W
    }
    if (ifm[2] == 1 && perm(1) == 3 && perm(3) == 1) {
      return {1, ifm[1], ifm[3], 1}; // 1 x H x 1 x C -> 1 x C x 1 x H
    }
  }
  return Shape4::fromShape(ifm); // 1 x H x W x C -> 1 x W x H x C
}

} // namespace

RewriteResult fixupTranspose(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Transpose) {
    return std::nullopt;
  }
  Operation copy = makeAvgPoolNop(op, op.name + "_avgpool");
  const std::vector<std::int64_t> permutation =
      op.inputs.size() > 1 && op.inputs[1] != kNoTensor && subgraph.tensor(op.inputs[1]).isConstant()
          ? subgraph.tensor(op.inputs[1]).integerValues()
          : std::vector<std::int64_t>{};
  // The permutation stays an input, as in Vela (fixup_transpose keeps the operation's inputs): nothing
  // reads it, but it takes its place in the read-only area.
  copy.inputs = op.inputs;
  copy.outputs = op.outputs;
  const Shape4 view = transposeView(subgraph.tensor(op.ifm()).shape, permutation);
  // The AvgPool loops over the OFM shape, so it must equal the IFM's to read all of it.
  copy.ifmShapes = {view};
  copy.ofmShapes = {view};
  copy.readOffsets = op.readOffsets;
  copy.readShapes = op.readShapes;
  copy.attributes.set("ofm_swap_hw_strides", true);
  // Swapping strides only works in the linear format, so the TRANSPOSE's own OFM stays linear (Vela sets
  // force_linear_format on that tensor only: an activation fused or packed into the AvgPool later gives
  // the operation another OFM, which may take the brick format); see chooseTensorFormats.
  copy.attributes.set("linear_ofm", static_cast<std::int64_t>(op.ofm()));
  return std::vector<Operation>{copy};
}

} // namespace ethosu::lowering
