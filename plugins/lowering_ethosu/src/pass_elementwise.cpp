// SPDX-License-Identifier: Apache-2.0
// Elementwise decompositions (Vela tflite_graph_optimiser.py: convert_squared_difference, convert_prelu,
// convert_mul_max_to_abs_or_lrelu, convert_lrelu, convert_lrelu_to_lut, convert_lrelu_to_mul_max).
#include "ethosu_lowering/rewrite_support.hpp"
#include "lut_tables.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

#include <algorithm>
#include <cmath>

namespace ethosu::lowering {

using namespace npu;

namespace {

/// Vela's "zero_const" of the min(x, 0) * alpha + relu(x) rewrites: the IFM's quantisation without its
/// scale and with zero point 0 (no_scale_quant in convert_prelu and convert_lrelu_to_mul_max).
Quantisation zeroConstQuantisation(const Tensor& ifm) {
  Quantisation quantisation = withoutScale(ifm.quantisation);
  quantisation.zeroPoint = {0};
  return quantisation;
}

RewriteResult single(Operation op) {
  return std::vector<Operation>{std::move(op)};
}

bool is8Bit(DataType type) {
  return type == DataType::Int8 || type == DataType::UInt8;
}

/// Vela renames an operation it turns into another type by replacing the old type's name in its name.
std::string renamed(const std::string& name, std::string_view from, std::string_view to) {
  std::string result = name;
  for (std::size_t at = result.find(from); at != std::string::npos; at = result.find(from, at + to.size())) {
    result.replace(at, from.size(), to);
  }
  return result;
}

/// A feature map like `source` named "<source name><suffix>" with another type and quantisation.
TensorId retypedClone(Subgraph& subgraph, TensorId source, const std::string& suffix, DataType type,
                      Quantisation quantisation) {
  const TensorId clone = cloneTensor(subgraph, source, suffix);
  subgraph.tensor(clone).type = type;
  subgraph.tensor(clone).quantisation = std::move(quantisation);
  return clone;
}

Operation binary(const Subgraph& subgraph, const Operation& origin, OpType type, std::string name, TensorId ifm,
                 TensorId ifm2, TensorId ofm) {
  Operation op = deriveOperation(origin, type, std::move(name));
  op.inputs = {ifm, ifm2};
  op.outputs = {ofm};
  setDefaultShapes(subgraph, op);
  return op;
}

Operation unaryRelu(const Subgraph& subgraph, const Operation& origin, std::string name, TensorId ifm, TensorId ofm) {
  Operation relu = deriveOperation(origin, OpType::Relu, std::move(name));
  relu.inputs = {ifm};
  relu.outputs = {ofm};
  setDefaultShapes(subgraph, relu);
  return relu;
}

TensorId scalarConstant(Subgraph& subgraph, const std::string& name, Shape shape, DataType type, std::int64_t value,
                        Quantisation quantisation) {
  const std::vector<std::int64_t> values{value};
  return addConstant(subgraph, name, std::move(shape), type, values, std::move(quantisation));
}

std::optional<AlphaScaling> alphaScalingOf(const Operation& op) {
  const auto values = integerList(op.attributes, "alpha_scaling");
  if (values.size() != 3) {
    return std::nullopt;
  }
  return AlphaScaling{values[0], values[1], static_cast<int>(values[2])};
}

void setAlphaScaling(Operation& op, std::int64_t scalar, double ifmScale, double alphaScale, double ofmScale) {
  const QuantisedScale scale = quantiseScale(ifmScale * alphaScale / ofmScale);
  op.attributes.set("alpha_scaling", std::vector<std::int64_t>{scalar, scale.multiplier, scale.shift});
}

/// Vela lut.py convert_to_lut: the operation becomes an Add no-op with a zero scalar and the LUT.
Operation leakyReluAsLut(Subgraph& subgraph, const Operation& op, const LutTable& table) {
  Operation lut = op;
  const Tensor ifm = subgraph.tensor(op.ifm());
  lut.type = OpType::Add;
  lut.name = op.name + "_lut_lrelu";
  lut.attributes = {};
  lut.attributes.set("is_nop", true);
  const TensorId scalar = scalarConstant(subgraph, ifm.name + "_scalar0", Shape{}, ifm.type, 0,
                                         Quantisation{{ifm.quantisation.scaleAt(0)}, {0}, 0, {}, {}});
  lut.inputs = {op.ifm(), scalar};
  lut.attributes.set("forced_output_quantisation", true);
  lut.attributes.set("forced_output_scale", ifm.quantisation.scaleAt(0));
  lut.attributes.set("forced_output_zero_point", ifm.quantisation.zeroPointAt(0));
  setLutActivation(lut, addLutTable(subgraph, lut.name + "_values", table));
  setDefaultShapes(subgraph, lut);
  return lut;
}

/// Vela convert_lrelu_to_mul_max: max(alpha * x, x) for 0 < alpha < 1, else min(x, 0) * alpha + relu(x).
std::vector<Operation> leakyReluAsMulMax(Subgraph& subgraph, const Operation& op, double alpha) {
  const Tensor ifm = subgraph.tensor(op.ifm());
  const Tensor ofm = subgraph.tensor(op.ofm());
  const std::optional<AlphaScaling> convertedPrelu = alphaScalingOf(op);
  const bool mulMax = alpha > 0.0 && alpha < 1.0;
  std::vector<Operation> result;
  Operation combine = op;
  TensorId mulIfm = op.ifm();
  if (!mulMax) {
    const TensorId zero = scalarConstant(subgraph, "zero_const", Shape{}, ifm.type, 0, zeroConstQuantisation(ifm));
    mulIfm = cloneTensor(subgraph, op.ifm(), op.name + "_negative");
    if (alpha < 0.0 && !convertedPrelu) {
      subgraph.tensor(mulIfm).type = DataType::Int32; // the Mul then scales by the negative alpha itself
    }
    result.push_back(binary(subgraph, op, OpType::Minimum, op.name + "_min", op.ifm(), zero, mulIfm));
    setExplicitScaling(combine, {0}, {1});
  }
  const DataType alphaType = subgraph.tensor(mulIfm).type;
  Quantisation alphaQuantisation = ifm.quantisation;
  alphaQuantisation.zeroPoint = {0};
  std::int64_t scalar = 1;
  if (convertedPrelu) {
    scalar = convertedPrelu->scalar;
  } else if (alpha == 0.0 || std::isinf(1.0 / alpha)) {
    alphaQuantisation.scale = {1.0};
    scalar = 0;
  } else {
    alphaQuantisation.scale = {alpha};
    if (alphaType == DataType::Int32) {
      scalar = quantiseScale(ifm.quantisation.scaleAt(0) * alpha / ofm.quantisation.scaleAt(0)).multiplier;
    }
  }
  const TensorId alphaTensor =
      scalarConstant(subgraph, op.name + "_alpha_scalar", Shape{1}, alphaType, scalar, alphaQuantisation);
  const TensorId alphaFeatureMap = cloneTensor(subgraph, op.ofm(), op.name + "_alpha");
  Operation mulAlpha = binary(subgraph, op, OpType::Mul, op.name + "_mul_alpha", mulIfm, alphaTensor, alphaFeatureMap);
  if (convertedPrelu) {
    setExplicitScaling(mulAlpha, {convertedPrelu->shift}, {convertedPrelu->multiplier});
  }
  result.push_back(std::move(mulAlpha));
  TensorId identity = op.ifm();
  if (!mulMax) {
    identity = cloneTensor(subgraph, op.ofm(), op.name + "_positive_scaled");
    result.push_back(unaryRelu(subgraph, op, op.name + "_relu", op.ifm(), identity));
  } else if (!sameScaling(ifm, ofm)) {
    const TensorId one = scalarConstant(subgraph, op.name + "_id_scalar", Shape{}, ifm.type, 1, unitQuantisation());
    identity = cloneTensor(subgraph, op.ofm(), op.name + "_id");
    result.push_back(binary(subgraph, op, OpType::Mul, op.name + "_mul_identity", op.ifm(), one, identity));
  }
  combine.type = mulMax ? OpType::Maximum : OpType::Add;
  combine.name = renamed(op.name, "LeakyRelu", nameOf(combine.type));
  combine.inputs = {alphaFeatureMap, identity};
  combine.attributes.erase("alpha");
  combine.attributes.erase("alpha_scaling");
  setDefaultShapes(subgraph, combine);
  result.push_back(std::move(combine));
  return result;
}

/// The Mul feeding a Maximum that computes max(x, c * x) (Vela convert_mul_max_to_abs_or_lrelu).
const Operation* mulOfMaximum(const Subgraph& subgraph, const Operation& maximum) {
  std::vector<const Operation*> muls;
  for (TensorId input : maximum.inputs) {
    const auto producers = producersOf(subgraph, input);
    if (producers.size() == 1 && subgraph.operation(producers.front()).type == OpType::Mul) {
      muls.push_back(&subgraph.operation(producers.front()));
    }
  }
  if (muls.size() == 1) {
    return muls.front();
  }
  for (const Operation* mul : muls) {
    // Both inputs are Muls: take the one reading the same single tensor as the Maximum.
    std::vector<TensorId> all = maximum.inputs;
    all.insert(all.end(), mul->inputs.begin(), mul->inputs.end());
    if (std::all_of(all.begin(), all.end(), [&](TensorId id) { return id == all.front(); })) {
      return mul;
    }
  }
  return nullptr;
}

} // namespace

RewriteResult convertSquaredDifference(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::SquaredDifference) {
    return std::nullopt;
  }
  // (a - b)^2 in int32 with the reference kernel's scaling (TensorFlow Lite squared_difference).
  const Tensor ifm = subgraph.tensor(op.ifm());
  const Tensor ifm2 = subgraph.tensor(op.ifm2());
  const Tensor ofm = subgraph.tensor(op.ofm());
  const double twiceMaxInputScale = 2.0 * std::max(ifm.quantisation.scaleAt(0), ifm2.quantisation.scaleAt(0));
  const int leftShift = ifm.type == DataType::Int16 ? 0 : 7;
  const QuantisedScale input1 = quantiseScale(ifm.quantisation.scaleAt(0) / twiceMaxInputScale);
  const QuantisedScale input2 = quantiseScale(ifm2.quantisation.scaleAt(0) / twiceMaxInputScale);
  const QuantisedScale output = quantiseScale(twiceMaxInputScale * twiceMaxInputScale /
                                              (std::ldexp(1.0, 2 * leftShift) * ofm.quantisation.scaleAt(0)));
  const auto multiplierConstant = [&](const std::string& suffix, std::int64_t value) {
    return scalarConstant(subgraph, op.name + suffix, Shape{1}, DataType::Int32, value, unitQuantisation());
  };
  const TensorId input1Multiplier = multiplierConstant("_input1_multiplier", input1.multiplier);
  const TensorId input2Multiplier = multiplierConstant("_input2_multiplier", input2.multiplier);
  const TensorId outputMultiplier = multiplierConstant("_output_multiplier", output.multiplier);
  std::vector<Operation> result;
  const auto scaledInput = [&](TensorId input, const std::string& which, TensorId multiplier,
                               const QuantisedScale& scale) {
    // Widen to int32 shifted left (a cast with a multiplier of 2^shift), then scale; a 32-bit Mul does not
    // rescale, so the multiplier is an operand and only the shift comes from the explicit scaling.
    const TensorId widened =
        retypedClone(subgraph, input, "_" + which + "_32bit_shifted", DataType::Int32, unitQuantisation());
    Operation cast = makeCast(subgraph, op, op.name + "_" + which + "_32bit_shifted", input, widened);
    setExplicitScaling(cast, {0}, {std::int64_t{1} << leftShift});
    result.push_back(std::move(cast));
    const TensorId scaled = retypedClone(subgraph, input, "_scaled", DataType::Int32, unitQuantisation());
    Operation mul = binary(subgraph, op, OpType::Mul,
                           op.name + "_scaled_input" + (which == "ifm" ? std::string("1") : std::string("2")), widened,
                           multiplier, scaled);
    setExplicitScaling(mul, {scale.shift}, {scale.multiplier});
    result.push_back(std::move(mul));
    return scaled;
  };
  const TensorId scaled1 = scaledInput(op.ifm(), "ifm", input1Multiplier, input1);
  const TensorId scaled2 = scaledInput(op.ifm2(), "ifm2", input2Multiplier, input2);
  const TensorId rawDifference = retypedClone(subgraph, op.ifm(), "_raw_diff", DataType::Int32, {});
  result.push_back(binary(subgraph, op, OpType::Sub, op.name + "_raw_diff", scaled1, scaled2, rawDifference));
  const TensorId squared = retypedClone(subgraph, op.ifm(), "_squared_raw", DataType::Int32, {});
  result.push_back(binary(subgraph, op, OpType::Mul, op.name + "_squared_raw", rawDifference, rawDifference, squared));
  Operation rescale = op;
  rescale.type = OpType::Mul;
  rescale.inputs = {squared, outputMultiplier};
  setExplicitScaling(rescale, {output.shift}, {output.multiplier});
  setDefaultShapes(subgraph, rescale);
  result.push_back(std::move(rescale));
  return result;
}

