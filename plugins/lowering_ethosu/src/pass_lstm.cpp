// SPDX-License-Identifier: Apache-2.0
// UNIDIRECTIONAL_SEQUENCE_LSTM unrolled into its basic operations, one set per time step and batch
// (Vela lstm.py Lstm.get_graph): per gate two fully connected layers (input feature and recurrent state)
// and an Add with the gate's Sigmoid/Tanh; the cell state from two Muls and an Add; the output state from
// a Tanh and a Mul; each step's output written into the OFM at its time offset.
//
// The states are variable tensors: each step writes new tensors that share the variable's equivalence
// id and carry memory_function "VariableTensorWrite" (they are the variable's buffer, kept linear).
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

#include <tuple>

namespace ethosu::lowering {

using namespace npu;

namespace {

// Operand indices of TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM.
constexpr std::size_t kInputToInputWeights = 1;
constexpr std::size_t kInputToForgetWeights = 2;
constexpr std::size_t kInputToCellWeights = 3;
constexpr std::size_t kInputToOutputWeights = 4;
constexpr std::size_t kRecurrentToInputWeights = 5;
constexpr std::size_t kRecurrentToForgetWeights = 6;
constexpr std::size_t kRecurrentToCellWeights = 7;
constexpr std::size_t kRecurrentToOutputWeights = 8;
constexpr std::size_t kInputGateBias = 12;
constexpr std::size_t kForgetGateBias = 13;
constexpr std::size_t kCellGateBias = 14;
constexpr std::size_t kOutputGateBias = 15;
constexpr std::size_t kOutputState = 18;
constexpr std::size_t kCellState = 19;
constexpr std::size_t kHiddenIntermediate = 4;

/// Q0.15, the scale of gate outputs in the reference kernel.
constexpr double kQ015Scale = 1.0 / 32768.0;
/// The scale of the fully connected outputs that feed the gates (Vela lstm.py calculate_gate).
constexpr double kGateInputScale = 1.0 / 4096.0;

Quantisation scaleOnly(double scale) {
  Quantisation quantisation;
  quantisation.scale = {scale};
  quantisation.zeroPoint = {0};
  return quantisation;
}

/// Vela scaling.py elementwise_mul_scale as explicit scaling of a Mul.
void setMulScaling(Operation& op, double ifmScale, double ifm2Scale, double ofmScale) {
  const QuantisedScale scale = quantiseScale(ifmScale * ifm2Scale / ofmScale);
  setExplicitScaling(op, {scale.shift}, {scale.multiplier});
}

class LstmUnroller {
public:
  LstmUnroller(Subgraph& subgraph, const Operation& lstm) : subgraph_(subgraph), lstm_(lstm) {
    const Shape& ifm = subgraph.tensor(lstm.ifm()).shape;
    timeMajor_ = lstm.attributes.getOr<bool>("time_major", false);
    timeSteps_ = ifm[timeMajor_ ? 0 : 1];
    batches_ = ifm[timeMajor_ ? 1 : 0];
    features_ = ifm.back(0);
    cellClip_ = lstm.attributes.getOr<double>("cell_clip", 0.0);
    ofmShape_ = lstm.ofmShapes.empty() ? shape4Of(subgraph, lstm.ofm()) : lstm.ofmShapes[0];
    for (const std::size_t state : {kOutputState, kCellState}) {
      Tensor& variable = subgraph.tensor(lstm.input(state));
      if (variable.equivalenceId < 0) {
        variable.equivalenceId = freshEquivalenceId(subgraph);
      }
    }
    const TensorId hidden =
        lstm.intermediates.size() > kHiddenIntermediate ? lstm.intermediates[kHiddenIntermediate] : kNoTensor;
    hiddenScale_ = subgraph.tensor(hidden != kNoTensor ? hidden : lstm.input(kOutputState)).quantisation.scaleAt(0);
  }

