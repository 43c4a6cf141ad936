// SPDX-License-Identifier: Apache-2.0
// LUT-based activations and activation fix-ups (Vela tflite_graph_optimiser.py: convert_ops_to_lut,
// convert_hardswish_to_lut, fixup_relus_with_differing_ifm_ofm_scaling,
// convert_tanh_sigmoid_to_lut, convert_quantize; lut.py convert_to_lut).
#include "ethosu_lowering/rewrite_support.hpp"
#include "lut_tables.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

#include <cmath>

namespace ethosu::lowering {

using namespace npu;

namespace {

/// Vela lut.py convert_to_lut: the operation becomes an Add no-op with a zero scalar and the LUT.
Operation convertToLut(Subgraph& subgraph, const Operation& op, const LutTable& table, const std::string& lutName) {
  Operation lut = op;
  const Tensor ifm = subgraph.tensor(op.ifm());
  lut.type = OpType::Add;
  lut.name = op.name + "_lut_" + lutName;
  lut.attributes = {};
  lut.attributes.set("is_nop", true);
  Quantisation scalarQuantisation;
  scalarQuantisation.scale = {ifm.quantisation.scaleAt(0)};
  scalarQuantisation.zeroPoint = {0};
  const std::vector<std::int64_t> zero{0};
  const TensorId scalar = addConstant(subgraph, ifm.name + "_scalar0", Shape{}, ifm.type, zero, scalarQuantisation);
  lut.inputs = {op.ifm(), scalar};
  lut.attributes.set("forced_output_quantisation", true);
  lut.attributes.set("forced_output_scale", ifm.quantisation.scaleAt(0));
  lut.attributes.set("forced_output_zero_point", ifm.quantisation.zeroPointAt(0));
  setLutActivation(lut, addLutTable(subgraph, lut.name + "_values", table));
  setDefaultShapes(subgraph, lut);
  return lut;
}

bool is8Bit(DataType type) {
  return type == DataType::Int8 || type == DataType::UInt8;
}

RewriteResult single(Operation op) {
  return std::vector<Operation>{std::move(op)};
}

double clampedSigmoid(double x) {
  // Vela clamp_sigmoid: saturate outside [-8, 8].
  if (x <= -8.0) {
    return 0.0;
  }
  if (x >= 8.0) {
    return 1.0;
  }
  return 1.0 / (1.0 + std::exp(-x));
}

} // namespace

RewriteResult convertOpsToLut(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Exp && op.type != OpType::Rsqrt) {
    return std::nullopt;
  }
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const Tensor& ofm = subgraph.tensor(op.ofm());
  if (op.type == OpType::Exp) {
    const auto exp = [](double x) { return std::exp(x); };
    if (ifm.type == DataType::Int16) {
      LutTable table = lut16(exp, ifm.quantisation, ofm.quantisation);
      return single(convertToLut(subgraph, op, table, "exp"));
    }
    return single(convertToLut(subgraph, op, lut8(exp, ifm.quantisation, ofm.quantisation, ifm.type), "exp"));
  }
  return single(convertToLut(subgraph, op, rsqrtTable(ifm.quantisation, ofm.quantisation), "rsqrt"));
}

RewriteResult convertHardSwishToLut(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::HardSwish) {
    return std::nullopt;
  }
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const Tensor& ofm = subgraph.tensor(op.ofm());
  return single(convertToLut(subgraph, op, hardSwishTable(ifm.quantisation, ofm.quantisation, ifm.type), "hardswish"));
}

RewriteResult fixupRelusWithDifferingScales(Subgraph& subgraph, const Operation& op) {
  if (!isReluLike(op.type) || op.inputs.empty() || sameScaling(subgraph.tensor(op.ifm()), subgraph.tensor(op.ofm()))) {
    return std::nullopt;
  }
  // The ReLU gets its own AvgPool primary operation that rescales (Vela adds explicit scaling).
  Operation avgPool = makeAvgPoolNop(op, op.name + "_avgpool");
  avgPool.inputs = {op.ifm()};
  avgPool.outputs = {op.ofm()};
  avgPool.activation = activationFromOperation(op);
  // Vela divides the two float32 scales in single precision.
  const float rescale = static_cast<float>(subgraph.tensor(op.ifm()).quantisation.scaleAt(0)) /
                        static_cast<float>(subgraph.tensor(op.ofm()).quantisation.scaleAt(0));
  const QuantisedScale scale = quantiseScale(rescale);
  setExplicitScaling(avgPool, {scale.shift}, {scale.multiplier});
  setDefaultShapes(subgraph, avgPool);
  return single(avgPool);
}

RewriteResult convertTanhSigmoidToLut(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Sigmoid && op.type != OpType::Tanh) {
    return std::nullopt;
  }
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const Tensor& ofm = subgraph.tensor(op.ofm());
  if (!is8Bit(ifm.type) || ifm.type != ofm.type) {
    return std::nullopt; // int16 runs natively on the elementwise unit
  }
  if (op.type == OpType::Sigmoid) {
    return single(
        convertToLut(subgraph, op, lut8(clampedSigmoid, ifm.quantisation, ofm.quantisation, ifm.type), "sigmoid"));
  }
  const auto tanh = [](double x) { return std::tanh(x); };
  return single(convertToLut(subgraph, op, lut8(tanh, ifm.quantisation, ofm.quantisation, ifm.type), "tanh"));
}

RewriteResult convertQuantize(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Quantize) {
    return std::nullopt;
  }
  // Vela convert_quantize: integer requantisation by a 1x1 AvgPool keeping the operation's name.
  Operation avgPool = makeAvgPoolNop(op, op.name);
  avgPool.inputs = {op.ifm()};
  avgPool.outputs = op.outputs;
  avgPool.activation = op.activation;
  setDefaultShapes(subgraph, avgPool);
  return single(avgPool);
}

RewriteResult convertQuantizeVela21(Subgraph& subgraph, const Operation& op) {
  auto result = convertQuantize(subgraph, op);
  if (result) {
    // 2.1.1 runs a QUANTIZE as a post-operation of an AvgPool nop that pass packing names "<name>_avgpool"
    // and whose own OFM is a clone of the IFM (create_primary_op).
    result->front().name += "_avgpool";
    result->front().attributes.set("pass_primary_nop", true);
  }
  return result;
}

} // namespace ethosu::lowering
