// LUT-based activations and activation fix-ups (Vela tflite_graph_optimiser.py: convert_ops_to_lut,
// convert_lrelu, convert_lrelu_to_mul_max, convert_hardswish_to_lut, fixup_relus_with_differing_ifm_ofm_scaling,
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

bool is8Bit(DataType type) { return type == DataType::Int8 || type == DataType::UInt8; }

RewriteResult single(Operation op) { return std::vector<Operation>{std::move(op)}; }

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
  const auto reciprocalRoot = [](double x) { return x > 0.0 ? 1.0 / std::sqrt(x) : 1e9; };
  return single(convertToLut(subgraph, op, lut8(reciprocalRoot, ifm.quantisation, ofm.quantisation, ifm.type), "rsqrt"));
}

RewriteResult convertLeakyRelu(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::LeakyRelu) {
    return std::nullopt;
  }
  const Tensor ifm = subgraph.tensor(op.ifm());
  const Tensor ofm = subgraph.tensor(op.ofm());
  const double alpha = op.attributes.getOr<double>("alpha", 0.2);
  if (alpha == 0.0) {
    Operation relu = op;
    relu.type = OpType::Relu;
    return single(relu);
  }
  if (is8Bit(ifm.type) && ifm.type == ofm.type) {
    const auto leaky = [alpha](double x) { return x < 0.0 ? alpha * x : x; };
    return single(convertToLut(subgraph, op, lut8(leaky, ifm.quantisation, ofm.quantisation, ifm.type), "lrelu"));
  }
  if (sameScaling(ifm, ofm) && ifm.type == DataType::Int16 && ofm.type == DataType::Int16 && alpha > 0.0) {
    return std::nullopt; // runs as a LeakyRelu on the elementwise unit
  }
  // Vela convert_lrelu_to_mul_max: max(x, alpha * x) for 0 < alpha < 1, else min/mul/relu/add.
  std::vector<Operation> result;
  const bool mulMax = alpha > 0.0 && alpha < 1.0;
  TensorId mulIfm = op.ifm();
  if (!mulMax) {
    const std::vector<std::int64_t> zero{0};
    const TensorId zeroConst =
        addConstant(subgraph, "zero_const", Shape{}, ifm.type, zero, withoutScale(ifm.quantisation));
    ElementwiseSpec minimum{OpType::Minimum, op.name + "_min", op.ifm(), zeroConst, ifm.quantisation, {}, {}, {}, {}};
    result.push_back(makeElementwise(subgraph, op, minimum));
    mulIfm = result.back().ofm();
  }
  Quantisation alphaQuantisation = ifm.quantisation;
  alphaQuantisation.scale = {alpha};
  alphaQuantisation.zeroPoint = {0};
  const std::vector<std::int64_t> one{1};
  const TensorId alphaScalar = addConstant(subgraph, op.name + "_alpha_scalar", Shape{1},
                                           subgraph.tensor(mulIfm).type, one, alphaQuantisation);
  ElementwiseSpec multiply{OpType::Mul, op.name + "_mul_alpha", mulIfm, alphaScalar, ofm.quantisation, {}, {}, {}, {}};
  Operation mulAlpha = makeElementwise(subgraph, op, multiply);
  subgraph.tensor(mulAlpha.ofm()).name = ofm.name + "_alpha";
  const TensorId alphaFeatureMap = mulAlpha.ofm();
  result.push_back(std::move(mulAlpha));
  TensorId identity = op.ifm();
  if (!mulMax) {
    Operation relu = makeAvgPoolNop(op, op.name + "_relu_avgpool");
    relu.inputs = {op.ifm()};
    relu.outputs = {cloneTensor(subgraph, op.ofm(), "_positive_scaled")};
    Activation activation;
    activation.type = OpType::Relu;
    activation.min = 0.0;
    relu.activation = activation;
    relu.attributes.set("packed_operations", std::int64_t{1});
    setDefaultShapes(subgraph, relu);
    identity = relu.ofm();
    result.push_back(std::move(relu));
  } else if (!sameScaling(ifm, ofm)) {
    Quantisation unit = unitQuantisation();
    const TensorId identityScalar = addConstant(subgraph, op.name + "_id_scalar", Shape{}, ifm.type, one, unit);
    ElementwiseSpec mulIdentity{OpType::Mul, op.name + "_mul_identity", op.ifm(), identityScalar, ofm.quantisation,
                                {}, {}, {}, {}};
    result.push_back(makeElementwise(subgraph, op, mulIdentity));
    identity = result.back().ofm();
  }
  Operation combine = op;
  combine.type = mulMax ? OpType::Maximum : OpType::Add;
  combine.inputs = {alphaFeatureMap, identity};
  combine.attributes = {};
  if (!mulMax) {
    setExplicitScaling(combine, {0}, {1});
  }
  setDefaultShapes(subgraph, combine);
  result.push_back(std::move(combine));
  return result;
}

RewriteResult convertHardSwishToLut(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::HardSwish) {
    return std::nullopt;
  }
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const Tensor& ofm = subgraph.tensor(op.ofm());
  const auto hardSwish = [](double x) { return x * std::clamp(x + 3.0, 0.0, 6.0) / 6.0; };
  return single(convertToLut(subgraph, op, lut8(hardSwish, ifm.quantisation, ofm.quantisation, ifm.type), "hardswish"));
}

RewriteResult fixupRelusWithDifferingScales(Subgraph& subgraph, const Operation& op) {
  if (!isReluLike(op.type) || op.inputs.empty() ||
      sameScaling(subgraph.tensor(op.ifm()), subgraph.tensor(op.ofm()))) {
    return std::nullopt;
  }
  // The ReLU gets its own AvgPool primary operation that rescales (Vela adds explicit scaling).
  Operation avgPool = makeAvgPoolNop(op, op.name + "_avgpool");
  avgPool.inputs = {op.ifm()};
  avgPool.outputs = {op.ofm()};
  Activation activation = op.activation.value_or(Activation{});
  activation.type = op.type;
  avgPool.activation = activation;
  const double rescale =
      subgraph.tensor(op.ifm()).quantisation.scaleAt(0) / subgraph.tensor(op.ofm()).quantisation.scaleAt(0);
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
    return single(convertToLut(subgraph, op, lut8(clampedSigmoid, ifm.quantisation, ofm.quantisation, ifm.type), "sigmoid"));
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

} // namespace ethosu::lowering