  std::vector<Operation> unroll() {
    for (int batch = 0; batch < (timeMajor_ ? 1 : batches_); ++batch) {
      TensorId outputState = initialState(kOutputState, batch);
      TensorId cellState = initialState(kCellState, batch);
      for (int time = 0; time < timeSteps_; ++time) {
        const TensorId feature = readFeature(time, batch);
        std::tie(outputState, cellState) = step(feature, outputState, cellState, time, batch);
        writeOutput(outputState, time, batch);
      }
    }
    return std::move(operations_);
  }

private:
  [[nodiscard]] std::string stepName(const std::string& what, int time, int batch) const {
    return what + "#" + std::to_string(batch) + "." + std::to_string(time);
  }
  [[nodiscard]] bool readsOneBatch() const { return !timeMajor_ && batches_ > 1; }
  [[nodiscard]] const Tensor& input(std::size_t index) const { return subgraph_.tensor(lstm_.input(index)); }

  /// A read of part of `source` into a new tensor (Vela SplitSliceRead, later moved into the readers).
  TensorId sliceRead(TensorId source, const std::string& suffix, Shape shape, const Shape4& offset) {
    const TensorId slice = cloneTensor(subgraph_, source, suffix);
    subgraph_.tensor(slice).shape = std::move(shape);
    Operation read = deriveOperation(lstm_, OpType::SplitSliceRead, subgraph_.tensor(slice).name);
    read.inputs = {source};
    read.outputs = {slice};
    setDefaultShapes(subgraph_, read);
    read.readOffsets[0] = offset;
    read.readShapes[0] = read.ofmShapes[0];
    operations_.push_back(std::move(read));
    return slice;
  }

  TensorId readFeature(int time, int batch) {
    const std::string suffix = "_feature#" + std::to_string(batch) + "." + std::to_string(time);
    const std::vector<std::int64_t> offset =
        timeMajor_ ? std::vector<std::int64_t>{time, 0, 0} : std::vector<std::int64_t>{batch, time, 0};
    return sliceRead(lstm_.ifm(), suffix, Shape{timeMajor_ ? batches_ : 1, features_}, shape4FromList(offset, 0));
  }

  TensorId initialState(std::size_t state, int batch) {
    if (timeMajor_) {
      return lstm_.input(state); // all batches at once
    }
    const int width = input(state).shape.back(0);
    return sliceRead(lstm_.input(state), "_state#" + std::to_string(batch), Shape{1, width},
                     shape4FromList({batch, 0}, 0));
  }

  /// Reading the state of one batch out of a state that holds all of them (Vela Lstm.get_state).
  void readBatchOfState(Operation& op, int batch) const {
    if (!readsOneBatch()) {
      return;
    }
    const int width = subgraph_.tensor(op.ifm()).shape.back(0);
    op.readOffsets[0] = shape4FromList({batch, 0}, 0);
    op.readShapes[0] = Shape4{1, 1, 1, width};
    op.ifmShapes[0] = shape4FromList({batches_, width}, 1);
  }

  /// The operation's output becomes the variable state's buffer (Vela Lstm.put_state).
  void writeState(Operation& op, std::size_t state, int batch) {
    Tensor& ofm = subgraph_.tensor(op.ofm());
    const Tensor& variable = input(state);
    const int width = ofm.shape.back(0);
    ofm.shape = Shape{ofm.shape.rank() >= 2 ? ofm.shape.back(1) : 1, width};
    ofm.equivalenceId = variable.equivalenceId;
    op.attributes.set("memory_function", std::string("VariableTensorWrite"));
    if (!timeMajor_) {
      op.writeOffset = shape4FromList({batch, 0}, 0);
      op.writeShape = Shape4::fromShape(ofm.shape);
      op.ofmShapes = {Shape4::fromShape(variable.shape)};
    }
  }

