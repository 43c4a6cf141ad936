// SPDX-License-Identifier: Apache-2.0
// SOFTMAX as the ~30 elementwise and reduction operations Vela emits (Vela softmax.py SoftMax.get_graph,
// get_graph_8bit, get_graph_int16). Names follow Vela: "<op>_<kind><pass number>".
#include "ethosu_lowering/lowering.hpp"
#include "ethosu_lowering/rewrite_support.hpp"
#include "lut_tables.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

#include <cmath>

namespace ethosu::lowering {

using namespace npu;

namespace {

/// Appends the operations of one softmax and numbers them like Vela's pass_number.
class SoftmaxBuilder {
public:
  SoftmaxBuilder(Subgraph& subgraph, const Operation& softmax) : subgraph_(subgraph), softmax_(softmax) {}

  [[nodiscard]] std::string nextName(const std::string& kind) const {
    return softmax_.name + "_" + kind + std::to_string(operations_.size());
  }
  TensorId add(Operation op) {
    const TensorId ofm = op.ofm();
    operations_.push_back(std::move(op));
    return ofm;
  }
  TensorId elementwise(OpType type, const std::string& kind, TensorId ifm, TensorId ifm2,
                       const Quantisation& quantisation, std::optional<Activation> activation = std::nullopt,
                       std::optional<DataType> dataType = std::nullopt) {
    ElementwiseSpec spec;
    spec.type = type;
    spec.name = nextName(kind);
    spec.ifm = ifm;
    spec.ifm2 = ifm2;
    spec.quantisation = quantisation;
    spec.activation = std::move(activation);
    spec.dataType = dataType;
    return add(makeElementwise(subgraph_, softmax_, spec));
  }
  TensorId constant(const std::string& name, std::int64_t value, const Quantisation& quantisation) {
    const std::vector<std::int64_t> values{value};
    return addConstant(subgraph_, name, Shape{1, 1, 1, 1}, DataType::Int32, values, quantisation);
  }
  /// The final SHR writes the softmax output.
  void finalShiftRight(TensorId ifm, TensorId shift, std::optional<RoundingMode> rounding) {
    Operation op = deriveOperation(softmax_, OpType::SHR, nextName("shr"));
    op.inputs = {ifm, shift};
    op.outputs = {softmax_.ofm()};
    op.ifmShapes = {shape4Of(subgraph_, ifm), shape4Of(subgraph_, shift)};
    op.ofmShapes = {shape4Of(subgraph_, ifm)};
    if (rounding) {
      op.rounding = *rounding;
    }
    operations_.push_back(std::move(op));
  }
  Operation& last() { return operations_.back(); }
  std::vector<Operation> take() { return std::move(operations_); }

