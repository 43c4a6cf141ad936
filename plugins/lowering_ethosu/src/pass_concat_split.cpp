// SPDX-License-Identifier: Apache-2.0
// Concatenation as writes at offsets and split/slice as reads at offsets (Vela tflite_graph_optimiser.py:
// rewrite_concat_ops, rewrite_split_ops, rewrite_stridedslice_output, rewrite_unpack_output,
// remove_SplitSliceRead; graph_optimiser_util.py: create_avg_pool_for_concat).
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

namespace ethosu::lowering {

using namespace npu;

namespace {

/// Per input slot: Vela 2.1.1 keeps the split input this operation reads out of the brick format.
constexpr std::array<std::string_view, 2> kSplitPartUnaligned{"ifm_split_part_unaligned", "ifm2_split_part_unaligned"};

int axisIn4D(int axis, int rank) {
  return axis >= 0 ? axis + (4 - rank) : 4 + axis;
}

std::int64_t scalarValue(const Subgraph& subgraph, TensorId tensor) {
  const auto values = subgraph.tensor(tensor).integerValues();
  require(!values.empty(), "axis tensor must be a constant");
  return values.front();
}

std::optional<std::vector<Operation>> rewriteConcatenation(Subgraph& subgraph, const Operation& op) {
  if (op.placement != Placement::Npu ||
      (op.type != OpType::ConcatTFLite && op.type != OpType::Concat && op.type != OpType::Pack)) {
    return std::nullopt;
  }
  std::vector<Operation> result;
  TensorId ofm = op.ofm();
  if (op.activation) {
    // Vela unfuse_activation_function: the writes go to an intermediate tensor, the activation follows.
    const TensorId finalOfm = ofm;
    ofm = cloneTensor(subgraph, finalOfm, "_act_intermediate");
    Operation activation = makeAvgPoolNop(op, op.name + std::string(nameOf(op.activation->type)) + "_avgpool");
    activation.inputs = {ofm};
    activation.outputs = {finalOfm};
    activation.activation = op.activation;
    activation.attributes.set("packed_operations", std::int64_t{1});
    setDefaultShapes(subgraph, activation);
    result.push_back(std::move(activation));
  }
  std::vector<TensorId> inputs = op.inputs;
  int axis = static_cast<int>(op.attributes.getOr<std::int64_t>("axis", 0));
  if (op.type == OpType::Concat) {
    axis = static_cast<int>(scalarValue(subgraph, op.inputs[0]));
    inputs.erase(inputs.begin());
  }
  const Shape4 ofmShape = shape4Of(subgraph, ofm);
  std::vector<Operation> writes;
  int offset = 0;
  for (std::size_t index = 0; index < inputs.size(); ++index) {
    const Shape& inputShape = subgraph.tensor(inputs[index]).shape;
    Shape4 inputShape4 = Shape4::fromShape(inputShape);
    int axis4 = axisIn4D(axis, inputShape.rank());
    if (op.type == OpType::Pack) {
      // Pack stacks along a new axis: each input is seen with a 1 inserted there.
      const int rank = inputShape.rank() + 1;
      const int packAxis = axis < 0 ? rank + axis : axis;
      std::vector<int> dims(inputShape.dims().begin(), inputShape.dims().end());
      dims.insert(dims.begin() + packAxis, 1);
      inputShape4 = Shape4::fromShape(Shape(dims));
      axis4 = packAxis + (4 - rank);
    }
    Operation write = makeAvgPoolNop(op, op.name + std::to_string(index) + "_avgpool");
    write.inputs = {inputs[index]};
    write.outputs = {ofm};
    write.ifmShapes = {inputShape4};
    write.ofmShapes = {ofmShape};
    Shape4 writeOffset{0, 0, 0, 0};
    writeOffset =
        Shape4{axis4 == 0 ? offset : 0, axis4 == 1 ? offset : 0, axis4 == 2 ? offset : 0, axis4 == 3 ? offset : 0};
    write.writeOffset = writeOffset;
    write.writeShape = inputShape4;
    write.attributes.set("memory_function", std::string("ConcatSliceWrite"));
    offset += inputShape4[axis4];
    writes.push_back(std::move(write));
  }
  writes.insert(writes.end(), result.begin(), result.end());
  return writes;
}

struct SliceRegion {
  Shape4 offset{0, 0, 0, 0};
  Shape4 shape;
  Shape4 ofmShape;
};

/// Pads a per-dimension list to 4D with `fill` in front (Vela Shape4D.from_list).
Shape4 fromList(const std::vector<std::int64_t>& values, int fill) {
  std::vector<int> dims(4, fill);
  const std::size_t count = std::min<std::size_t>(values.size(), 4);
  for (std::size_t i = 0; i < count; ++i) {
    dims[4 - count + i] = static_cast<int>(values[values.size() - count + i]);
  }
  return {dims[0], dims[1], dims[2], dims[3]};
}

/// Begin/end of a STRIDED_SLICE with its masks resolved; shrunk axes keep a size of one.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> stridedSliceBounds(const Subgraph& subgraph,
                                                                                   const Operation& op) {
  const Shape& inputShape = subgraph.tensor(op.inputs[0]).shape;
  const auto begin = subgraph.tensor(op.inputs[1]).integerValues();
  const auto end = subgraph.tensor(op.inputs[2]).integerValues();
  const auto beginMask = op.attributes.getOr<std::int64_t>("begin_mask", 0);
  const auto endMask = op.attributes.getOr<std::int64_t>("end_mask", 0);
  const auto shrinkMask = op.attributes.getOr<std::int64_t>("shrink_axis_mask", 0);
  std::vector<std::int64_t> starts;
  std::vector<std::int64_t> ends;
  for (int axis = 0; axis < inputShape.rank(); ++axis) {
    const std::int64_t size = inputShape[axis];
    const auto index = static_cast<std::size_t>(axis);
    std::int64_t start = index < begin.size() ? begin[index] : 0;
    std::int64_t stop = index < end.size() ? end[index] : size;
    if (start < 0) {
      start += size;
    }
    if (stop < 0) {
      stop += size;
    }
    if ((beginMask >> axis) & 1) {
      start = 0;
    }
    if ((endMask >> axis) & 1) {
      stop = size;
    }
    if ((shrinkMask >> axis) & 1) {
      stop = start + 1;
    }
    starts.push_back(std::clamp<std::int64_t>(start, 0, size));
    ends.push_back(std::clamp<std::int64_t>(stop, 0, size));
  }
  return {starts, ends};
}

/// Where each output of a split-like operation reads its input; empty when the operation is unknown.
std::vector<SliceRegion> sliceRegions(const Subgraph& subgraph, const Operation& op, TensorId& input) {
  std::vector<SliceRegion> regions;
  if (op.type == OpType::Slice || op.type == OpType::StridedSlice) {
    input = op.inputs[0];
    const Shape& inputShape = subgraph.tensor(input).shape;
    std::vector<std::int64_t> starts;
    std::vector<std::int64_t> ends;
    if (op.type == OpType::Slice) {
      starts = subgraph.tensor(op.inputs[1]).integerValues();
      const auto sizes = subgraph.tensor(op.inputs[2]).integerValues();
      for (std::size_t i = 0; i < starts.size(); ++i) {
        ends.push_back(sizes[i] < 0 ? inputShape[static_cast<int>(i)] : starts[i] + sizes[i]);
      }
    } else {
      std::tie(starts, ends) = stridedSliceBounds(subgraph, op);
    }
    std::vector<std::int64_t> sizes;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      sizes.push_back(ends[i] - starts[i]);
    }
    regions.push_back({fromList(starts, 0), fromList(sizes, 1), fromList(sizes, 1)});
    return regions;
  }
  int axis = 0;
  if (op.type == OpType::Split) {
    axis = static_cast<int>(scalarValue(subgraph, op.inputs[0]));
    input = op.inputs[1];
  } else if (op.type == OpType::SplitV) {
    input = op.inputs[0];
    axis = static_cast<int>(scalarValue(subgraph, op.inputs[2]));
  } else if (op.type == OpType::Unpack) {
    input = op.inputs[0];
    axis = static_cast<int>(op.attributes.getOr<std::int64_t>("axis", 0));
  } else {
    return regions;
  }
  const int inputRank = subgraph.tensor(input).shape.rank();
  if (axis < 0) {
    axis += inputRank;
  }
  int offset = 0;
  for (TensorId output : op.outputs) {
    const Shape& outputShape = subgraph.tensor(output).shape;
    Shape4 ofmShape = Shape4::fromShape(outputShape);
    int axis4 = axis + (4 - outputShape.rank());
    if (op.type == OpType::Unpack) {
      std::vector<int> dims(outputShape.dims().begin(), outputShape.dims().end());
      dims.insert(dims.begin() + axis, 1);
      ofmShape = Shape4::fromShape(Shape(dims));
      axis4 = axis + (4 - static_cast<int>(dims.size()));
    }
    SliceRegion region;
    region.offset =
        Shape4{axis4 == 0 ? offset : 0, axis4 == 1 ? offset : 0, axis4 == 2 ? offset : 0, axis4 == 3 ? offset : 0};
    region.shape = ofmShape;
    region.ofmShape = ofmShape;
    offset += ofmShape[axis4];
    regions.push_back(region);
  }
  return regions;
}