  TensorId gate(const std::string& name, TensorId feature, TensorId state, std::size_t inputWeights,
                std::size_t recurrentWeights, std::size_t bias, OpType activationType, int batch) {
    const Quantisation fcQuantisation = scaleOnly(kGateInputScale);
    Operation inputFc = makeFullyConnected(subgraph_, lstm_, name + ":" + subgraph_.tensor(feature).name + "_fc",
                                           feature, lstm_.input(inputWeights), lstm_.input(bias), fcQuantisation);
    Operation recurrentFc = makeFullyConnected(subgraph_, lstm_, name + ":" + subgraph_.tensor(state).name + "_fc",
                                               state, lstm_.input(recurrentWeights), kNoTensor, fcQuantisation);
    readBatchOfState(recurrentFc, batch);
    subgraph_.tensor(inputFc.ofm()).type = DataType::Int16;
    subgraph_.tensor(recurrentFc.ofm()).type = DataType::Int16;
    Activation activation;
    activation.type = activationType;
    if (activationType == OpType::Sigmoid) {
      // The quantised range the reference's LUT-based sigmoid reaches, over the effective elementwise
      // output scale 0x3000 used with fused Tanh/Sigmoid (Vela lstm.py calculate_gate).
      activation.max = 32757.0 / 0x3000;
      activation.min = 11.0 / 0x3000;
    }
    ElementwiseSpec add{
        OpType::Add, name + "_add", inputFc.ofm(), recurrentFc.ofm(), scaleOnly(kQ015Scale), activation, {}, {}, {}};
    Operation addition = makeElementwise(subgraph_, lstm_, add);
    operations_.push_back(std::move(inputFc));
    operations_.push_back(std::move(recurrentFc));
    operations_.push_back(std::move(addition));
    return operations_.back().ofm();
  }

  TensorId cellStateUpdate(TensorId cellState, TensorId inputGate, TensorId forgetGate, TensorId cellGate, int time,
                           int batch) {
    const std::string base = stepName("cell_state", time, batch);
    const Quantisation cellQuantisation = input(kCellState).quantisation;
    const double cellScale = cellQuantisation.scaleAt(0);
    ElementwiseSpec forget{OpType::Mul, base + "_cf_mul", cellState, forgetGate, cellQuantisation, {}, {}, {}, {}};
    Operation mulForget = makeElementwise(subgraph_, lstm_, forget);
    readBatchOfState(mulForget, batch);
    setMulScaling(mulForget, cellScale, kQ015Scale, cellScale);
    ElementwiseSpec remember{OpType::Mul, base + "_ci_mul", cellGate, inputGate, cellQuantisation, {}, {}, {}, {}};
    Operation mulInput = makeElementwise(subgraph_, lstm_, remember);
    setMulScaling(mulInput, kQ015Scale, kQ015Scale, cellScale);
    std::optional<Activation> clip;
    if (cellClip_ != 0.0) {
      clip = clipActivation(-cellClip_, cellClip_);
    }
    ElementwiseSpec sum{OpType::Add, base + "_add", mulForget.ofm(), mulInput.ofm(), cellQuantisation, clip, {}, {},
                        {}};
    Operation addition = makeElementwise(subgraph_, lstm_, sum);
    setExplicitScaling(addition, {0}, {1});
    writeState(addition, kCellState, batch);
    operations_.push_back(std::move(mulForget));
    operations_.push_back(std::move(mulInput));
    operations_.push_back(std::move(addition));
    return operations_.back().ofm();
  }

  TensorId outputStateUpdate(TensorId outputGate, TensorId cellState, int time, int batch) {
    const std::string base = stepName("output_state", time, batch);
    Operation tanh =
        makeFusedActivation(subgraph_, lstm_, base + "_tanh", OpType::Tanh, cellState, scaleOnly(kQ015Scale));
    readBatchOfState(tanh, batch);
    ElementwiseSpec product{OpType::Mul,
                            base + "_mul",
                            tanh.ofm(),
                            outputGate,
                            input(kOutputState).quantisation,
                            {},
                            subgraph_.tensor(lstm_.ifm()).type,
                            {},
                            {}};
    Operation mul = makeElementwise(subgraph_, lstm_, product);
    // The reference writes with the hidden state's scale (Vela: explicit scaling instead of a forced
    // output quantisation).
    setMulScaling(mul, kQ015Scale, kQ015Scale, hiddenScale_);
    writeState(mul, kOutputState, batch);
    operations_.push_back(std::move(tanh));
    operations_.push_back(std::move(mul));
    return operations_.back().ofm();
  }