  Subgraph& subgraph_;
  const Operation& softmax_;

private:
  std::vector<Operation> operations_;
};

Quantisation scaled(const Quantisation& base, double scale, std::int64_t zeroPoint) {
  Quantisation quantisation = base;
  quantisation.scale = {scale};
  quantisation.zeroPoint = {zeroPoint};
  return quantisation;
}

/// The depthwise max pool that starts a softmax. Vela 2.1.1 keeps its OFM out of the brick format
/// (get_graph_8bit and get_graph_int16 set ifm_max.avoid_NHCWB16; 3.10 does not): it is stored linearly
/// and its bursts are judged so.
Operation softmaxMaxPool(Subgraph& subgraph, const Operation& op, const std::string& name, const Shape4& ifmShape,
                         const Quantisation& quantisation, VelaRelease release) {
  Operation maxPool = makeDepthwiseMaxPool(subgraph, op, name, op.ifm(), ifmShape, quantisation);
  if (release == VelaRelease::V2_1) {
    maxPool.attributes.set("linear_ofm_tensor", static_cast<std::int64_t>(maxPool.ofm()));
    maxPool.attributes.set("avoid_brick_ofm", true);
  }
  return maxPool;
}

std::vector<Operation> softmax8Bit(Subgraph& subgraph, const Operation& op, const Shape4& ifmShape,
                                   VelaRelease release) {
  SoftmaxBuilder build(subgraph, op);
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const DataType ifmType = ifm.type;
  const Quantisation ifmQuantisation = ifm.quantisation;
  const Quantisation noScale = withoutScale(ifmQuantisation);
  const auto qMin = static_cast<double>(quantisedMin(ifmType));
  const auto qMax = static_cast<double>(quantisedMax(ifmType));
  const Activation activation = clipActivation(qMin, qMax);
  const Activation activation2 = clipActivation(2 * qMin, 2 * qMax);
  const Quantisation oneScale = scaled(ifmQuantisation, 1.0, 0);
  const Quantisation twoScale = scaled(ifmQuantisation, 2.0, 0);

  const TensorId ifmMax =
      build.add(softmaxMaxPool(subgraph, op, build.nextName("maxpool"), ifmShape, noScale, release));

  ElementwiseSpec subtract;
  subtract.type = OpType::Sub;
  subtract.name = build.nextName("sub");
  subtract.ifm = op.ifm();
  subtract.ifm2 = ifmMax;
  subtract.quantisation = scaled(ifmQuantisation, 1.0, 127);
  subtract.dataType = DataType::Int32;
  subtract.ifmShape = ifmShape;
  subtract.ifm2Shape = Shape4{1, ifmShape.height, ifmShape.width, 1};
  Operation subtractOp = makeElementwise(subgraph, op, subtract);
  const double beta = op.attributes.getOr<double>("beta", 1.0);
  const TensorId expLut =
      addLutTable(subgraph, subtract.name + "_exp_lut", softmaxExpTable(beta, ifmQuantisation.scaleAt(0)));
  setLutActivation(subtractOp, expLut);
  subtractOp.activation->min = -128.0 - 127.0;
  subtractOp.activation->max = 127.0 - 127.0;
  const TensorId ifmExp = build.add(std::move(subtractOp));

  const TensorId twelve = build.constant(build.nextName("shr") + "_const", 12, noScale);
  build.elementwise(OpType::SHR, "shr", ifmExp, twelve, noScale, activation);
  build.last().rounding = RoundingMode::HalfUp;
  const TensorId rescaledExp = build.last().ofm();

  const TensorId sumOfExp =
      build.add(makeReduceSum(subgraph, op, build.nextName("reduce_sum"), rescaledExp, noScale, activation));
  const TensorId headroomPlusOne = build.elementwise(OpType::CLZ, "clz", sumOfExp, kNoTensor, noScale, activation);
  const TensorId headroomOffset = build.constant("headroom_offset_const", 12 + 31 - 8, noScale);
  const TensorId rightShift =
      build.elementwise(OpType::Sub, "sub", headroomOffset, headroomPlusOne, noScale, activation);
  const TensorId one = build.constant("one_const", 1, noScale);
  const TensorId headroom = build.elementwise(OpType::Sub, "sub", headroomPlusOne, one, noScale, activation);
  const TensorId shiftedSum = build.elementwise(OpType::SHL, "shl", sumOfExp, headroom, noScale, activation);
  const TensorId shiftedOne = build.constant("shifted_one_const", std::int64_t{1} << 30, noScale);
  TensorId shiftedSumMinusOne = build.elementwise(OpType::Sub, "sub", shiftedSum, shiftedOne, noScale, activation);
  shiftedSumMinusOne = build.elementwise(OpType::SHL, "shl", shiftedSumMinusOne, one, noScale, activation);
  const TensorId f0One = build.constant("F0_one_const", (std::int64_t{1} << 31) - 1, noScale);
  // Vela 2.1.1's create_rescale_add takes the constant first, Vela 3.10's create_add second: the
  // order decides which operand 2.1.1's cost model reads as the IFM.
  const bool constantFirst = release == VelaRelease::V2_1;
  const TensorId halfDenominator = build.elementwise(OpType::Add, "add", constantFirst ? f0One : shiftedSumMinusOne,
                                                     constantFirst ? shiftedSumMinusOne : f0One, oneScale, activation);
  setExplicitScaling(build.last(), {1}, {1});
  const TensorId negative32Over17 = build.constant("neg_32_over_17_const", -1010580540, oneScale);
  const TensorId rescaled =
      build.elementwise(OpType::Mul, "mul", halfDenominator, negative32Over17, twoScale, activation2);
  const TensorId constant48Over17 = build.constant("48_over_17_const", 1515870810, noScale);
  TensorId reciprocal = build.elementwise(OpType::Add, "add", rescaled, constant48Over17, oneScale, activation);
  const TensorId f2One = build.constant("F2_one_const", std::int64_t{1} << 29, noScale);
  const TensorId four = build.constant("four_const", 4, noScale);
  for (int iteration = 0; iteration < 3; ++iteration) {
    // Newton-Raphson steps of 1 / denominator (Vela softmax.py get_graph_8bit).
    const TensorId product = build.elementwise(OpType::Mul, "mul", reciprocal, halfDenominator, twoScale, activation2);
    const TensorId oneMinus = build.elementwise(OpType::Sub, "sub", f2One, product, oneScale, activation);
    const TensorId toRescale = build.elementwise(OpType::Mul, "mul", reciprocal, oneMinus, twoScale, activation2);
    const TensorId toAdd = build.elementwise(OpType::Mul, "mul", toRescale, four, noScale, activation);
    reciprocal = build.elementwise(OpType::Add, "add", reciprocal, toAdd, oneScale, activation);
  }
  const TensorId two = build.constant("two_const", 2, noScale);
  const TensorId scaleFactor = build.elementwise(OpType::Mul, "mul", reciprocal, two, oneScale, activation);
  const TensorId scaledExp = build.elementwise(OpType::Mul, "mul", ifmExp, scaleFactor, twoScale, activation2);
  build.finalShiftRight(scaledExp, rightShift, RoundingMode::HalfUp);
  return build.take();
}

std::vector<Operation> softmaxInt16(Subgraph& subgraph, const Operation& op, const Shape4& ifmShape,
                                    VelaRelease release) {
  SoftmaxBuilder build(subgraph, op);
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const Quantisation ifmQuantisation = ifm.quantisation;
  const Quantisation ofmQuantisation = subgraph.tensor(op.ofm()).quantisation;
  const Quantisation noScale = withoutScale(ifmQuantisation);

  const TensorId ifmMax =
      build.add(softmaxMaxPool(subgraph, op, build.nextName("maxpool"), ifmShape, noScale, release));
  ElementwiseSpec subtract;
  subtract.type = OpType::Sub;
  subtract.name = build.nextName("sub");
  subtract.ifm = op.ifm();
  subtract.ifm2 = ifmMax;
  subtract.quantisation = ifmQuantisation;
  subtract.dataType = DataType::Int32;
  subtract.ifmShape = ifmShape;
  subtract.ifm2Shape = Shape4{1, ifmShape.height, ifmShape.width, 1};
  const TensorId difference = build.add(makeElementwise(subgraph, op, subtract));

  const double beta = op.attributes.getOr<double>("beta", 1.0);
  const double mulOutRange = 10.0 / 65535.0;
  const std::string mulName = build.nextName("mul");
  const double mulScale = ifmQuantisation.scaleAt(0) * beta / mulOutRange;
  const TensorId scaleConst =
      addConstant(subgraph, mulName + "_scale_const", Shape{1, 1, 1, 1}, DataType::Int32,
                  std::vector<std::int64_t>{quantiseScale(mulScale).multiplier}, scaled(ifmQuantisation, beta, 0));
  const TensorId scaledDifference = build.elementwise(
      OpType::Mul, "mul", difference, scaleConst, scaled(ofmQuantisation, mulOutRange, ofmQuantisation.zeroPointAt(0)));
  const std::string addName = build.nextName("add");
  const TensorId addConst = build.constant(addName + "_const", 32767, noScale);
  const TensorId ifmExp =
      build.elementwise(OpType::Add, "add", scaledDifference, addConst, subgraph.tensor(scaledDifference).quantisation,
                        std::nullopt, DataType::Int16);
  setLutActivation(build.last(), addLutTable(subgraph, addName + "_exp_lut", softmaxInt16ExpTable()));
  const TensorId sumOfExp =
      build.add(makeReduceSum(subgraph, op, build.nextName("reduce_sum"), ifmExp, noScale, std::nullopt));
  const TensorId headroomPlusOne = build.elementwise(OpType::CLZ, "clz", sumOfExp, kNoTensor, noScale);
  const TensorId const31 = build.constant(build.nextName("sub") + "_const", 31, noScale);
  const TensorId reciprocalRightShift = build.elementwise(OpType::Sub, "sub", const31, headroomPlusOne, noScale);
  const TensorId one = build.constant("one_const", 1, noScale);
  const TensorId constantOne = build.elementwise(OpType::SHL, "shl", one, reciprocalRightShift, noScale);
  const TensorId sumMinusOne = build.elementwise(OpType::Sub, "sub", sumOfExp, constantOne, noScale);
  const TensorId shiftedSumMinusOne = build.elementwise(OpType::SHL, "shl", sumMinusOne, headroomPlusOne, noScale);
  const TensorId fifteen = build.constant(build.nextName("shr") + "_const", 15, noScale);
  const TensorId shifted16 = build.elementwise(OpType::SHR, "shr", shiftedSumMinusOne, fifteen, noScale);
  const std::string subName = build.nextName("sub");
  const TensorId const32768 = build.constant(subName + "_const", 32768, noScale);
  const TensorId reciprocalScale =
      build.elementwise(OpType::Sub, "sub", shifted16, const32768, noScale, std::nullopt, DataType::Int16);
  setLutActivation(build.last(),
                   addLutTable(subgraph, subName + "_one_over_one_plus_x_lut", softmaxInt16ReciprocalTable()));
  const TensorId product =
      build.elementwise(OpType::Mul, "mul", ifmExp, reciprocalScale, noScale, std::nullopt, DataType::Int32);
  build.finalShiftRight(product, reciprocalRightShift, std::nullopt);
  return build.take();
}

} // namespace

namespace {

std::optional<std::vector<Operation>> convertSoftmaxFor(Subgraph& subgraph, const Operation& op, VelaRelease release) {
  if (op.type != OpType::Softmax || op.placement != Placement::Npu) {
    return std::nullopt;
  }
  Shape4 ifmShape = op.ifmShapes.empty() ? shape4Of(subgraph, op.ifm()) : op.ifmShapes[0];
  if (ifmShape.batch > 1) {
    ifmShape = Shape4{1, ifmShape.batch * ifmShape.height, ifmShape.width, ifmShape.depth};
  }
  const DataType ifmType = subgraph.tensor(op.ifm()).type;
  const DataType ofmType = subgraph.tensor(op.ofm()).type;
  if ((ifmType == DataType::Int8 || ifmType == DataType::UInt8) && ofmType == ifmType) {
    return softmax8Bit(subgraph, op, ifmShape, release);
  }
  if (ifmType == DataType::Int16 && ofmType == DataType::Int16) {
    return softmaxInt16(subgraph, op, ifmShape, release);
  }
  Operation cpu = op;
  cpu.placement = Placement::Cpu;
  cpu.placementReason = "Softmax is only lowered for int8/uint8 or int16 IFM and OFM of the same type";
  return std::vector<Operation>{cpu};
}

} // namespace

std::optional<std::vector<Operation>> convertSoftmax(Subgraph& subgraph, const Operation& op) {
  return convertSoftmaxFor(subgraph, op, VelaRelease::V3_10);
}

std::optional<std::vector<Operation>> convertSoftmaxVela21(Subgraph& subgraph, const Operation& op) {
  return convertSoftmaxFor(subgraph, op, VelaRelease::V2_1);
}

} // namespace ethosu::lowering