std::optional<std::vector<Operation>> rewriteSplit(Subgraph& subgraph, const Operation& op) {
  if (op.placement != Placement::Npu || !is(op.type, OpCategory::Split)) {
    return std::nullopt;
  }
  if (op.type == OpType::Split && op.outputs.size() == 1) {
    // Vela convert_nop_split_to_identity: a split into one part is the identity.
    Operation identity = op;
    identity.type = OpType::Identity;
    identity.inputs = {op.inputs[1]};
    setDefaultShapes(subgraph, identity);
    return std::vector<Operation>{identity};
  }
  TensorId input = kNoTensor;
  const std::vector<SliceRegion> regions = sliceRegions(subgraph, op, input);
  if (regions.size() != op.outputs.size()) {
    return std::nullopt;
  }
  // Vela 2.1.1's rewrite_split_ops keeps the input of a SPLIT, SPLIT_V or UNPACK out of the brick format
  // when a part it reads starts, or an earlier part ends, at a channel offset that is not a multiple of
  // 16 (a SLICE's or STRIDED_SLICE's read never does); its 2020 cost model judges bursts by that.
  std::size_t lastRead = 0;
  for (std::size_t index = 0; index < op.outputs.size(); ++index) {
    if (consumerCount(subgraph, op.outputs[index]) != 0) {
      lastRead = index;
    }
  }
  bool unalignedPart = false;
  if (op.type != OpType::Slice && op.type != OpType::StridedSlice) {
    for (std::size_t index = 1; index <= lastRead; ++index) {
      unalignedPart = unalignedPart || regions[index].offset.depth % 16 != 0;
    }
  }
  std::vector<Operation> reads;
  for (std::size_t index = 0; index < op.outputs.size(); ++index) {
    const TensorId output = op.outputs[index];
    if (consumerCount(subgraph, output) == 0) {
      continue;
    }
    Operation read = deriveOperation(op, OpType::SplitSliceRead, op.name);
    read.inputs = {input};
    read.outputs = {output};
    read.ifmShapes = {shape4Of(subgraph, input)};
    read.ofmShapes = {regions[index].ofmShape};
    read.readOffsets[0] = regions[index].offset;
    read.readShapes[0] = regions[index].shape;
    if (unalignedPart) {
      read.attributes.set(std::string(kSplitPartUnaligned[0]), true);
    }
    reads.push_back(std::move(read));
  }
  return reads;
}

