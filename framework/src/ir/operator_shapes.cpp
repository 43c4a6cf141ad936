// SPDX-License-Identifier: Apache-2.0
// Shape consistency of the operators a frontend produces: what the operator's definition implies about
// the shapes of its operands (weights against the OFM depth, bias length, batch, kernel against the
// IFM, per-channel quantisation against the channels). The back end trusts these relations; a model
// breaking them is malformed, and is rejected here with the operator named instead of failing deep in
// weight encoding or lowering. The rules are those the TFLite reference kernels check in Prepare().
#include "npu/core/diagnostics.hpp"
#include "npu/ir/graph_algorithms.hpp"

#include <optional>
#include <string>

namespace npu {

namespace {

/// The checks of one operation; each failed rule adds one message naming the operation.
class OperatorShapeChecker {
public:
  OperatorShapeChecker(const Subgraph& subgraph, OperationId id, std::vector<GraphIssue>& issues)
      : subgraph_(subgraph), op_(subgraph.operation(id)), id_(id), issues_(issues) {}

  void check() {
    // A model may leave a feature map's shape out (rank 0) for the runtime to compute; such operators run
    // on the CPU, and there is nothing to compare.
    for (const TensorId id : {op_.ifm(), op_.ofm()}) {
      if (const Tensor* t = tensor(id); t != nullptr && t->shape.isScalar() && !t->isConstant()) {
        return;
      }
    }
    switch (op_.type) {
    case OpType::Conv2DBias:
      checkConvolution();
      break;
    case OpType::DepthwiseConv2DBias:
      checkDepthwiseConvolution();
      break;
    case OpType::FullyConnected:
      checkFullyConnected();
      break;
    case OpType::Conv2DBackpropInput:
      checkTransposeConvolution();
      break;
    case OpType::AvgPool:
    case OpType::MaxPool:
    case OpType::L2Pool2D:
      checkPooling();
      break;
    case OpType::UnidirectionalSequenceLstm:
      checkSequenceLstm();
      break;
    case OpType::ConcatTFLite:
      checkConcatenation();
      break;
    case OpType::Reshape:
    case OpType::Squeeze:
    case OpType::ExpandDims:
      checkSameElements();
      break;
    case OpType::Split:
    case OpType::SplitV:
      checkSplit();
      break;
    default:
      if (isBinaryElementwise(op_.type)) {
        checkBroadcast();
      } else if (is(op_.type, OpCategory::ElementwiseUnary) || isReluLike(op_.type) || op_.type == OpType::Sigmoid ||
                 op_.type == OpType::Tanh || op_.type == OpType::Softmax || op_.type == OpType::HardSwish) {
        checkSameElements();
      }
      break;
    }
  }

private:
  [[nodiscard]] const Tensor* tensor(TensorId id) const {
    return subgraph_.validTensorId(id) ? &subgraph_.tensor(id) : nullptr;
  }

  void report(const std::string& message) {
    issues_.push_back({subgraph_.name, subgraph_.describe(id_) + ": " + message});
    failed_ = true;
  }

  /// Reports unless the tensor exists and has the rank; returns whether it does.
  bool requireRank(const Tensor* t, int rank, const char* role) {
    if (t == nullptr) {
      report(std::string("the ") + role + " tensor is missing");
      return false;
    }
    if (t->shape.rank() != rank) {
      report(std::string("the ") + role + " '" + t->name + "' has shape " + t->shape.str() + ", expected " +
             std::to_string(rank) + " dimensions");
      return false;
    }
    return true;
  }

  /// Extent of the output along one spatial axis (TFLite ComputeOutSize); nullopt if the kernel does not
  /// fit the input.
  [[nodiscard]] std::optional<std::int64_t> outputExtent(std::int64_t input, int kernel, int stride,
                                                         int dilation) const {
    const std::int64_t extent = std::int64_t{kernel - 1} * dilation + 1;
    if (op_.padding == Padding::Same) {
      return divRoundUp(input, stride);
    }
    if (input < extent) {
      return std::nullopt;
    }
    return divRoundUp(input - extent + 1, stride);
  }