RewriteResult convertPrelu(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Prelu || op.ifm() == kNoTensor || op.ifm2() == kNoTensor || op.ofm() == kNoTensor) {
    return std::nullopt;
  }
  const Tensor ifm = subgraph.tensor(op.ifm());
  const Tensor alpha = subgraph.tensor(op.ifm2());
  const Tensor ofm = subgraph.tensor(op.ofm());
  std::vector<Operation> result;
  if (alpha.isConstant() && alpha.elements() > 0) {
    const auto values = alpha.integerValues();
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    const double alphaMin =
        static_cast<double>(*low - alpha.quantisation.zeroPointAt(0)) * alpha.quantisation.scaleAt(0);
    const double alphaMax =
        static_cast<double>(*high - alpha.quantisation.zeroPointAt(0)) * alpha.quantisation.scaleAt(0);
    if (alphaMin == alphaMax) {
      // One alpha for every channel: a LeakyReLU (or a ReLU) scaled bit-exactly like the PReLU.
      Operation leaky = op;
      leaky.inputs = {op.ifm()};
      leaky.type = alphaMin == 0.0 ? OpType::Relu : OpType::LeakyRelu;
      if (alphaMin != 0.0) {
        leaky.attributes.set("alpha", alphaMin);
        setAlphaScaling(leaky, *low - alpha.quantisation.zeroPointAt(0), ifm.quantisation.scaleAt(0),
                        alpha.quantisation.scaleAt(0), ofm.quantisation.scaleAt(0));
      }
      leaky.name = renamed(op.name, "Prelu", nameOf(leaky.type));
      setDefaultShapes(subgraph, leaky);
      return single(leaky);
    }
    if (alphaMax < 1.0) {
      // max(alpha * x, x)
      const TensorId alphaFeatureMap = cloneTensor(subgraph, op.ofm(), op.name + "_alpha");
      result.push_back(binary(subgraph, op, OpType::Mul, op.name + "_mul_alpha", op.ifm(), op.ifm2(), alphaFeatureMap));
      TensorId identity = op.ifm();
      if (!sameScaling(ifm, ofm)) {
        const TensorId one = scalarConstant(subgraph, "one_const", Shape{}, ifm.type, 1, unitQuantisation());
        identity = cloneTensor(subgraph, op.ofm(), op.name + "_id");
        result.push_back(binary(subgraph, op, OpType::Mul, op.name + "_mul_identity", op.ifm(), one, identity));
      }
      result.push_back(binary(subgraph, op, OpType::Maximum, op.name + "_max", alphaFeatureMap, identity, op.ofm()));
      return result;
    }
  }
  // min(x, 0) * alpha + relu(x)
  const TensorId zero = scalarConstant(subgraph, "zero_const", Shape{}, ifm.type, 0, zeroConstQuantisation(ifm));
  const TensorId negative = cloneTensor(subgraph, op.ifm(), op.name + "_negative");
  result.push_back(binary(subgraph, op, OpType::Minimum, op.name + "_min", op.ifm(), zero, negative));
  const TensorId negativeAlpha = cloneTensor(subgraph, op.ofm(), op.name + "_negative_alpha");
  result.push_back(binary(subgraph, op, OpType::Mul, op.name + "_mul_alpha", negative, op.ifm2(), negativeAlpha));
  const TensorId positive = cloneTensor(subgraph, op.ofm(), op.name + "_positive_scaled");
  result.push_back(unaryRelu(subgraph, op, op.name + "_relu", op.ifm(), positive));
  Operation add = binary(subgraph, op, OpType::Add, op.name + "_add", negativeAlpha, positive, op.ofm());
  setExplicitScaling(add, {0}, {1});
  result.push_back(std::move(add));
  return result;
}