/// Who reads each tensor, kept current while reads move into their consumers (the consumers then read
/// the read's source instead); ascending operation order, as consumersOf gives.
using ConsumerIndex = std::vector<std::set<OperationId>>;

ConsumerIndex indexConsumers(const Subgraph& subgraph) {
  ConsumerIndex index(subgraph.tensors.size());
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    for (const TensorId input : subgraph.operations[i].inputs) {
      if (subgraph.validTensorId(input)) {
        index[static_cast<std::size_t>(input)].insert(static_cast<OperationId>(i));
      }
    }
  }
  return index;
}

/// Whether a split/slice part is one run of bytes of its (NHWC) source: the axes before the first one
/// it does not span whole are 1, the axes after it whole.
bool partIsOneRun(const Operation& read) {
  const Shape4& source = read.ifmShapes[0];
  const Shape4& part = read.readShapes[0].value_or(read.ofmShapes[0]);
  for (int first = 0; first < 4; ++first) {
    bool contiguous = true;
    for (int axis = 0; axis < 4; ++axis) {
      contiguous = contiguous && !(axis < first && part[axis] != 1) && !(axis > first && part[axis] != source[axis]);
    }
    if (contiguous) {
      return true;
    }
  }
  return false;
}

/// Whether a consumer can read a part of a tensor in place. A FULLY_CONNECTED sees its IFM as
/// [N, 1, 1, C], and a MEMCPY is a DMA of one run of bytes: neither can read a part that is not one run
/// of its source. Vela moves the read regardless: its FULLY_CONNECTED then reads 1x1xC of the part with
/// weights encoded for the whole part (random_349: a [1, 20, 2, 6] part of [1, 20, 12, 6] read as
/// [1, 1, 1, 240]), and its MEMCPY copies the whole source from its start (random_485: a MEAN over a
/// one-wide axis of half the channels of a SPLIT copies all 1088 bytes of the input into 544), programs
/// that compute something else; a DMA also needs the part to start on 16 bytes. Such a part is copied into a tensor of
/// its own instead, as Vela does for readers that cannot take a read. A part that is one run of bytes moves as in Vela.
bool consumerCanReadPartInPlace(const Subgraph& subgraph, const Operation& read, const Operation& consumer) {
  if (consumer.ifm() != read.ofm()) {
    return true;
  }
  if (consumer.type == OpType::Memcpy) {
    // The DMA's source address must also be a multiple of 16 bytes (the tensor's base is): the part's
    // byte offset, computed modulo 16 (a model's shapes are not bounded here).
    const Shape4& source = read.ifmShapes[0];
    const Shape4 offset = read.readOffsets[0].value_or(Shape4{0, 0, 0, 0});
    std::int64_t start = 0;
    for (int axis = 0; axis < 4; ++axis) {
      start = (start * (source[axis] % 16) + offset[axis] % 16) % 16;
    }
    start = start * bytesOf(subgraph.tensor(read.ifm()).type);
    return partIsOneRun(read) && start % 16 == 0;
  }
  if (partIsOneRun(read)) {
    return true;
  }
  return consumer.type != OpType::FullyConnected || consumer.ifmShapes.empty() ||
         consumer.ifmShapes[0] == read.readShapes[0].value_or(read.ofmShapes[0]);
}