  /// OFM height and width against the IFM, kernel, strides, dilation and padding.
  void checkSpatial(const Tensor& ifm, const Tensor& ofm) {
    if (!op_.kernel || (op_.padding != Padding::Same && op_.padding != Padding::Valid)) {
      return;
    }
    const Kernel& k = *op_.kernel;
    const auto height = outputExtent(ifm.shape[1], k.height, k.strideY, k.dilationY);
    const auto width = outputExtent(ifm.shape[2], k.width, k.strideX, k.dilationX);
    if (!height || !width) {
      report("the " + std::to_string(k.areaWidth()) + "x" + std::to_string(k.areaHeight()) +
             " kernel (dilated) does not fit the IFM '" + ifm.name + "' of shape " + ifm.shape.str() +
             " with VALID padding");
      return;
    }
    if (ofm.shape[1] != *height || ofm.shape[2] != *width) {
      report("the OFM '" + ofm.name + "' is " + std::to_string(ofm.shape[1]) + "x" + std::to_string(ofm.shape[2]) +
             " (height x width), but the IFM, kernel, strides and padding give " + std::to_string(*height) + "x" +
             std::to_string(*width));
    }
  }

  void checkBatch(const Tensor& ifm, const Tensor& ofm) {
    if (ifm.shape[0] != ofm.shape[0]) {
      report("the IFM '" + ifm.name + "' has batch " + std::to_string(ifm.shape[0]) + " but the OFM '" + ofm.name +
             "' has batch " + std::to_string(ofm.shape[0]));
    }
  }

  void checkDepth(const Tensor& ofm, std::int64_t expected, const std::string& from) {
    if (ofm.shape.back(0) != expected) {
      report("the OFM '" + ofm.name + "' has " + std::to_string(ofm.shape.back(0)) + " channels but " + from +
             " gives " + std::to_string(expected));
    }
  }

  void checkBias(std::int64_t channels) {
    const Tensor* bias = tensor(op_.bias());
    if (bias != nullptr && bias->elements() != channels) {
      report("the bias '" + bias->name + "' has " + std::to_string(bias->elements()) + " values for " +
             std::to_string(channels) + " output channels");
    }
    if (bias != nullptr) {
      checkChannelQuantisation(*bias, channels, bias->shape.rank() - 1, "bias");
    }
  }

  /// Per-channel scales and zero points: one per output channel, along the output-channel axis.
  void checkChannelQuantisation(const Tensor& t, std::int64_t channels, int channelAxis, const char* role) {
    const Quantisation& q = t.quantisation;
    const std::size_t count = std::max(q.scale.size(), q.zeroPoint.size());
    if (count <= 1) {
      return;
    }
    if (static_cast<std::int64_t>(count) != channels) {
      report(std::string("the ") + role + " '" + t.name + "' is quantised with " + std::to_string(count) +
             " scales for " + std::to_string(channels) + " output channels");
    } else if (q.axis != channelAxis && t.shape.rank() > 1) {
      report(std::string("the ") + role + " '" + t.name + "' is quantised per channel along axis " +
             std::to_string(q.axis) + ", but its output channels are axis " + std::to_string(channelAxis));
    }
  }

  /// CONV_2D: IFM [N, H, W, C], weights OHWI [O, KH, KW, C / groups], OFM [N, OH, OW, O].
  void checkConvolution() {
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* weights = tensor(op_.weights());
    const Tensor* ofm = tensor(op_.ofm());
    if (!requireRank(ifm, 4, "IFM") || !requireRank(weights, 4, "weights") || !requireRank(ofm, 4, "OFM")) {
      return;
    }
    const int channels = weights->shape[0];
    if (weights->shape[3] <= 0 || ifm->shape[3] % weights->shape[3] != 0) {
      report("the weights '" + weights->name + "' read " + std::to_string(weights->shape[3]) +
             " input channels, which do not divide the IFM's " + std::to_string(ifm->shape[3]));
    }
    checkDepth(*ofm, channels, "the weights '" + weights->name + "' of shape " + weights->shape.str());
    checkBatch(*ifm, *ofm);
    checkBias(channels);
    checkChannelQuantisation(*weights, channels, 0, "weights");
    if (!failed_) {
      checkSpatial(*ifm, *ofm);
    }
  }