RewriteResult convertMulMaxToAbsOrLeakyRelu(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::Maximum || op.inputs.size() != 2) {
    return std::nullopt;
  }
  const Operation* mul = mulOfMaximum(subgraph, op);
  if (mul == nullptr || mul->activation || consumerCount(subgraph, mul->ofm()) != 1) {
    return std::nullopt;
  }
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const Tensor& ofm = subgraph.tensor(op.ofm());
  const Tensor& mulOfm = subgraph.tensor(mul->ofm());
  if (!is8Bit(ifm.type) || ifm.type != ofm.type || !sameScaling(ifm, ofm) || !sameScaling(ifm, mulOfm)) {
    return std::nullopt; // a LeakyReLU only helps when the quantisation is identical
  }
  std::vector<TensorId> shared;
  for (TensorId input : op.inputs) {
    if (std::find(mul->inputs.begin(), mul->inputs.end(), input) != mul->inputs.end() &&
        std::find(shared.begin(), shared.end(), input) == shared.end()) {
      shared.push_back(input);
    }
  }
  if (shared.size() != 1) {
    return std::nullopt;
  }
  const TensorId sharedInput = shared.front();
  TensorId constantInput = kNoTensor;
  for (TensorId input : mul->inputs) {
    constantInput = input != sharedInput ? input : constantInput;
  }
  if (constantInput == kNoTensor || !subgraph.tensor(constantInput).shape.isScalar() ||
      !subgraph.tensor(constantInput).isConstant()) {
    return std::nullopt;
  }
  const Tensor& constant = subgraph.tensor(constantInput);
  const std::int64_t value = constant.integerValues().front();
  Operation result = op;
  if (value >= 0) {
    result.type = OpType::LeakyRelu;
    // Vela keeps the stored value as alpha; the bit-exact scaling goes with it.
    result.attributes.set("alpha", static_cast<double>(value));
    setAlphaScaling(result, value - constant.quantisation.zeroPointAt(0), ifm.quantisation.scaleAt(0),
                    constant.quantisation.scaleAt(0), mulOfm.quantisation.scaleAt(0));
  } else if (value == -1) {
    result.type = OpType::Abs;
  } else {
    return std::nullopt;
  }
  result.name = renamed(op.name, "Maximum", nameOf(result.type));
  Tensor& output = subgraph.tensor(op.ofm());
  output.name = renamed(output.name, "Maximum", nameOf(result.type));
  result.inputs = {sharedInput};
  setDefaultShapes(subgraph, result);
  return single(result);
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
    relu.name = renamed(op.name, "LeakyRelu", "Relu");
    return single(relu);
  }
  if (is8Bit(ifm.type) && ifm.type == ofm.type) {
    const LutTable table = leakyReluTable(ifm.quantisation, ofm.quantisation, ifm.type, alpha, alphaScalingOf(op));
    return single(leakyReluAsLut(subgraph, op, table));
  }
  if (sameScaling(ifm, ofm) && ifm.type == DataType::Int16 && ofm.type == DataType::Int16 && alpha > 0.0) {
    return std::nullopt; // runs as a LeakyRelu on the elementwise unit
  }
  return leakyReluAsMulMax(subgraph, op, alpha);
}

} // namespace ethosu::lowering
