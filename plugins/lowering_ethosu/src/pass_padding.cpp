// SPDX-License-Identifier: Apache-2.0
// PAD folding and expansion, the hardware padding of every kernel, LUT fusion into producers and copies
// of constant outputs (Vela tflite_graph_optimiser.py: replace_pad_by_hw_pad, convert_pad,
// add_padding_fields, fuse_activation_function_with_prev, and the end of tflite_optimise_graph).
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"
#include "padding_math.hpp"

namespace ethosu::lowering {

using namespace npu;

namespace {

/// top, left, bottom, right of a PAD operator's paddings tensor (Vela get_pad_values_from_input).
ExplicitPadding padValues(const Subgraph& subgraph, const Operation& pad) {
  const Tensor& paddings = subgraph.tensor(pad.inputs[1]);
  const auto values = paddings.integerValues();
  const int rows = paddings.shape[0];
  const auto at = [&](int row, int column) {
    return static_cast<int>(values[static_cast<std::size_t>((rows + row) * 2 + column)]);
  };
  return {at(-3, 0), at(-2, 0), at(-3, 1), at(-2, 1)};
}

bool leadingPadOk(int leadingPad, int stride, int kernelSize) {
  const int maxSize = kernelSize / 2;
  return leadingPad == maxSize || maxSize <= stride || leadingPad % stride == 0;
}

const Operation* producerOf(const Subgraph& subgraph, TensorId tensor) {
  const auto producers = producersOf(subgraph, tensor);
  return producers.size() == 1 ? &subgraph.operation(producers.front()) : nullptr;
}

/// Vela: the npu_block_type of the operation is not Default (it is a main operation of a pass).
bool isMainOperation(OpType type) {
  return is(type, OpCategory::Convolution) || is(type, OpCategory::DepthwiseConvolution) ||
         is(type, OpCategory::VectorProduct) || is(type, OpCategory::Pooling) || isElementwise(type) ||
         type == OpType::ReduceSum;
}

/// An AvgPool writing `ifm` into part of `ofm` (Vela create_avg_pool_for_concat).
Operation partialWrite(const Subgraph& subgraph, const Operation& origin, std::string name, TensorId ifm,
                       const Shape4& ifmShape, const Shape4& offset) {
  Operation write = makeAvgPoolNop(origin, std::move(name));
  write.inputs = {ifm};
  write.outputs = {origin.ofm()};
  write.ifmShapes = {ifmShape};
  // The PAD's own OFM shape (Vela's create_avg_pool_for_concat takes the operator's ofm_shapes[0]): a
  // RESHAPE bypassed after it gave the tensor another shape, which the writes do not see.
  write.ofmShapes = {origin.ofmShapes.empty() ? shape4Of(subgraph, origin.ofm()) : origin.ofmShapes[0]};
  write.writeOffset = offset;
  write.writeShape = ifmShape;
  write.attributes.set("memory_function", std::string("ConcatSliceWrite"));
  return write;
}

} // namespace

RewriteResult replacePadByHardwarePadding(Subgraph& subgraph, const Operation& op) {
  const bool candidate =
      op.type == OpType::Conv2DBias || op.type == OpType::DepthwiseConv2DBias || op.type == OpType::AvgPool;
  if (!candidate || op.padding != Padding::Valid || !op.kernel || op.inputs.empty()) {
    return std::nullopt;
  }
  const Operation* pad = producerOf(subgraph, op.ifm());
  if (pad == nullptr || pad->type != OpType::Pad || pad->placement != Placement::Npu) {
    return std::nullopt;
  }
  const Tensor& padIfm = subgraph.tensor(pad->inputs[0]);
  const Tensor& padOfm = subgraph.tensor(pad->ofm());
  if (padIfm.type != padOfm.type || !sameScaling(padIfm, padOfm)) {
    return std::nullopt;
  }
  const ExplicitPadding values = padValues(subgraph, *pad);
  const Kernel& kernel = *op.kernel;
  const int kernelWidth = kernel.areaWidth();
  const int kernelHeight = kernel.areaHeight();
  if (values.left > kernelWidth / 2 || values.right > kernelWidth / 2 || values.top > kernelHeight / 2 ||
      values.bottom > kernelHeight / 2) {
    return std::nullopt;
  }
  if (!leadingPadOk(values.top, kernel.strideY, kernelHeight) ||
      !leadingPadOk(values.left, kernel.strideX, kernelWidth)) {
    return std::nullopt;
  }
  Operation folded = op;
  if (op.type == OpType::AvgPool) {
    for (const auto& [padSize, kernelSize] :
         {std::pair{values.left, kernelWidth}, std::pair{values.right, kernelWidth},
          std::pair{values.top, kernelHeight}, std::pair{values.bottom, kernelHeight}}) {
      if (padSize != 0 && padSize != kernelSize / 2) {
        return std::nullopt;
      }
    }
    // The padded average counts the zeros, so it becomes a depthwise convolution with 1 / (h * w) weights.
    const int channels = subgraph.tensor(op.ofm()).shape.back(0);
    Quantisation quantisation;
    quantisation.scale = {1.0 / (kernel.width * kernel.height)};
    quantisation.zeroPoint = {0};
    const std::vector<std::int64_t> ones(static_cast<std::size_t>(kernel.width * kernel.height * channels), 1);
    const DataType type = padIfm.type;
    folded.type = OpType::DepthwiseConv2DBias;
    folded.attributes.set("depth_multiplier", std::int64_t{1});
    const TensorId weights =
        addConstant(subgraph, op.name + "_weights", Shape{1, kernel.height, kernel.width, channels}, type, ones,
                    quantisation, TensorPurpose::Weights);
    TensorId bias = kNoTensor;
    if (type == DataType::UInt8) {
      folded.rounding = RoundingMode::HalfUp;
      bias = addZeroBias(subgraph, op.name, channels, type);
    } else {
      folded.rounding = RoundingMode::AwayZero;
      const std::vector<std::int64_t> biasValues(static_cast<std::size_t>(channels),
                                                 padIfm.quantisation.zeroPointAt(0) * kernel.width * kernel.height);
      bias = addConstant(subgraph, op.name + "_bias", Shape{channels}, DataType::Int32, biasValues, {},
                         TensorPurpose::ScalesBiases);
    }
    folded.inputs = {op.ifm(), weights, bias};
  }
  folded.inputs[0] = pad->inputs[0];
  folded.padding = Padding::Explicit;
  folded.explicitPadding = values;
  setDefaultShapes(subgraph, folded);
  return std::vector<Operation>{folded};
}

void convertRemainingPads(Subgraph& subgraph, const LoweringContext& /*context*/) {
  rewriteEach(subgraph, [](Subgraph& graph, const Operation& op) -> RewriteResult {
    if (op.type != OpType::Pad || op.placement != Placement::Npu) {
      return std::nullopt;
    }
    if (consumerCount(graph, op.ofm()) == 0) {
      return std::vector<Operation>{}; // folded into its consumers
    }
    const ExplicitPadding values = padValues(graph, op);
    const Shape4 ifmShape = op.ifmShapes.empty() ? shape4Of(graph, op.ifm()) : op.ifmShapes[0];
    const Shape4 ofmShape = op.ofmShapes.empty() ? shape4Of(graph, op.ofm()) : op.ofmShapes[0];
    const Tensor ofm = graph.tensor(op.ofm());
    std::vector<Operation> writes;
    Operation main =
        partialWrite(graph, op, op.name + "_main", op.ifm(), ifmShape, Shape4{0, values.top, values.left, 0});
    main.activation = op.activation;
    writes.push_back(std::move(main));
    const auto zeros = [&](const std::string& suffix, const Shape4& shape, const Shape4& offset) {
      const std::vector<std::int64_t> fill(static_cast<std::size_t>(shape.elements()), ofm.quantisation.zeroPointAt(0));
      const TensorId constant = addConstant(graph, op.name + suffix, toShape(shape), ofm.type, fill, ofm.quantisation);
      shareByContent(graph, constant); // top/bottom and left/right fills of one size are stored once
      writes.push_back(partialWrite(graph, op, op.name + suffix, constant, shape, offset));
    };
    if (values.top > 0) {
      zeros("_top", Shape4{1, values.top, ofmShape.width, ofmShape.depth}, Shape4{0, 0, 0, 0});
    }
    if (values.bottom > 0) {
      zeros("_bottom", Shape4{1, values.bottom, ofmShape.width, ofmShape.depth},
            Shape4{0, ofmShape.height - values.bottom, 0, 0});
    }
    if (values.left > 0) {
      zeros("_left", Shape4{1, ifmShape.height, values.left, ofmShape.depth}, Shape4{0, values.top, 0, 0});
    }
    if (values.right > 0) {
      zeros("_right", Shape4{1, ifmShape.height, values.right, ofmShape.depth},
            Shape4{0, values.top, ofmShape.width - values.right, 0});
    }
    return writes;
  });
}

void addPaddingFields(Subgraph& subgraph, const LoweringContext& /*context*/) {
  for (Operation& op : subgraph.operations) {
    if (op.placement != Placement::Npu || !op.kernel || op.ifmShapes.empty()) {
      continue;
    }
    HardwarePadding padding;
    if (op.type == OpType::Conv2DBackpropInputSwitchedBias && op.ifmResampling == Resampling::Transpose) {
      const Shape4 ifm = op.ifmShapes[0];
      const Shape4 ofm = op.ofmShapes.empty() ? shape4Of(subgraph, op.ofm()) : op.ofmShapes[0];
      padding = upscaledPadding(op, ifm, ofm.height / std::max(ifm.height, 1), ofm.width / std::max(ifm.width, 1));
    } else {
      padding = hardwarePadding(op, op.ifmShapes[0]);
    }
    op.explicitPadding = padding.padding;
    op.attributes.set("skirt", std::vector<std::int64_t>{padding.skirt.top, padding.skirt.left, padding.skirt.bottom,
                                                         padding.skirt.right});
  }
}

namespace {

/// Which operations Vela still sees: those whose results reach a subgraph output. Vela's consumer lists
/// are rebuilt from the outputs after each rewrite, so a side chain nothing reads any more (a SHAPE,
/// STRIDED_SLICE, PACK that computed a removed RESHAPE's shape), or one 2.1.1 no longer reaches
/// ("no_pass", markRemovedShapeChainsVela21), reads nothing.
std::vector<bool> operationsVelaSees(const Subgraph& subgraph) {
  std::vector<bool> live(subgraph.tensors.size(), false);
  for (TensorId output : subgraph.outputs) {
    if (subgraph.validTensorId(output)) {
      live[static_cast<std::size_t>(output)] = true;
    }
  }
  std::vector<bool> seen(subgraph.operations.size(), false);
  for (std::size_t i = subgraph.operations.size(); i-- > 0;) {
    const Operation& op = subgraph.operations[i];
    const bool removedChain =
        op.attributes.getOr<bool>("no_pass", false) && !op.attributes.getOr<bool>("bypassed_reshape", false);
    const bool used = std::any_of(op.outputs.begin(), op.outputs.end(), [&](TensorId output) {
      return subgraph.validTensorId(output) && live[static_cast<std::size_t>(output)];
    });
    if (!used || removedChain) {
      continue;
    }
    seen[i] = true;
    for (TensorId input : op.inputs) {
      if (subgraph.validTensorId(input)) {
        live[static_cast<std::size_t>(input)] = true;
      }
    }
  }
  return seen;
}

} // namespace

void fuseActivationsWithProducers(Subgraph& subgraph, const LoweringContext& context) {
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation op = subgraph.operations[i];
    if (op.placement != Placement::Npu || !op.attributes.getOr<bool>("is_nop", false) || !op.activation) {
      continue;
    }
    const auto producers = producersOf(subgraph, op.ifm());
    if (producers.size() != 1) {
      continue;
    }
    Operation& producer = subgraph.operation(producers.front());
    // 2.1.1's QUANTIZE is still a QUANTIZE here (no block type of its own; pass packing gives it an
    // AvgPool later), so it takes no activation: the LUT stays a pass of its own.
    const bool quantizeVela21 = producer.attributes.getOr<bool>("pass_primary_nop", false);
    // The reader count walks the whole graph: asked last, only of a producer that could take the activation.
    const bool fuse = producer.placement == Placement::Npu && producer.type != OpType::Memcpy &&
                      isMainOperation(producer.type) && !quantizeVela21 && !producer.activation &&
                      (op.activation->lut == kNoTensor || context.lutFusionAllowed) &&
                      consumerCount(subgraph, producer.ofm(), operationsVelaSees(subgraph)) == 1;
    if (!fuse) {
      continue;
    }
    producer.activation = op.activation;
    if (context.release == VelaRelease::V2_1 && !producer.ofmShapes.empty() &&
        (op.ofmShapes.empty() || op.ofmShapes[0] == shape4Of(subgraph, op.ofm()))) {
      // 2.1.1 keeps the producer's OFM shape (a view, e.g. before a removed RESHAPE): the tensor it now
      // writes follows only that tensor's own avoid-brick flag, which no reshape set.
      producer.attributes.set("ofm_view_keeps_brick", true);
    }
    for (const char* key : {"forced_output_quantisation", "forced_output_scale", "forced_output_zero_point"}) {
      if (const AttributeValue* value = op.attributes.find(key)) {
        producer.attributes.set(key, *value);
      }
    }
    producer.outputs = {op.ofm()};
    subgraph.operations.erase(subgraph.operations.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
  }
}

void copyConstantOutputs(Subgraph& subgraph, const LoweringContext& /*context*/) {
  for (TensorId& output : subgraph.outputs) {
    const Tensor& tensor = subgraph.tensor(output);
    if (!tensor.isConstant() || isSubgraphInput(subgraph, output)) {
      continue;
    }
    // Vela: a subgraph output cannot be constant, so an Add of zero copies it ("<name>_copy").
    Operation origin;
    origin.sourceType = "CONST";
    const TensorId constant = output;
    const std::vector<std::int64_t> zero{0};
    const TensorId zeroTensor =
        addConstant(subgraph, "zero", Shape{1}, tensor.type, zero, subgraph.tensor(constant).quantisation);
    const TensorId copy = cloneTensor(subgraph, constant, "");
    Operation add = deriveOperation(origin, OpType::Add, subgraph.tensor(constant).name + "_copy");
    add.inputs = {constant, zeroTensor};
    add.outputs = {copy};
    setDefaultShapes(subgraph, add);
    subgraph.operations.push_back(std::move(add));
    output = copy;
  }
}

} // namespace ethosu::lowering