  /// DEPTHWISE_CONV_2D: weights [1, KH, KW, C * multiplier], OFM depth C * multiplier.
  void checkDepthwiseConvolution() {
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* weights = tensor(op_.weights());
    const Tensor* ofm = tensor(op_.ofm());
    if (!requireRank(ifm, 4, "IFM") || !requireRank(weights, 4, "weights") || !requireRank(ofm, 4, "OFM")) {
      return;
    }
    const int channels = weights->shape[3];
    if (weights->shape[0] != 1) {
      report("the depthwise weights '" + weights->name + "' have shape " + weights->shape.str() +
             ", expected [1, height, width, channels]");
    }
    if (ifm->shape[3] <= 0 || channels % ifm->shape[3] != 0) {
      report("the depthwise weights '" + weights->name + "' have " + std::to_string(channels) +
             " channels, not a multiple of the IFM's " + std::to_string(ifm->shape[3]));
    }
    checkDepth(*ofm, channels, "the weights '" + weights->name + "' of shape " + weights->shape.str());
    checkBatch(*ifm, *ofm);
    checkBias(channels);
    checkChannelQuantisation(*weights, channels, 3, "weights");
    if (!failed_) {
      checkSpatial(*ifm, *ofm);
    }
  }

  /// FULLY_CONNECTED: weights [O, I]; the IFM is read as rows of I values, each giving O outputs.
  void checkFullyConnected() {
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* weights = tensor(op_.weights());
    const Tensor* ofm = tensor(op_.ofm());
    if (ifm == nullptr || ofm == nullptr || !requireRank(weights, 2, "weights")) {
      if (ifm == nullptr || ofm == nullptr) {
        report("the IFM or OFM tensor is missing");
      }
      return;
    }
    const int outputs = weights->shape[0];
    const int inputs = weights->shape[1];
    if (inputs <= 0 || ifm->elements() % inputs != 0) {
      report("the IFM '" + ifm->name + "' of shape " + ifm->shape.str() + " cannot be read as rows of the " +
             std::to_string(inputs) + " inputs the weights '" + weights->name + "' take");
      return;
    }
    if (ofm->shape.isScalar()) {
      report("the OFM '" + ofm->name + "' is a scalar");
      return;
    }
    checkDepth(*ofm, outputs, "the weights '" + weights->name + "' of shape " + weights->shape.str());
    const std::int64_t rows = ifm->elements() / inputs;
    if (!failed_ && ofm->elements() != rows * outputs) {
      report("the OFM '" + ofm->name + "' of shape " + ofm->shape.str() + " does not hold the " + std::to_string(rows) +
             " rows of " + std::to_string(outputs) + " outputs the IFM gives");
    }
    checkBias(outputs);
    checkChannelQuantisation(*weights, outputs, 0, "weights");
  }

  /// TRANSPOSE_CONV: output shape (input 0), weights OHWI (input 1), IFM (input 2), optional bias.
  void checkTransposeConvolution() {
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* weights = tensor(op_.weights());
    const Tensor* ofm = tensor(op_.ofm());
    if (!requireRank(ifm, 4, "IFM") || !requireRank(weights, 4, "weights") || !requireRank(ofm, 4, "OFM")) {
      return;
    }
    const int channels = weights->shape[0];
    if (weights->shape[3] != ifm->shape[3]) {
      report("the weights '" + weights->name + "' read " + std::to_string(weights->shape[3]) +
             " input channels but the IFM has " + std::to_string(ifm->shape[3]));
    }
    checkDepth(*ofm, channels, "the weights '" + weights->name + "' of shape " + weights->shape.str());
    checkBatch(*ifm, *ofm);
    checkBias(channels);
    checkChannelQuantisation(*weights, channels, 0, "weights");
  }

  /// Pooling: depth and batch kept, height and width from the kernel.
  void checkPooling() {
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* ofm = tensor(op_.ofm());
    if (!requireRank(ifm, 4, "IFM") || !requireRank(ofm, 4, "OFM")) {
      return;
    }
    checkDepth(*ofm, ifm->shape[3], "pooling the IFM '" + ifm->name + "'");
    checkBatch(*ifm, *ofm);
    if (!failed_) {
      checkSpatial(*ifm, *ofm);
    }
  }

