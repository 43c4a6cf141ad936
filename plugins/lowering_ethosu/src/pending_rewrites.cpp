// Decompositions Vela performs that this lowering does not implement yet. Rather than leave an
// operation on the NPU that no accelerator can run, they are placed on the CPU with a reason that
// says so, so that the difference to Vela is visible in every report.
#include "operator_rewrites.hpp"

namespace ethosu::lowering {

using namespace npu;

namespace {
RewriteResult notYetLowered(const Operation& op, OpType type, const char* what) {
  if (op.type != type) {
    return std::nullopt;
  }
  Operation cpu = op;
  cpu.placement = Placement::Cpu;
  cpu.placementReason = std::string("the Ethos-U lowering does not decompose ") + what + " yet";
  return std::vector<Operation>{cpu};
}
} // namespace

RewriteResult convertLstm(Subgraph& /*subgraph*/, const Operation& op) {
  return notYetLowered(op, OpType::UnidirectionalSequenceLstm, "UNIDIRECTIONAL_SEQUENCE_LSTM");
}

RewriteResult convertArgMax(Subgraph& /*subgraph*/, const Operation& op) {
  return notYetLowered(op, OpType::ArgMax, "ARG_MAX");
}

RewriteResult convertSquaredDifference(Subgraph& /*subgraph*/, const Operation& op) {
  return notYetLowered(op, OpType::SquaredDifference, "SQUARED_DIFFERENCE");
}

RewriteResult convertPrelu(Subgraph& /*subgraph*/, const Operation& op) {
  return notYetLowered(op, OpType::Prelu, "PRELU");
}

RewriteResult fixupResize(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::ResizeBilinear && op.type != OpType::ResizeNearestNeighbor) {
    return std::nullopt;
  }
  const Shape4 ifm = op.ifmShapes.empty() ? Shape4::fromShape(subgraph.tensor(op.ifm()).shape) : op.ifmShapes[0];
  const Shape4 ofm = op.ofmShapes.empty() ? Shape4::fromShape(subgraph.tensor(op.ofm()).shape) : op.ofmShapes[0];
  if (ifm == ofm) {
    // Vela fixup_resize: a resize to the same size is the identity (a Memcpy here).
    Operation copy = op;
    copy.type = OpType::Memcpy;
    copy.inputs = {op.ifm()};
    return std::vector<Operation>{copy};
  }
  return notYetLowered(op, op.type, "RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR");
}

} // namespace ethosu::lowering
