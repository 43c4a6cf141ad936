// SPDX-License-Identifier: Apache-2.0
#include "operations/npu_operation_builder.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <string>

namespace ethosu::codegen {

namespace {

// Vela: high_level_command_to_npu_op.create_feature_map.
FeatureMap featureMap(const OperandInfo& operand, const Box& box,
                      const std::array<int, 3>& strideMultiplier = {1, 1, 1}, bool transposed = false) {
  FeatureMap map;
  map.type = operand.type;
  map.region = operand.storage.region;
  map.layout = operand.storage.format == npu::TensorFormat::NHCWB16 ? NpuLayout::NHCWB16 : NpuLayout::NHWC;
  Strides strides{};
  if (transposed) {
    // The strides of the OFM's real (transposed) shape, with height and width swapped.
    const npu::Shape4& s = operand.shape;
    strides = stridesOf(operand.storage, npu::Shape4{s.batch, s.width, s.height, s.depth});
    std::swap(strides[2], strides[3]);
  } else if (operand.storedAs) {
    strides = stridesOf(operand.storage, *operand.storedAs);
    strides[2] = strides[3] * operand.shape.width;  // y: a row of the cut
    strides[0] = strides[2] * operand.shape.height; // n
  } else {
    strides = stridesOf(operand.storage, operand.shape);
  }
  if (strideMultiplier != std::array<int, 3>{1, 1, 1}) {
    if (operand.storage.format != npu::TensorFormat::NHWC) {
      npu::throwCompileError("feature map '" + operand.storage.name +
                             "': a stride multiplier needs the linear (NHWC) format");
    }
    for (std::size_t axis = 0; axis < 3; ++axis) {
      strides[axis + 1] *= strideMultiplier[axis];
    }
  }
  map.tiles = tilesOf(operand.storage, box, strides, operand.shape);
  for (std::size_t tile = 0; tile < 4; ++tile) {
    map.tiles.addresses[tile] += operand.tileOffsets[tile];
  }
  map.strides = registerStrides(strides);
  map.quantisation = operand.quantisation;
  map.name = operand.storage.name;
  return map;
}

Shape3 shape3(const npu::Shape4& shape) {
  return Shape3{shape.height, shape.width, shape.depth};
}

// Vela: high_level_command_to_npu_op.create_padding.
NpuPadding paddingFor(const StripeCommand& stripe, const OperationInfo& info) {
  if (info.blockType == NpuBlockType::VectorProduct) {
    return {};
  }
  NpuPadding padding{info.explicitPadding.top, info.explicitPadding.left, info.explicitPadding.bottom,
                     info.explicitPadding.right};
  if (!(stripe.firstStripeInHeight && stripe.lastStripeInHeight)) {
    padding.top = stripe.padTop;
    padding.bottom = stripe.padBottom;
  }
  int leftmost = 0;
  int rightmost = info.ifm.shape.width;
  if (info.ifmReadOffset) {
    leftmost = info.ifmReadOffset->width;
    rightmost = info.ifmReadShape.value_or(info.ifm.shape).width; // as Vela: the read shape, not its end
  }
  if (stripe.ifmBox.start[2] > leftmost) {
    padding.left = 0;
  }
  if (stripe.ifmBox.end[2] < rightmost) {
    padding.right = 0;
  }
  return padding;
}

// Vela: high_level_command_to_npu_op.modify_tile_addresses_for_padding (edge replication by tiles).
void padByTiles(TileBox& tiles, const npu::ExplicitPadding& direction, int channels, int elementBytes) {
  const std::int64_t base = tiles.addresses[0];
  const std::int64_t rightOffset = std::int64_t{tiles.width0 - 1} * 16 * elementBytes;
  const std::int64_t bottomOffset =
      std::int64_t{tiles.width0} * (tiles.height0 - 1) * 16 * (npu::roundUp(channels, 16) / 16) * elementBytes;
  const auto is = [&](int top, int left, int bottom, int right) {
    return direction == npu::ExplicitPadding{top, left, bottom, right};
  };
  if (is(1, 1, 0, 0)) {
    tiles.addresses = {base, base, base, base};
    tiles.height0 = tiles.height1 = tiles.width0 = 1;
  } else if (is(1, 0, 0, 1)) {
    tiles.addresses = {base, base + rightOffset, base, base + rightOffset};
    tiles.height0 = tiles.height1 = 1;
  } else if (is(0, 1, 1, 0)) {
    tiles.addresses = {base, base, base + bottomOffset, base + bottomOffset};
    tiles.width0 = 1;
  } else if (is(0, 0, 1, 1)) {
    tiles.addresses = {base, base + rightOffset, base + bottomOffset, base + rightOffset + bottomOffset};
  } else {
    npu::throwInternalError("tile padding in an unsupported direction");
  }
}

/// The slice of the operation's weight stream starting at OFM channel `depth`.
const npu::EncodedWeightSlice& sliceAt(const npu::EncodedWeights& weights, int depth, const std::string& name) {
  for (const auto& slice : weights.slices) {
    if (slice.depthStart == depth) {
      return slice;
    }
  }
  npu::throwInternalError("operation '" + name + "' has no weight slice starting at channel " + std::to_string(depth));
}

// Vela: high_level_command_to_npu_op.create_weights.
void setWeights(BlockOperation& npuOp, const StripeCommand& stripe, const OperationInfo& info, int cores) {
  const npu::EncodedWeights& encoded = *info.weights->encoded;
  const npu::EncodedWeightSlice& slice = sliceAt(encoded, stripe.weightBox->start[3], info.name);
  const bool buffered = stripe.weightBuffer >= 0;
  const int region = buffered ? info.weightBufferRegion : info.weightRegion;
  const bool scalesInPlace = buffered && !info.weightBuffersHoldScales;
  std::int64_t coreStart = buffered && !scalesInPlace
                               ? info.weightBufferAddresses[static_cast<std::size_t>(stripe.weightBuffer)]
                               : info.weights->address + slice.offset;
  // Weights alone in the buffer: each core's weights one after the other (see weightOnlyCopies).
  std::int64_t bufferStart =
      scalesInPlace ? info.weightBufferAddresses[static_cast<std::size_t>(stripe.weightBuffer)] : 0;
  for (int core = 0; core < cores && core < static_cast<int>(slice.coreBytes.size()); ++core) {
    const auto c = static_cast<std::size_t>(core);
    if (slice.coreBytes[c] == 0) {
      continue; // a core with no OFM channels in this slice has no stream
    }
    const std::int64_t scaleBytes = slice.coreScaleBytes[c];
    const std::int64_t weightBytes = slice.coreBytes[c] - scaleBytes;
    if (info.weights->scaleAddress) {
      // Weights shared with another operation, scales of its own: read in place from the read-only area.
      const std::int64_t weightsStart = scalesInPlace ? bufferStart : coreStart + scaleBytes;
      npuOp.weights.push_back(AddressRange{region, weightsStart, npu::roundUp(weightBytes, 16)});
      npuOp.biases.push_back(AddressRange{info.weightRegion,
                                          *info.weights->scaleAddress + scaleOnlyOffset(encoded, slice.depthStart, c),
                                          npu::roundUp(scaleBytes, 16)});
      bufferStart += scalesInPlace ? npu::roundUp(weightBytes, 16) : 0;
    } else if (scalesInPlace) {
      npuOp.weights.push_back(AddressRange{region, bufferStart, npu::roundUp(weightBytes, 16)});
      npuOp.biases.push_back(AddressRange{info.weightRegion, coreStart, npu::roundUp(scaleBytes, 16)});
      bufferStart += npu::roundUp(weightBytes, 16);
    } else {
      npuOp.weights.push_back(AddressRange{region, coreStart + scaleBytes, npu::roundUp(weightBytes, 16)});
      npuOp.biases.push_back(AddressRange{region, coreStart, npu::roundUp(scaleBytes, 16)});
    }
    coreStart += npu::roundUp(slice.coreBytes[c], 16);
  }
}

BlockOperation blockOperation(StripeCommand stripe, const OperationInfo& info, const LookupTablePlacement& table,
                              int cores) {
  if (info.swappedForHardware && stripe.ifm2Box) {
    std::swap(stripe.ifmBox, *stripe.ifm2Box);
  }
  BlockOperation npuOp;
  npuOp.kind = info.kind;
  npuOp.name = info.name;
  npuOp.pooling = info.pooling;
  npuOp.elementwise = info.elementwise;
  npuOp.reversedOperands = info.reversedOperands;

  const npu::Shape4 ifmBlock = stripe.ifmBox.size();
  const npu::Shape4 ofmBlock = stripe.ofmBox.size();
  const bool dotProduct = info.blockType == NpuBlockType::ConvolutionMxN ||
                          info.blockType == NpuBlockType::VectorProduct || info.blockType == NpuBlockType::ReduceSum;
  npuOp.ifm = featureMap(info.ifm, stripe.ifmBox);
  npuOp.ifm.shape = Shape3{ifmBlock.height, ifmBlock.width, dotProduct ? ifmBlock.depth : ofmBlock.depth};
  npuOp.ofm = featureMap(info.ofm, stripe.ofmBox, info.ofmStrideMultiplier, info.ofmTransposed);
  npuOp.ofm.shape = shape3(ofmBlock);
  if (info.ofmScaleOverride && npuOp.ofm.quantisation) {
    npuOp.ofm.quantisation->scale = *info.ofmScaleOverride;
  } else if (info.ofmScaleOverride) {
    npuOp.ofm.quantisation = Quantisation{info.ofmScaleOverride, 0};
  }
  if (info.ifm2 && stripe.ifm2Box) {
    npuOp.ifm2 = featureMap(*info.ifm2, *stripe.ifm2Box);
    if (info.ifm2Scalar) {
      npuOp.ifm2Scalar = info.ifm2Scalar;
      npuOp.ifm2->shape = Shape3{0, 0, 0};
    } else {
      npuOp.ifm2->shape = shape3(stripe.ifm2Box->size());
    }
  }
  if (stripe.weightBox && info.weights != nullptr) {
    setWeights(npuOp, stripe, info, cores);
  }
  npuOp.activation = info.activation;
  if (npuOp.activation->function == ActivationFunction::TableLookup) {
    npuOp.activation->lookupTableIndex = table.slot;
  }
  npuOp.fusedQuantize = info.fusedQuantize;
  npuOp.rounding = info.rounding;
  npuOp.blockConfig = info.blockConfig;
  if (info.kind != BlockOperation::Kind::Elementwise) {
    npuOp.padding = paddingFor(stripe, info);
    if (info.tilePadding) {
      padByTiles(npuOp.ifm.tiles, info.explicitPadding, info.ifm.shape.depth, info.ifm.storage.elementBytes);
      npuOp.padding = NpuPadding{};
    }
    npuOp.kernel = info.kernel;
  }
  npuOp.ifmUpscale = info.upscale;
  npuOp.blockTraversal = info.traversal;
  npuOp.rescale = info.rescale;
  return npuOp;
}

/// The bytes a box of an operand spans, from its first element's address to its last one's end rounded up to
/// the DMA's 16-byte quantum (as tensors are allocated).
struct ByteSpan {
  std::int64_t start = 0;
  std::int64_t end = 0;
};

ByteSpan bytesOf(const OperandInfo& operand, const Box& box) {
  const Strides strides = stridesOf(operand.storage, operand.shape);
  const std::int64_t start = addressOf(operand.storage, box.start, strides, operand.shape);
  const std::int64_t last = addressOf(operand.storage, box.end, strides, operand.shape, true);
  return {start, start + npu::roundUp(last - start, 16)};
}

/// A feature map copy must stay within its tensors: a copy that reads or writes past one corrupts whatever
/// lies beside it, which no check of the command stream sees when that memory is written and read elsewhere
/// (Vela 3.10's copy of a SPLIT's part).
void requireWithinTensor(const AddressRange& range, const OperandInfo& operand, const std::string& operation,
                         const char* verb) {
  const ByteSpan tensor = bytesOf(operand, Box::whole(operand.shape));
  if (range.address < tensor.start || range.address + range.length > tensor.end) {
    npu::throwInternalError("the memory copy of operation '" + operation + "' " + verb + " region " +
                            std::to_string(range.region) + " at [" + std::to_string(range.address) + ", " +
                            std::to_string(range.address + range.length) + "), outside tensor '" +
                            operand.storage.name + "' at [" + std::to_string(tensor.start) + ", " +
                            std::to_string(tensor.end) + ")");
  }
}

// Vela: high_level_command_to_npu_op.create_dma_op.
DmaOperation dmaOperation(const DmaCommand& dma, const OperationInfo& info, const LookupTablePlacement& table) {
  DmaOperation npuOp;
  switch (dma.source) {
  case DmaCommand::Source::Weights: {
    const npu::EncodedWeightSlice& slice = sliceAt(*info.weights->encoded, dma.box.start[3], info.name);
    if (!info.weightBuffersHoldScales) {
      npu::throwInternalError("weights buffered without their scales are copied by weightOnlyCopies");
    }
    std::int64_t bytes = 0;
    for (const std::int64_t core : slice.coreBytes) {
      bytes += npu::roundUp(core, 16);
    }
    npuOp.name = info.name + "_weights";
    npuOp.source = AddressRange{info.weightRegion, info.weights->address + slice.offset, bytes};
    npuOp.destination = AddressRange{info.weightBufferRegion,
                                     info.weightBufferAddresses[static_cast<std::size_t>(dma.weightBuffer)], bytes};
    break;
  }
  case DmaCommand::Source::LookupTable: {
    const std::int64_t bytes = npu::roundUp(info.lookupTableBytes, 16);
    npuOp.name = info.name + "_lut";
    npuOp.source = AddressRange{region::kReadOnly, info.lookupTableSourceAddress, bytes};
    npuOp.destination = AddressRange{region::kMemoryToMemory, table.address, bytes};
    break;
  }
  case DmaCommand::Source::FeatureMap: {
    // A part of a split or slice (the lowering moves only a part that is one run of bytes into a copy)
    // is copied from where it starts; Vela copies the whole source from its start, past the part and
    // past the destination's end.
    Box copied = Box::whole(info.ifm.shape);
    if (info.ifmReadOffset) {
      const npu::Shape4 part = info.ifmReadShape.value_or(info.ifm.shape);
      for (int axis = 0; axis < 4; ++axis) {
        const auto a = static_cast<std::size_t>(axis);
        copied.start[a] = (*info.ifmReadOffset)[axis];
        copied.end[a] = copied.start[a] + part[axis];
      }
    }
    const ByteSpan source = bytesOf(info.ifm, copied);
    const std::int64_t destination = bytesOf(info.ofm, Box::whole(info.ofm.shape)).start;
    const std::int64_t bytes = source.end - source.start;
    npuOp.name = info.ofm.storage.name;
    npuOp.source = AddressRange{info.ifm.storage.region, source.start, bytes};
    npuOp.destination = AddressRange{info.ofm.storage.region, destination, bytes};
    break;
  }
  }
  return npuOp;
}

/// A slice's weights without their scales, core by core: the parts lie between the scales in the read-only
/// area, so each core's part is its own copy, placed one after the other in the buffer.
std::vector<DmaOperation> weightOnlyCopies(const DmaCommand& dma, const OperationInfo& info) {
  const npu::EncodedWeightSlice& slice = sliceAt(*info.weights->encoded, dma.box.start[3], info.name);
  std::vector<DmaOperation> copies;
  std::int64_t source = info.weights->address + slice.offset;
  std::int64_t destination = info.weightBufferAddresses[static_cast<std::size_t>(dma.weightBuffer)];
  for (std::size_t core = 0; core < slice.coreBytes.size(); ++core) {
    const std::int64_t weightBytes = npu::roundUp(slice.coreBytes[core] - slice.coreScaleBytes[core], 16);
    if (slice.coreBytes[core] > 0) {
      DmaOperation copy;
      copy.name = info.name + "_weights";
      const std::int64_t weightsStart = source + npu::roundUp(slice.coreScaleBytes[core], 16);
      copy.source = AddressRange{info.weightRegion, weightsStart, weightBytes};
      copy.destination = AddressRange{info.weightBufferRegion, destination, weightBytes};
      copies.push_back(copy);
      destination += weightBytes;
    }
    source += npu::roundUp(slice.coreBytes[core], 16);
  }
  return copies;
}

} // namespace

void appendNpuOperations(const HighLevelCommand& command, std::span<const OperationInfo> operations,
                         std::span<const LookupTablePlacement> tables, int cores, std::vector<NpuOperation>& to) {
  if (const auto* stripe = std::get_if<StripeCommand>(&command)) {
    const auto index = static_cast<std::size_t>(stripe->operation);
    try {
      to.emplace_back(blockOperation(*stripe, operations[index], tables[index], cores));
    } catch (const npu::Error& error) {
      if (error.kind() != npu::ErrorKind::Compile) {
        throw;
      }
      npu::throwCompileError("operation '" + operations[index].name + "': " + error.message(), {}, error.hint());
    }
    return;
  }
  const auto& dma = std::get<DmaCommand>(command);
  const auto index = static_cast<std::size_t>(dma.operation);
  if (dma.source == DmaCommand::Source::Weights && !operations[index].weightBuffersHoldScales) {
    for (DmaOperation& copy : weightOnlyCopies(dma, operations[index])) {
      to.emplace_back(std::move(copy));
    }
    return;
  }
  DmaOperation copy = dmaOperation(dma, operations[index], tables[index]);
  if (dma.source == DmaCommand::Source::FeatureMap) {
    requireWithinTensor(copy.source, operations[index].ifm, operations[index].name, "reads");
    requireWithinTensor(copy.destination, operations[index].ofm, operations[index].name, "writes");
  }
  to.emplace_back(std::move(copy));
}

} // namespace ethosu::codegen
