// SPDX-License-Identifier: Apache-2.0
#include "operations/describe_region.hpp"

#include "generator/parallel_work.hpp"
#include "operations/operation_semantics.hpp"

#include "ethosu/weights/weight_preparation.hpp"

#include "npu/core/diagnostics.hpp"

#include <map>

namespace ethosu::codegen {

namespace {

constexpr int kBrickDepth = 16;

/// Where the region's tensors and weight buffers were placed.
class RegionStorage {
public:
  explicit RegionStorage(const RegionSources& sources) : sources_(sources) {
    const npu::Schedule& schedule = sources.schedule;
    for (std::size_t b = 0; b < schedule.buffers.size(); ++b) {
      const npu::BufferRequest& buffer = schedule.buffers[b];
      const std::int64_t address = sources.allocation.addresses.at(b);
      if (buffer.content == npu::BufferContent::WeightBuffer) {
        weightBuffers_[{buffer.operation, buffer.bufferIndex}] = {buffer.area, address};
        continue;
      }
      for (const npu::TensorId tensor : buffer.tensors) {
        tensors_.try_emplace(storageKey(subgraph(), tensor), npu::TensorAddress{buffer.area, address});
      }
    }
    const npu::Subgraph& subgraph = this->subgraph();
    for (const npu::ScheduledOperation& scheduled : schedule.operations) {
      if (scheduled.ifmRollingBuffer) {
        const npu::Operation& op = subgraph.operation(scheduled.op);
        const npu::TensorId ifm = scheduled.reversedOperands ? op.ifm2() : op.ifm();
        rollingHeights_[ifm] = scheduled.ifmRollingBuffer->height;
      }
    }
  }

  [[nodiscard]] const npu::Subgraph& subgraph() const {
    return sources_.graph.subgraphs.at(static_cast<std::size_t>(sources_.schedule.region.subgraph));
  }

  [[nodiscard]] StoredTensor stored(npu::TensorId id) const {
    const npu::Subgraph& graph = subgraph();
    const npu::Tensor& tensor = graph.tensor(id);
    const npu::MemorySystem& memory = sources_.accelerator.memory();
    StoredTensor stored;
    stored.name = tensor.name;
    stored.elementBytes = npu::bytesOf(tensor.type);
    stored.scalar = tensor.shape.isScalar();
    if (const auto home = sources_.schedule.tensorHomes.find(id); home != sources_.schedule.tensorHomes.end()) {
      stored.format = home->second.format;
    }
    if (tensor.isConstant()) {
      const auto address = sources_.readOnly.constantAddress(graph, sources_.schedule.region.subgraph, id);
      if (!address) {
        npu::throwInternalError("constant '" + tensor.name + "' has no place in the read-only area");
      }
      stored.region = region::kReadOnly;
      stored.address = *address;
      stored.format = npu::TensorFormat::NHWC;
      stored.standard = tensor.purpose == npu::TensorPurpose::FeatureMap;
      stored.storageShape = npu::Shape4::fromShape(tensor.shape);
      return stored;
    }
    const npu::TensorAddress placed = addressOf(id);
    stored.region = regionOf(placed.area, false, memory);
    stored.address = placed.address;
    if (const auto rolling = rollingHeights_.find(id); rolling != rollingHeights_.end()) {
      // Vela: Tensor.set_new_sub_purpose(RollingBufferY, height) on the NHCWB16 storage shape.
      const npu::Shape4 shape = npu::Shape4::fromShape(tensor.shape);
      stored.format = npu::TensorFormat::NHCWB16;
      stored.standard = false;
      stored.storageShape = npu::Shape4{1, std::min(shape.height, rolling->second), shape.width,
                                        static_cast<int>(npu::roundUp(shape.depth, kBrickDepth))};
    }
    return stored;
  }

  [[nodiscard]] std::optional<npu::TensorAddress> weightBuffer(int position, int index) const {
    const auto it = weightBuffers_.find({position, index});
    return it == weightBuffers_.end() ? std::nullopt : std::optional(it->second);
  }

private:
  [[nodiscard]] npu::TensorAddress addressOf(npu::TensorId id) const {
    const npu::Subgraph& graph = subgraph();
    if (const auto it = tensors_.find(storageKey(graph, id)); it != tensors_.end()) {
      return it->second;
    }
    // Equivalent tensors (a variable and its updates) share one buffer, listed under one of them.
    for (const auto& [tensor, address] :
         sources_.addresses.subgraphs.at(static_cast<std::size_t>(sources_.schedule.region.subgraph))) {
      if (storageKey(graph, tensor) == storageKey(graph, id)) {
        return address;
      }
    }
    npu::throwInternalError("tensor '" + subgraph().tensor(id).name + "' of schedule '" + sources_.schedule.label +
                            "' has no address");
  }