  std::pair<TensorId, TensorId> step(TensorId feature, TensorId outputState, TensorId cellState, int time, int batch) {
    const TensorId inputGate = gate(stepName("input_gate", time, batch), feature, outputState, kInputToInputWeights,
                                    kRecurrentToInputWeights, kInputGateBias, OpType::Sigmoid, batch);
    const TensorId forgetGate = gate(stepName("forget_gate", time, batch), feature, outputState, kInputToForgetWeights,
                                     kRecurrentToForgetWeights, kForgetGateBias, OpType::Sigmoid, batch);
    const TensorId cellGate = gate(stepName("cell_gate", time, batch), feature, outputState, kInputToCellWeights,
                                   kRecurrentToCellWeights, kCellGateBias, OpType::Tanh, batch);
    const TensorId newCell = cellStateUpdate(cellState, inputGate, forgetGate, cellGate, time, batch);
    const TensorId outputGate = gate(stepName("output_gate", time, batch), feature, outputState, kInputToOutputWeights,
                                     kRecurrentToOutputWeights, kOutputGateBias, OpType::Sigmoid, batch);
    return {outputStateUpdate(outputGate, newCell, time, batch), newCell};
  }

  /// Copies the step's output state into the OFM at (batch, time) (Vela Lstm.put_ofm).
  void writeOutput(TensorId state, int time, int batch) {
    Operation write = makeAvgPoolNop(lstm_, subgraph_.tensor(lstm_.ofm()).name + "#" + std::to_string(batch) + "." +
                                                std::to_string(time));
    const Shape4 stateShape = shape4Of(subgraph_, state);
    write.inputs = {state};
    write.outputs = {lstm_.ofm()};
    write.ifmShapes = {stateShape};
    write.ofmShapes = {ofmShape_};
    const std::vector<std::int64_t> offset =
        timeMajor_ ? std::vector<std::int64_t>{time, 0, 0} : std::vector<std::int64_t>{batch, time, 0};
    write.writeOffset = shape4FromList(offset, 0);
    write.writeShape = stateShape;
    write.attributes.set("memory_function", std::string("ConcatSliceWrite"));
    if (!timeMajor_) {
      write.readOffsets[0] = shape4FromList({batch, 0}, 0);
      write.readShapes[0] = stateShape;
      write.ifmShapes[0] = Shape4::fromShape(input(kOutputState).shape);
    }
    operations_.push_back(std::move(write));
  }

  Subgraph& subgraph_;
  const Operation& lstm_;
  bool timeMajor_ = false;
  int timeSteps_ = 1;
  int batches_ = 1;
  int features_ = 1;
  double cellClip_ = 0.0;
  double hiddenScale_ = 1.0;
  Shape4 ofmShape_;
  std::vector<Operation> operations_;
};

} // namespace

RewriteResult convertLstm(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::UnidirectionalSequenceLstm) {
    return std::nullopt;
  }
  const auto onCpu = [&](std::string reason) {
    Operation cpu = op;
    cpu.placement = Placement::Cpu;
    cpu.placementReason = std::move(reason);
    return std::vector<Operation>{cpu};
  };
  if (op.inputs.size() <= kCellState || subgraph.tensor(op.ifm()).shape.rank() != 3 ||
      op.input(kOutputState) == kNoTensor || op.input(kCellState) == kNoTensor) {
    return onCpu("UNIDIRECTIONAL_SEQUENCE_LSTM is only lowered with a 3D input and both state tensors");
  }
  // Unrolling is linear in batches x time steps, and a few bytes of a model can ask for millions of
  // them: beyond the budget the LSTM stays on the CPU (a departure from Vela, which unrolls any size).
  const Shape& ifm = subgraph.tensor(op.ifm()).shape;
  const std::int64_t steps = std::int64_t{ifm[0]} * ifm[1];
  if (steps > kMaxUnrolledLstmSteps) {
    return onCpu("UNIDIRECTIONAL_SEQUENCE_LSTM over " + std::to_string(steps) +
                 " batch x time steps would unroll into more than " + std::to_string(kMaxUnrolledLstmSteps) +
                 " steps of 18 NPU operations");
  }
  return LstmUnroller(subgraph, op).unroll();
}

} // namespace ethosu::lowering