  /// UNIDIRECTIONAL_SEQUENCE_LSTM over an IFM [batch, time, features] (time-major: [time, batch, features]):
  /// the OFM holds the same batch and time steps, the states one row per batch, the weights the
  /// features (TFLite lstm.cc CheckInputTensorDimensions).
  void checkSequenceLstm() {
    constexpr std::size_t kInputToOutputWeights = 4;
    constexpr std::size_t kRecurrentToOutputWeights = 8;
    constexpr std::size_t kOutputState = 18;
    constexpr std::size_t kCellState = 19;
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* ofm = tensor(op_.ofm());
    if (ifm == nullptr || ifm->shape.rank() != 3) {
      return; // not lowered: runs on the CPU as it is
    }
    if (!requireRank(ofm, 3, "OFM")) {
      return;
    }
    const bool timeMajor = op_.attributes.getOr<bool>("time_major", false);
    const int batches = ifm->shape[timeMajor ? 1 : 0];
    for (int axis = 0; axis < 2; ++axis) {
      if (ofm->shape[axis] != ifm->shape[axis]) {
        report("the OFM '" + ofm->name + "' of shape " + ofm->shape.str() + " does not have the batch and time steps " +
               "of the IFM '" + ifm->name + "' of shape " + ifm->shape.str());
        return;
      }
    }
    const Tensor* inputWeights = tensor(op_.input(kInputToOutputWeights));
    if (inputWeights != nullptr && requireRank(inputWeights, 2, "input weights") &&
        inputWeights->shape[1] != ifm->shape[2]) {
      report("the input weights '" + inputWeights->name + "' of shape " + inputWeights->shape.str() + " do not read " +
             "the " + std::to_string(ifm->shape[2]) + " features of the IFM");
    }
    const Tensor* recurrentWeights = tensor(op_.input(kRecurrentToOutputWeights));
    const int outputWidth = ofm->shape[2];
    if (recurrentWeights != nullptr && requireRank(recurrentWeights, 2, "recurrent weights") &&
        recurrentWeights->shape[1] != outputWidth) {
      report("the recurrent weights '" + recurrentWeights->name + "' of shape " + recurrentWeights->shape.str() +
             " do not read the " + std::to_string(outputWidth) + " outputs of the OFM");
    }
    for (const std::size_t state : {kOutputState, kCellState}) {
      const Tensor* t = tensor(op_.input(state));
      if (t != nullptr && (t->shape.rank() != 2 || t->shape[0] != batches)) {
        report("the state '" + t->name + "' of shape " + t->shape.str() + " does not hold one row for each of the " +
               std::to_string(batches) + " batches of the IFM");
      }
    }
  }

  /// CONCATENATION: every input has the OFM's shape except along the axis, where the sizes add up.
  void checkConcatenation() {
    const Tensor* ofm = tensor(op_.ofm());
    if (ofm == nullptr || ofm->shape.isScalar()) {
      return;
    }
    const int rank = ofm->shape.rank();
    std::int64_t axis = op_.attributes.getOr<std::int64_t>("axis", 0);
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank) {
      report("the axis " + std::to_string(op_.attributes.getOr<std::int64_t>("axis", 0)) +
             " is not an axis of the OFM '" + ofm->name + "' of shape " + ofm->shape.str());
      return;
    }
    std::int64_t total = 0;
    for (const TensorId id : op_.inputs) {
      const Tensor* input = tensor(id);
      if (input == nullptr) {
        continue;
      }
      if (input->shape.rank() != rank) {
        report("the input '" + input->name + "' of shape " + input->shape.str() +
               " does not have the rank of the OFM '" + ofm->name + "' of shape " + ofm->shape.str());
        return;
      }
      for (int d = 0; d < rank; ++d) {
        if (d != axis && input->shape[d] != ofm->shape[d]) {
          report("the input '" + input->name + "' of shape " + input->shape.str() + " differs from the OFM '" +
                 ofm->name + "' of shape " + ofm->shape.str() + " outside the axis " + std::to_string(axis));
          return;
        }
      }
      total += input->shape[static_cast<int>(axis)];
    }
    if (total != ofm->shape[static_cast<int>(axis)]) {
      report("the inputs add up to " + std::to_string(total) + " along axis " + std::to_string(axis) +
             " but the OFM '" + ofm->name + "' has " + std::to_string(ofm->shape[static_cast<int>(axis)]));
    }
  }