  const RegionSources& sources_;
  std::map<std::int64_t, npu::TensorAddress> tensors_; ///< by storage key
  std::map<std::pair<int, int>, npu::TensorAddress> weightBuffers_;
  std::map<npu::TensorId, int> rollingHeights_;
};

// Vela: high_level_command_to_npu_op.ifm_ifm2_correct_order.
bool operandsInHardwareOrder(const npu::Subgraph& subgraph, npu::TensorId ifm, npu::TensorId ifm2,
                             const npu::Shape4& ifmShape, const npu::Shape4& ifm2Shape) {
  if (subgraph.tensor(ifm).shape.isScalar()) {
    return false;
  }
  if (subgraph.tensor(ifm2).shape.isScalar()) {
    return true;
  }
  for (int axis = 0; axis < 4; ++axis) {
    if (ifmShape[axis] != ifm2Shape[axis] && ifmShape[axis] == 1) {
      return false;
    }
  }
  return true;
}

/// An elementwise operation walks IFM, IFM2 and OFM alike, in one shape. Lowering can leave one reading
/// an operand of another shape with as many elements (the producer of a bypassed RESHAPE writes the
/// reshaped tensor: EXP of a 37x37 map writing its 1x1369 reshape), and reading that operand in its own
/// shape would take a 37-wide tile and a second tile at base 0 for the rest of the row.
bool reshaped(const OperandInfo& operand, const npu::Shape4& shape) {
  return !operand.storage.scalar && operand.shape != shape && operand.shape.elements() == shape.elements();
}

/// The format that addresses a feature map stored whole in `operand.shape` when seen as `shape`, if any:
/// NHWC as it is; bricks as NHWC when they hold one pixel (its channels in order); bricks as bricks with
/// the same depth of one brick at most (a brick per pixel).
std::optional<npu::TensorFormat> formatSeenAs(const OperandInfo& operand, const npu::Shape4& shape) {
  const npu::Shape4& own = operand.shape;
  if (!operand.storage.standard) {
    return std::nullopt;
  }
  if (operand.storage.format == npu::TensorFormat::NHWC || (own.batch == 1 && own.height == 1 && own.width == 1)) {
    return npu::TensorFormat::NHWC;
  }
  if (own.depth == shape.depth && shape.depth <= 16) {
    return operand.storage.format;
  }
  return std::nullopt;
}

/// Whether the operand is one row of pixels stored whole and `shape` cuts it into rows of as many
/// channels: every format addresses that with a row stride of `shape.width` pixels.
bool cutsRow(const OperandInfo& operand, const npu::Shape4& shape) {
  const npu::Shape4& own = operand.shape;
  return operand.storage.standard && own.batch == 1 && own.height == 1 && shape.batch == 1 &&
         own.depth == shape.depth && std::int64_t{shape.height} * shape.width == own.width;
}

bool sameBytesAs(const OperandInfo& operand, const npu::Shape4& shape) {
  return formatSeenAs(operand, shape).has_value() || cutsRow(operand, shape);
}

/// Sees the operand in `shape` (sameBytesAs it).
void seeAs(OperandInfo& operand, const npu::Shape4& shape) {
  if (const auto format = formatSeenAs(operand, shape)) {
    operand.storage.format = *format;
  } else {
    operand.storedAs = operand.shape;
  }
  operand.shape = shape;
}

/// The operands are read in the OFM's shape when their storage allows; else the OFM is written in the
/// IFM's shape when its storage allows (a SQUARED_DIFFERENCE's last Mul reads a bricked [1, 22, 11, 14]
/// and writes its [1, 1, 1, 3388] reshape, one pixel of bricks: its channels in order). Returns whether the OFM's shape
/// changed.
bool agreeOnShape(OperationInfo& info) {
  const auto readable = [&](const OperandInfo& operand, const npu::Shape4& shape) {
    return !reshaped(operand, shape) || sameBytesAs(operand, shape);
  };
  if (readable(info.ifm, info.ofm.shape) && (!info.ifm2 || readable(*info.ifm2, info.ofm.shape))) {
    for (OperandInfo* operand : {&info.ifm, info.ifm2 ? &*info.ifm2 : nullptr}) {
      if (operand != nullptr && reshaped(*operand, info.ofm.shape)) {
        seeAs(*operand, info.ofm.shape);
      }
    }
    return false;
  }
  const npu::Shape4 shape = info.ifm.shape;
  if (reshaped(info.ofm, shape) && sameBytesAs(info.ofm, shape) && (!info.ifm2 || readable(*info.ifm2, shape))) {
    if (info.ifm2 && reshaped(*info.ifm2, shape)) {
      seeAs(*info.ifm2, shape);
    }
    seeAs(info.ofm, shape);
    return true;
  }
  npu::throwInternalError("elementwise operation '" + info.name + "' reads '" + info.ifm.storage.name + "' as " +
                          info.ifm.shape.str() + " but writes '" + info.ofm.storage.name + "' as " +
                          info.ofm.shape.str() + ", and no shape addresses both storages");
}

/// A part of a split read in a view of its own (lowering's "ifm_read_view": a SOFTMAX's max pool reads its
/// [1, 1, 1, 50] part of a [1, 1, 1, 100] source as [1, 1, 50, 1], a 50-wide kernel). The read offset and
/// shape are in the source's shape, where the kernel would find a 1-wide IFM and read the rest of its
/// width from another tile: the source is addressed in the view's rows instead, the same bytes when it
/// is stored whole as NHWC and the part is one run of them that starts on a row of the view.
void readPartInView(OperandInfo& ifm, std::optional<npu::Shape4>& offset, std::optional<npu::Shape4>& shape,
                    const npu::Shape4& view, const std::string& name) {
  const npu::Shape4 source = ifm.shape;
  if (!offset || !shape || view == *shape) {
    return;
  }
  const bool linear = ifm.storage.standard && ifm.storage.format == npu::TensorFormat::NHWC;
  // Pixels as rows and channels as columns (a SOFTMAX or ARG_MAX view): every pixel of the source is a
  // row of its channels, and the part's pixels are consecutive rows when it spans the source's width.
  const std::int64_t pixels = std::int64_t{shape->batch} * shape->height * shape->width;
  if (linear && view == npu::Shape4{1, static_cast<int>(pixels), shape->depth, 1} &&
      (shape->width == source.width || (shape->height == 1 && shape->batch == 1)) &&
      (shape->height == source.height || shape->batch == 1)) {
    const std::int64_t firstPixel =
        (std::int64_t{offset->batch} * source.height + offset->height) * source.width + offset->width;
    ifm.shape =
        npu::Shape4{1, static_cast<int>(std::int64_t{source.batch} * source.height * source.width), source.depth, 1};
    offset = npu::Shape4{0, static_cast<int>(firstPixel), offset->depth, 0};
    shape = view;
    return;
  }
  // A part one pixel wide: its rows are the source's rows (the source seen as [1, N*H, W*C, 1]), its
  // channels a column offset within them.
  if (linear && view == npu::Shape4{1, static_cast<int>(pixels), shape->depth, 1} && shape->width == 1 &&
      (shape->batch == 1 || shape->height == source.height)) {
    ifm.shape = npu::Shape4{1, source.batch * source.height, source.width * source.depth, 1};
    offset =
        npu::Shape4{0, offset->batch * source.height + offset->height, offset->width * source.depth + offset->depth, 0};
    shape = view;
    return;
  }
  // One run of bytes: the axes outside the first partial one are 1, the axes inside it whole.
  bool contiguous = false;
  for (int split = 0; split < 4 && !contiguous; ++split) {
    contiguous = true;
    for (int axis = 0; axis < 4; ++axis) {
      if ((axis < split && (*shape)[axis] != 1) || (axis > split && (*shape)[axis] != source[axis])) {
        contiguous = false;
      }
    }
  }
  const std::int64_t start =
      ((std::int64_t{offset->batch} * source.height + offset->height) * source.width + offset->width) * source.depth +
      offset->depth;
  const std::int64_t row = std::int64_t{view.width} * view.depth;
  const bool addressable = linear && contiguous && view.batch == 1 && view.elements() == shape->elements() &&
                           start % row == 0 && source.elements() % row == 0;
  if (!addressable) {
    // Vela 3.10 lets such an operation (e.g. a FULLY_CONNECTED of a strided part of a SPLIT or SLICE) read
    // the part in a shape that is not the part (its FULLY_CONNECTED reads 1x1xC of the part), a program
    // that computes something else: refuse it.
    npu::throwCompileError("operation '" + name + "' reads part " + shape->str() + " at " + offset->str() + " of '" +
                               ifm.storage.name + "' " + source.str() + " as " + view.str() +
                               ", which the NPU cannot address in that shape",
                           {},
                           "the part is not one run of bytes in its source; Vela 3.10 compiles it into a program "
                           "that does not read the part as its input");
  }
  ifm.shape = npu::Shape4{1, static_cast<int>(source.elements() / row), view.width, view.depth};
  offset = npu::Shape4{0, static_cast<int>(start / row), 0, 0};
  shape = view;
}

/// Vela moves only the first OFM tile's base (tile_base_offsets_ofm[0] of the depthwise convolutions a
/// half-pixel RESIZE_BILINEAR becomes); the OFM of such an operation is one tile.
std::array<std::int64_t, 4> tileOffsetsOf(const npu::Operation& op) {
  return {op.attributes.getOr<std::int64_t>("ofm_tile_base_offset", 0), 0, 0, 0};
}

/// The operation as its commands apply it. When lowering packed a ReLU into a pass whose operation has an
/// activation of its own, scheduling costs the operation's activation but the commands apply the ReLU:
/// Vela replaces the pass's activation while it turns the pass into commands
/// (high_level_command_stream_generator.py, generate_high_level_commands_for_sched_op).
std::optional<npu::Operation> withCommandStreamActivation(const npu::Operation& op) {
  const auto packed = op.attributes.get<std::string>("command_stream_activation");
  if (!packed) {
    return std::nullopt;
  }
  const auto type = npu::opTypeFromName(*packed);
  npu::require(type.has_value(), "a packed activation names an operation type");
  npu::Operation replaced = op;
  replaced.activation = npu::Activation{*type, op.attributes.get<double>("command_stream_activation_min"),
                                        op.attributes.get<double>("command_stream_activation_max"), npu::kNoTensor};
  return replaced;
}

OperationInfo describe(const RegionSources& sources, const RegionStorage& storage, std::size_t position) {
  const npu::Subgraph& subgraph = storage.subgraph();
  const npu::ScheduledOperation& scheduled = sources.schedule.operations[position];
  const std::optional<npu::Operation> replaced = withCommandStreamActivation(subgraph.operation(scheduled.op));
  const npu::Operation& op = replaced ? *replaced : subgraph.operation(scheduled.op);
  OperationInfo info;
  info.name = op.name;
  info.blockType = npuBlockTypeOf(op.type);
  info.reversedOperands = scheduled.reversedOperands;

  const auto operand = [&](npu::TensorId tensor, const npu::Shape4& shape, bool input) {
    OperandInfo result;
    result.storage = storage.stored(tensor);
    result.shape = shape;
    // A memory copy moves bytes, whatever their type (e.g. the int64 result of ARG_MAX).
    if (info.blockType != NpuBlockType::Dma) {
      result.type = npuDataType(subgraph.tensor(tensor).type, subgraph.tensor(tensor).name);
    }
    result.quantisation = hardwareQuantisation(subgraph, op, tensor, input);
    return result;
  };
  npu::TensorId ifm = op.ifm();
  npu::TensorId ifm2 = op.ifm2();
  npu::Shape4 ifmShape = subgraph.ifmShape(op, 0);
  npu::Shape4 ifm2Shape = ifm2 != npu::kNoTensor ? subgraph.ifmShape(op, 1) : npu::Shape4{};
  if (scheduled.reversedOperands) {
    std::swap(ifm, ifm2);
    std::swap(ifmShape, ifm2Shape);
  }
  info.ifm = operand(ifm, ifmShape, true);
  info.ofm = operand(op.ofm(), subgraph.ofmShape(op, 0), false);
  info.ofm.tileOffsets = tileOffsetsOf(op);
  if (const auto multiplier = op.attributes.get<std::vector<std::int64_t>>("ofm_stride_multiplier");
      multiplier && multiplier->size() == 3) {
    info.ofmStrideMultiplier = {static_cast<int>((*multiplier)[0]), static_cast<int>((*multiplier)[1]),
                                static_cast<int>((*multiplier)[2])};
  }
  info.ofmTransposed = op.attributes.getOr<bool>("ofm_swap_hw_strides", false);
  info.ifmReadOffset = op.readOffsets[0];
  info.ifmReadShape = op.readShapes[0];
  describeSemantics(subgraph, op, info);
  if (const auto view = op.attributes.get<std::vector<std::int64_t>>("ifm_read_view");
      view && view->size() == 4 && !scheduled.reversedOperands) {
    readPartInView(info.ifm, info.ifmReadOffset, info.ifmReadShape,
                   npu::Shape4{static_cast<int>((*view)[0]), static_cast<int>((*view)[1]), static_cast<int>((*view)[2]),
                               static_cast<int>((*view)[3])},
                   op.name);
  }
  if (ifm2 != npu::kNoTensor && info.kind == BlockOperation::Kind::Elementwise && !info.unary) {
    info.ifm2 = operand(ifm2, ifm2Shape, true);
    // A scalar or broadcast operand must be IFM2: swap them here unless the scheduler already did.
    if (!scheduled.reversedOperands && !operandsInHardwareOrder(subgraph, ifm, ifm2, ifmShape, ifm2Shape)) {
      std::swap(info.ifm, *info.ifm2);
      std::swap(ifm, ifm2);
      info.reversedOperands = true;
      info.swappedForHardware = true;
    }
    const npu::Tensor& second = subgraph.tensor(ifm2);
    if (second.shape.isScalar() && second.isConstant()) {
      const auto values = second.floatValues();
      const double zeroPoint = static_cast<double>(second.quantisation.zeroPointAt(0));
      const double scale = second.quantisation.scale.empty() ? 1.0 : second.quantisation.scaleAt(0);
      info.ifm2Scalar = second.quantisation.empty() ? values.at(0) : (values.at(0) - zeroPoint) * scale;
    }
  }
  if (info.kind == BlockOperation::Kind::Elementwise && !info.ifmReadShape) {
    info.ofmReshaped = agreeOnShape(info);
  }
  if (!info.memoryCopy) {
    describeScaling(op, info);
  }
  info.blockConfig = Shape3{scheduled.blockConfig.ofmBlock.height, scheduled.blockConfig.ofmBlock.width,
                            scheduled.blockConfig.ofmBlock.depth};
  // A convolution reads its weights in the order they were encoded in (Vela: the weight tensor's
  // hw_traversal); a fully connected layer depth first.
  info.traversal = BlockTraversal::DepthFirst;
  if (info.blockType == NpuBlockType::ConvolutionMxN) {
    const auto stream = weights::prepareWeightStream(subgraph, op);
    if (stream && stream->traversal == weights::WeightTraversal::PartKernelFirst) {
      info.traversal = BlockTraversal::PartKernelFirst;
    }
  }
  info.weights = sources.readOnly.weights(sources.scheduleIndex, position);
  info.weightRegion = region::kReadOnly;
  info.weightBuffersHoldScales = !scheduled.weights || scheduled.weights->buffersHoldScales;
  for (int buffer = 0; buffer < 2; ++buffer) {
    if (const auto placed = storage.weightBuffer(static_cast<int>(position), buffer)) {
      info.weightBufferAddresses[static_cast<std::size_t>(buffer)] = placed->address;
      info.weightBufferRegion = regionOf(placed->area, false, sources.accelerator.memory());
    }
  }
  // The table of the operation's own activation is still copied in when a packed ReLU replaced it (Vela
  // keys the DMA on the operation's activation_lut, which the replacement leaves in place).
  const npu::Operation& original = subgraph.operation(scheduled.op);
  if (original.activation && original.activation->lut != npu::kNoTensor) {
    info.lookupTable = original.activation->lut;
    const auto address = sources.readOnly.constantAddress(subgraph, sources.schedule.region.subgraph, info.lookupTable);
    npu::require(address.has_value(), "lookup tables are in the read-only area");
    info.lookupTableSourceAddress = *address;
    info.lookupTableBytes = subgraph.tensor(info.lookupTable).byteSize();
  }
  return info;
}

} // namespace

int regionOf(npu::MemoryArea area, bool constant, const npu::MemorySystem& memory) {
  if (constant) {
    return region::kReadOnly;
  }
  if (memory.fastStorageIsSeparate() && area == memory.fastStorageArea) {
    return region::kScratchFast;
  }
  return region::kScratch;
}

std::vector<OperationInfo> describeRegion(const RegionSources& sources) {
  const RegionStorage storage(sources);
  // Each operation is described from the schedule and the storage alone (a convolution's weight traversal
  // prepares its weights), so they are described side by side.
  std::vector<OperationInfo> operations(sources.schedule.operations.size());
  forEachInParallel(operations.size(),
                    [&](std::size_t position) { operations[position] = describe(sources, storage, position); });
  return operations;
}

} // namespace ethosu::codegen