bool readCanMoveToConsumers(const Subgraph& subgraph, const Operation& read, const std::set<OperationId>& consumers) {
  if (read.ofmShapes[0] != shape4Of(subgraph, read.ofm()) || isSubgraphOutput(subgraph, read.ofm())) {
    return false;
  }
  return !consumers.empty() && std::all_of(consumers.begin(), consumers.end(), [&](OperationId id) {
    const Operation& consumer = subgraph.operation(id);
    return consumer.placement == Placement::Npu && !is(consumer.type, OpCategory::MemoryOnly) &&
           consumer.sourceType != "TRANSPOSE" && consumerCanReadPartInPlace(subgraph, read, consumer) &&
           (consumer.ifm() == read.ofm() || (isBinaryElementwise(consumer.type) && consumer.ifm2() == read.ofm()));
  });
}

void moveReadIntoConsumer(const Operation& read, Operation& consumer) {
  const std::size_t slot = consumer.ifm() == read.ofm() ? 0 : 1;
  const TensorId target = read.ofm();
  consumer.readOffsets[slot] = read.readOffsets[0];
  if (read.attributes.getOr<bool>(kSplitPartUnaligned[0], false)) {
    consumer.attributes.set(std::string(kSplitPartUnaligned[slot]), true);
  }
  consumer.readShapes[slot] = read.readShapes[0];
  for (TensorId& input : consumer.inputs) {
    if (input == target) {
      input = read.ifm();
    }
  }
  if (consumer.ifmShapes.size() > slot) {
    // A consumer that saw the part in a view of its own (a SOFTMAX's max pool reads [1, H, W, C] as
    // [1, H*W, C, 1]) now sees the whole source, as Vela's estimates do; code generation still needs
    // that view to address the part ("ifm_read_view", codegen only).
    const Shape4 view = consumer.ifmShapes[slot];
    if (slot == 0 && view != read.ofmShapes[0]) {
      consumer.attributes.set("ifm_read_view",
                              std::vector<std::int64_t>{view.batch, view.height, view.width, view.depth});
    }
    consumer.ifmShapes[slot] = read.ifmShapes[0];
  }
}

} // namespace