  /// Binary elementwise: each input broadcasts to the OFM (dimensions aligned from the innermost).
  void checkBroadcast() {
    const Tensor* ofm = tensor(op_.ofm());
    if (ofm == nullptr) {
      return;
    }
    for (const TensorId id : {op_.ifm(), op_.ifm2()}) {
      const Tensor* input = tensor(id);
      if (input == nullptr) {
        continue;
      }
      const int rank = input->shape.rank();
      for (int fromEnd = 0; fromEnd < rank; ++fromEnd) {
        const int dim = input->shape.back(fromEnd);
        const int target = fromEnd < ofm->shape.rank() ? ofm->shape.back(fromEnd) : 1;
        if (dim != 1 && dim != target) {
          report("the input '" + input->name + "' of shape " + input->shape.str() + " does not broadcast to the OFM '" +
                 ofm->name + "' of shape " + ofm->shape.str());
          return;
        }
      }
    }
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* ifm2 = tensor(op_.ifm2());
    if (ifm != nullptr && ifm2 != nullptr) {
      for (int fromEnd = 0; fromEnd < ofm->shape.rank(); ++fromEnd) {
        const auto dimOf = [&](const Tensor& t) { return fromEnd < t.shape.rank() ? t.shape.back(fromEnd) : 1; };
        if (ofm->shape.back(fromEnd) != std::max(dimOf(*ifm), dimOf(*ifm2))) {
          report("the OFM '" + ofm->name + "' of shape " + ofm->shape.str() + " is not the broadcast of " +
                 ifm->shape.str() + " and " + ifm2->shape.str());
          return;
        }
      }
    }
  }

  /// Operators that keep every element (reshapes, unary functions): as many OFM as IFM elements.
  void checkSameElements() {
    const Tensor* ifm = tensor(op_.ifm());
    const Tensor* ofm = tensor(op_.ofm());
    if (ifm != nullptr && ofm != nullptr && ifm->elements() != ofm->elements()) {
      report("the OFM '" + ofm->name + "' of shape " + ofm->shape.str() + " does not hold the " +
             std::to_string(ifm->elements()) + " elements of the IFM '" + ifm->name + "' of shape " + ifm->shape.str());
    }
  }

  /// SPLIT (axis, input) and SPLIT_V (input, sizes, axis): each part is the input but along one axis,
  /// where it is no longer. (Found by fuzz_pipeline: a part taller than its input was copied from rows
  /// beyond it, which the command stream check reported as an internal error.)
  void checkSplit() {
    const std::size_t index = op_.type == OpType::Split ? 1 : 0;
    const Tensor* input = op_.inputs.size() > index ? tensor(op_.inputs[index]) : nullptr;
    if (input == nullptr) {
      return;
    }
    for (const TensorId id : op_.outputs) {
      const Tensor* part = tensor(id);
      if (part == nullptr) {
        continue;
      }
      bool fits = part->shape.rank() == input->shape.rank();
      int differing = 0;
      for (int axis = 0; fits && axis < input->shape.rank(); ++axis) {
        differing += part->shape[axis] != input->shape[axis] ? 1 : 0;
        fits = part->shape[axis] <= input->shape[axis];
      }
      if (!fits || differing > 1) {
        report("the part '" + part->name + "' of shape " + part->shape.str() + " is not a slice of the input '" +
               input->name + "' of shape " + input->shape.str() + " along one axis");
      }
    }
  }

  const Subgraph& subgraph_;
  const Operation& op_;
  OperationId id_;
  std::vector<GraphIssue>& issues_;
  bool failed_ = false;
};

} // namespace

std::vector<GraphIssue> verifyOperatorShapes(const Graph& graph) {
  std::vector<GraphIssue> issues;
  for (const Subgraph& subgraph : graph.subgraphs) {
    for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
      OperatorShapeChecker(subgraph, static_cast<OperationId>(i), issues).check();
    }
  }
  return issues;
}

} // namespace npu