void rewriteConcatenations(Subgraph& subgraph, const LoweringContext& /*context*/) {
  rewriteEach(subgraph, rewriteConcatenation);
}

void rewriteSplits(Subgraph& subgraph, const LoweringContext& /*context*/) {
  rewriteEach(subgraph, rewriteSplit);
}

// Linear in the graph's size: the consumers come from an index kept up to date, and moved reads are
// dropped in one sweep at the end (an LSTM unrolls into thousands of reads).
void removeSplitSliceReads(Subgraph& subgraph, const LoweringContext& context) {
  // Vela 2.1.1's remove_SplitSliceRead moves a read only into a sole reader that is not a RESHAPE.
  const bool vela21 = context.release == VelaRelease::V2_1;
  ConsumerIndex consumers = indexConsumers(subgraph);
  std::vector<bool> moved(subgraph.operations.size(), false);
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    Operation& read = subgraph.operations[i];
    if (read.type != OpType::SplitSliceRead) {
      continue;
    }
    auto& readers = consumers[static_cast<std::size_t>(read.ofm())];
    const bool soleReader = readers.size() == 1 && subgraph.operation(*readers.begin()).type != OpType::Reshape;
    if ((!vela21 || soleReader) && readCanMoveToConsumers(subgraph, read, readers)) {
      auto& sourceReaders = consumers[static_cast<std::size_t>(read.ifm())];
      for (OperationId consumer : readers) {
        moveReadIntoConsumer(read, subgraph.operation(consumer));
        sourceReaders.insert(consumer);
      }
      readers.clear();
      sourceReaders.erase(static_cast<OperationId>(i));
      moved[i] = true;
      continue;
    }
    Operation copy = makeAvgPoolNop(read, read.name + "_avgpool");
    copy.inputs = read.inputs;
    copy.outputs = read.outputs;
    copy.ifmShapes = read.ifmShapes;
    copy.ofmShapes = read.ofmShapes;
    copy.readOffsets = read.readOffsets;
    copy.readShapes = read.readShapes;
    if (read.attributes.getOr<bool>(kSplitPartUnaligned[0], false)) {
      copy.attributes.set(std::string(kSplitPartUnaligned[0]), true);
    }
    read = std::move(copy);
  }
  std::vector<Operation> kept;
  kept.reserve(subgraph.operations.size());
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    if (!moved[i]) {
      kept.push_back(std::move(subgraph.operations[i]));
    }
  }
  subgraph.operations = std::move(kept);
}

} // namespace ethosu::lowering
