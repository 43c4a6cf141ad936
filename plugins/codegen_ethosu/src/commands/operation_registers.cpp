// SPDX-License-Identifier: Apache-2.0
#include "commands/operation_registers.hpp"

#include "commands/scaling_registers.hpp"

#include "ethosu/blocks/block_config.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <limits>

namespace ethosu::codegen {

namespace {

void requireMultiple(std::int64_t value, std::int64_t multiple, const std::string& what) {
  if (value % multiple != 0) {
    npu::throwCompileError(what + " of " + std::to_string(value) + " bytes is not a multiple of " +
                           std::to_string(multiple) + " bytes, as its register requires");
  }
}

int elementBytes(NpuDataType type) {
  return bitsOf(type) / 8;
}

// Vela: check_addresses and generate_addresses.
void emitBases(CommandEmitter& emitter, Cmd1 first, const FeatureMap& map) {
  const std::int64_t alignment = map.layout == NpuLayout::NHCWB16 ? 16 : elementBytes(map.type);
  for (std::size_t tile = 0; tile < 4; ++tile) {
    requireMultiple(map.tiles.addresses[tile], alignment, "feature map '" + map.name + "' tile address");
    emitter.setAddress(static_cast<Cmd1>(static_cast<std::uint16_t>(first) + tile), map.tiles.addresses[tile]);
  }
}

// Vela: check_strides and generate_strides.
void emitStrides(CommandEmitter& emitter, const FeatureMap& map, Cmd1 strideC, Cmd1 strideY, Cmd1 strideX) {
  const std::string what = "feature map '" + map.name + "' stride";
  if (map.layout == NpuLayout::NHCWB16) {
    requireMultiple(map.strides.depth, 16, what);
    requireMultiple(map.strides.height, 16, what);
  } else {
    requireMultiple(map.strides.height, elementBytes(map.type), what);
    requireMultiple(map.strides.width, elementBytes(map.type), what);
  }
  emitter.setAddress(strideC, map.strides.depth);
  emitter.setAddress(strideY, map.strides.height);
  emitter.setAddress(strideX, map.strides.width);
}

std::int64_t zeroPointOf(const FeatureMap& map) {
  return map.quantisation ? map.quantisation->zeroPoint : 0;
}

void emitTiles(CommandEmitter& emitter, Cmd0 height0, Cmd0 height1, Cmd0 width0, const TileBox& tiles) {
  emitter.set(height0, tiles.height0 - 1);
  emitter.set(height1, tiles.height1 - 1);
  emitter.set(width0, tiles.width0 - 1);
}

void emitIfm(CommandEmitter& emitter, const FeatureMap& ifm) {
  emitter.set(Cmd0::IfmRegion, ifm.region);
  emitBases(emitter, Cmd1::IfmBase0, ifm);
  emitTiles(emitter, Cmd0::IfmHeight0M1, Cmd0::IfmHeight1M1, Cmd0::IfmWidth0M1, ifm.tiles);
  emitter.set(Cmd0::IfmDepthM1, ifm.shape.depth - 1);
  emitStrides(emitter, ifm, Cmd1::IfmStrideC, Cmd1::IfmStrideY, Cmd1::IfmStrideX);
  emitter.set(Cmd0::IfmZeroPoint, zeroPointOf(ifm));
}

void emitIfm2(CommandEmitter& emitter, const FeatureMap& ifm2, bool scalar) {
  if (!scalar) {
    emitter.set(Cmd0::Ifm2Region, ifm2.region);
    emitBases(emitter, Cmd1::Ifm2Base0, ifm2);
    emitTiles(emitter, Cmd0::Ifm2Height0M1, Cmd0::Ifm2Height1M1, Cmd0::Ifm2Width0M1, ifm2.tiles);
    emitStrides(emitter, ifm2, Cmd1::Ifm2StrideC, Cmd1::Ifm2StrideY, Cmd1::Ifm2StrideX);
  }
  emitter.set(Cmd0::Ifm2ZeroPoint, zeroPointOf(ifm2));
}

void emitOfm(CommandEmitter& emitter, const FeatureMap& ofm) {
  emitter.set(Cmd0::OfmRegion, ofm.region);
  emitBases(emitter, Cmd1::OfmBase0, ofm);
  emitTiles(emitter, Cmd0::OfmHeight0M1, Cmd0::OfmHeight1M1, Cmd0::OfmWidth0M1, ofm.tiles);
  emitter.set(Cmd0::OfmHeightM1, ofm.shape.height - 1);
  emitter.set(Cmd0::OfmWidthM1, ofm.shape.width - 1);
  emitter.set(Cmd0::OfmDepthM1, ofm.shape.depth - 1);
  emitStrides(emitter, ofm, Cmd1::OfmStrideC, Cmd1::OfmStrideY, Cmd1::OfmStrideX);
  emitter.set(Cmd0::OfmZeroPoint, zeroPointOf(ofm));
}

int precisionBits(NpuDataType type) {
  return bitsOf(type) == 8 ? 0 : bitsOf(type) == 16 ? 1 : 2;
}

void emitIfmPrecision(CommandEmitter& emitter, const FeatureMap& map, int operandToScale, Cmd0 command) {
  int precision = (isSigned(map.type) ? 1 : 0) + (precisionBits(map.type) << 2);
  if (map.layout == NpuLayout::NHCWB16) {
    precision |= 1 << 6;
  }
  precision |= operandToScale << 8;
  emitter.set(command, precision);
}

void emitOfmPrecision(CommandEmitter& emitter, const BlockOperation& op, bool globalScale) {
  int precision = (isSigned(op.ofm.type) ? 1 : 0) + (precisionBits(op.ofm.type) << 1);
  if (globalScale) {
    precision |= 1 << 8;
  }
  if (op.ofm.layout == NpuLayout::NHCWB16) {
    precision |= 1 << 6;
  }
  precision |= static_cast<int>(op.rounding) << 14;
  emitter.set(Cmd0::OfmPrecision, precision);
}

void emitPadding(CommandEmitter& emitter, const NpuPadding& padding) {
  emitter.set(Cmd0::IfmPadTop, padding.top);
  emitter.set(Cmd0::IfmPadLeft, padding.left);
  emitter.set(Cmd0::IfmPadBottom, padding.bottom);
  emitter.set(Cmd0::IfmPadRight, padding.right);
}

void emitKernel(CommandEmitter& emitter, const NpuKernel& kernel, BlockTraversal traversal) {
  emitter.set(Cmd0::KernelHeightM1, kernel.dilationY * (kernel.height - 1));
  emitter.set(Cmd0::KernelWidthM1, kernel.dilationX * (kernel.width - 1));
  int stride = (kernel.strideX - 1) & 1;
  stride |= ((kernel.strideY - 1) & 1) << 1;
  stride |= ((kernel.strideX - 1) >> 1) << 6;
  stride |= ((kernel.strideY - 1) >> 1) << 9;
  stride |= (kernel.dilationX - 1) << 3;
  stride |= (kernel.dilationY - 1) << 4;
  if (traversal == BlockTraversal::PartKernelFirst) {
    stride |= 1 << 2;
  }
  emitter.set(Cmd0::KernelStride, stride);
}

// Vela: generate_weights / generate_biases.
void emitStreams(CommandEmitter& emitter, const std::vector<AddressRange>& ranges, Cmd0 region,
                 std::array<std::pair<Cmd1, Cmd1>, 2> perCore, int cores, bool checkAddress, const std::string& what) {
  if (ranges.empty()) {
    return;
  }
  emitter.set(region, ranges.front().region);
  for (std::size_t core = 0; core < perCore.size(); ++core) {
    if (core < ranges.size()) {
      if (checkAddress) {
        requireMultiple(ranges[core].address, 16, what + " address");
      }
      emitter.setAddress(perCore[core].first, ranges[core].address);
      requireMultiple(ranges[core].length, 16, what + " length");
      emitter.setPayload(perCore[core].second, ranges[core].length);
    } else if (static_cast<int>(core) < cores) {
      if (checkAddress) {
        requireMultiple(ranges.front().address, 16, what + " address");
      }
      emitter.setAddress(perCore[core].first, ranges.front().address);
      emitter.setPayload(perCore[core].second, 0);
    }
  }
}

// Vela: generate_activation.
void emitActivation(CommandEmitter& emitter, const std::optional<NpuActivation>& given, const FeatureMap& ofm) {
  const NpuActivation activation = given.value_or(NpuActivation{});
  const double scale = ofm.quantisation && ofm.quantisation->scale ? *ofm.quantisation->scale : 1.0;
  const std::int64_t zeroPoint = ofm.quantisation ? ofm.quantisation->zeroPoint : 0;
  const int bits = bitsOf(ofm.type);
  const std::int64_t typeMin = isSigned(ofm.type) ? -(std::int64_t{1} << (bits - 1)) : 0;
  const std::int64_t typeMax = isSigned(ofm.type) ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1;
  std::int64_t minimum = activation.min ? quantiseFloat32(*activation.min, scale, zeroPoint) : typeMin;
  std::int64_t maximum = activation.max ? quantiseFloat32(*activation.max, scale, zeroPoint) : typeMax;
  minimum = std::max({minimum, std::int64_t{std::numeric_limits<std::int16_t>::min()}, typeMin});
  maximum = std::min({maximum, std::int64_t{std::numeric_limits<std::int16_t>::max()}, typeMax});
  int value = 0;
  switch (activation.function) {
  case ActivationFunction::NoneOrRelu:
    value = 0;
    break;
  case ActivationFunction::Tanh:
    value = 3;
    break;
  case ActivationFunction::Sigmoid:
    value = 4;
    break;
  case ActivationFunction::TableLookup:
    if (activation.lookupTableIndex < 0 || activation.lookupTableIndex >= 8) {
      npu::throwInternalError("lookup table index " + std::to_string(activation.lookupTableIndex) + " out of 0..7");
    }
    value = 16 + activation.lookupTableIndex;
    if (ofm.type == NpuDataType::Int32) {
      value |= 3 << 12; // force the 8-bit range
      minimum = std::max<std::int64_t>(-128, minimum);
      maximum = std::min<std::int64_t>(127, maximum);
    }
    break;
  }
  emitter.set(Cmd0::Activation, value);
  emitter.set(Cmd0::ActivationMin, minimum);
  emitter.set(Cmd0::ActivationMax, maximum);
}

NpuBlockType blockTypeOf(const BlockOperation& op) {
  switch (op.kind) {
  case BlockOperation::Kind::Conv2D:
    return NpuBlockType::ConvolutionMxN;
  case BlockOperation::Kind::DepthwiseConv2D:
    return NpuBlockType::ConvolutionDepthWise;
  case BlockOperation::Kind::Pooling:
    return op.pooling == PoolingFunction::ReduceSum ? NpuBlockType::ReduceSum : NpuBlockType::Pooling;
  case BlockOperation::Kind::Elementwise:
    return NpuBlockType::ElementWise;
  }
  return NpuBlockType::Default;
}

npu::Shape4 shape4(const Shape3& shape) {
  return {1, shape.height, shape.width, shape.depth};
}

// Vela: get_arch_block_config (try_block_config on the operation's own shapes); any layout the hardware
// accepts when Vela 3.10's does not fit (a unary operation's block chosen by Vela 2.1's rules).
ArchitectureBlockConfig shramLayoutOf(const BlockOperation& op, BlockTraversal traversal, const Architecture& arch) {
  BlockSearchQuery query;
  query.blockType = blockTypeOf(op);
  query.ofm = shape4(op.ofm.shape);
  query.ifm = shape4(op.ifm.shape);
  const bool secondInput = op.ifm2.has_value() && !op.ifm2Scalar.has_value();
  if (secondInput) {
    query.ifm2 = shape4(op.ifm2->shape);
  }
  query.usesScalar = op.ifm2Scalar.has_value();
  query.ifmBits = bitsOf(op.ifm.type);
  const NpuKernel kernel = op.kernel.value_or(NpuKernel{});
  query.kernel =
      npu::Kernel{kernel.width, kernel.height, kernel.strideX, kernel.strideY, kernel.dilationX, kernel.dilationY};
  const bool lookup = op.activation && op.activation->function == ActivationFunction::TableLookup;
  query.lutBanks = lookup ? 2 : 0;
  const auto quantised = [](const std::optional<Quantisation>& q) { return q && q->scale; };
  query.scaled = quantised(op.ifm.quantisation) && quantised(op.ofm.quantisation) &&
                 (!op.ifm2 || quantised(op.ifm2->quantisation));
  query.resampling = op.ifmUpscale == NpuResampling::Nearest     ? npu::Resampling::Nearest
                     : op.ifmUpscale == NpuResampling::Transpose ? npu::Resampling::Transpose
                                                                 : npu::Resampling::None;
  const auto config =
      tryHardwareBlockConfig(arch, query, shape4(op.blockConfig), traversal == BlockTraversal::PartKernelFirst);
  if (!config) {
    npu::throwCompileError("block config " + std::to_string(op.blockConfig.height) + "x" +
                           std::to_string(op.blockConfig.width) + "x" + std::to_string(op.blockConfig.depth) +
                           " does not fit the accelerator's shared buffer (SHRAM)");
  }
  return *config;
}

int accumulatorFormat(ShramElement accumulator) {
  return accumulator == ShramElement::Accumulator16 ? 2 : accumulator == ShramElement::Accumulator40 ? 1 : 0;
}

// Vela: generate_common.
void emitCommon(CommandEmitter& emitter, const BlockOperation& op, BlockTraversal traversal, const Architecture& arch,
                bool globalScale, int operandToScale) {
  emitIfm(emitter, op.ifm);
  emitIfmPrecision(emitter, op.ifm, operandToScale, Cmd0::IfmPrecision);
  emitter.set(Cmd0::IfmUpscale, static_cast<int>(op.ifmUpscale));
  if (op.padding) {
    emitPadding(emitter, *op.padding);
  }
  emitOfm(emitter, op.ofm);
  emitOfmPrecision(emitter, op, globalScale);
  if (op.kind != BlockOperation::Kind::Elementwise) {
    if (!op.kernel) {
      npu::throwInternalError("a convolution or pooling operation without a kernel");
    }
    emitKernel(emitter, *op.kernel, traversal);
  }
  const int cores = arch.cores();
  emitStreams(emitter, op.weights, Cmd0::WeightRegion,
              {{{Cmd1::WeightBase, Cmd1::WeightLength}, {Cmd1::Weight1Base, Cmd1::Weight1Length}}}, cores, true,
              "weight stream");
  emitStreams(emitter, op.biases, Cmd0::ScaleRegion,
              {{{Cmd1::ScaleBase, Cmd1::ScaleLength}, {Cmd1::Scale1Base, Cmd1::Scale1Length}}}, cores, false,
              "scale stream");
  emitActivation(emitter, op.activation, op.ofm);
  const ArchitectureBlockConfig layout = shramLayoutOf(op, traversal, arch);
  emitter.set(Cmd0::OfmBlkHeightM1, op.blockConfig.height - 1);
  emitter.set(Cmd0::OfmBlkWidthM1, op.blockConfig.width - 1);
  emitter.set(Cmd0::OfmBlkDepthM1, op.blockConfig.depth - 1);
  emitter.set(Cmd0::IfmIbEnd, layout.layout.ifmEnd);
  emitter.set(Cmd0::AbStart, layout.layout.accumulatorStart);
  if (op.ifm2 && !op.ifm2Scalar) {
    emitter.set(Cmd0::Ifm2IbStart, layout.layout.ifm2Start);
  }
  emitter.set(Cmd0::AccFormat, accumulatorFormat(layout.accumulator));
}

// Vela: generate_ifm2_broadcast.
void emitIfm2Broadcast(CommandEmitter& emitter, const BlockOperation& op) {
  int broadcast = 0;
  if (op.reversedOperands) {
    broadcast |= 1 << 6;
  }
  if (op.ifm2Scalar) {
    broadcast |= 1 << 7;
  } else {
    const Shape3& a = op.ifm.shape;
    const Shape3& b = op.ifm2->shape;
    const auto broadcastAxis = [&](int first, int second, int bit, const char* axis) {
      if (first != second) {
        if (second != 1) {
          npu::throwCompileError(std::string("IFM2 cannot be broadcast in ") + axis + " from " +
                                 std::to_string(second) + " to " + std::to_string(first));
        }
        broadcast |= 1 << bit;
      }
    };
    broadcastAxis(a.height, b.height, 0, "height");
    broadcastAxis(a.width, b.width, 1, "width");
    broadcastAxis(a.depth, b.depth, 2, "depth");
  }
  emitter.set(Cmd0::Ifm2Broadcast, broadcast);
}

bool isUnary(ElementwiseFunction function) {
  return function == ElementwiseFunction::Abs || function == ElementwiseFunction::LeakyRelu ||
         function == ElementwiseFunction::Clz;
}

void emitPooling(CommandEmitter& emitter, const BlockOperation& op, const Architecture& arch) {
  if (op.pooling == PoolingFunction::ReduceSum && op.ifm.layout != NpuLayout::NHWC) {
    if (op.ifm.type == NpuDataType::Int32 || arch.cores() > 1) {
      npu::throwCompileError("REDUCE_SUM needs a linear (NHWC) IFM here");
    }
  }
  const NpuPadding padding = op.padding.value_or(NpuPadding{});
  bool globalScale = (op.pooling == PoolingFunction::Average || op.pooling == PoolingFunction::ReduceSum) &&
                     padding.top + padding.left + padding.bottom + padding.right == 0;
  if (const auto* explicitScaling = std::get_if<ExplicitScaling>(&op.rescale)) {
    globalScale = !explicitScaling->perChannel;
  }
  emitCommon(emitter, op, BlockTraversal::DepthFirst, arch, globalScale, 0);
  if (globalScale) {
    emitPoolingScale(emitter, op);
  }
}

void emitElementwise(CommandEmitter& emitter, const BlockOperation& op, const Architecture& arch) {
  const bool globalScale = op.elementwise == ElementwiseFunction::Add || op.elementwise == ElementwiseFunction::Sub ||
                           op.elementwise == ElementwiseFunction::Mul ||
                           op.elementwise == ElementwiseFunction::LeakyRelu ||
                           op.elementwise == ElementwiseFunction::Abs;
  const int operandToScale = emitElementwiseScale(emitter, op);
  emitCommon(emitter, op, BlockTraversal::DepthFirst, arch, globalScale, operandToScale);
  if (isUnary(op.elementwise)) {
    return;
  }
  if (!op.ifm2) {
    npu::throwInternalError("a binary elementwise operation without IFM2");
  }
  const bool scalar = op.ifm2Scalar.has_value();
  emitIfm2(emitter, *op.ifm2, scalar);
  emitIfmPrecision(emitter, *op.ifm2, 0, Cmd0::Ifm2Precision);
  emitIfm2Broadcast(emitter, op);
  if (scalar) {
    const auto& q = op.ifm2->quantisation;
    const std::int64_t value = quantiseFloat32(*op.ifm2Scalar, q && q->scale ? *q->scale : 1.0, q ? q->zeroPoint : 0);
    const int bits = bitsOf(op.ifm2->type);
    const std::int64_t low = isSigned(op.ifm2->type) ? -(std::int64_t{1} << (bits - 1)) : 0;
    const std::int64_t high =
        isSigned(op.ifm2->type) ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1;
    if (value < low || value > high) {
      npu::throwCompileError("the scalar operand " + std::to_string(value) + " does not fit IFM2's type");
    }
    emitter.set(Cmd0::Ifm2Scalar, value);
  }
}

// Vela: check_dma_op and generate_dma_op.
void emitDma(CommandEmitter& emitter, const DmaOperation& dma, const Architecture& arch) {
  if (arch.variant().isEthosU65()) {
    if (dma.source.region == region::kMemoryToMemory) {
      requireMultiple(dma.source.address, 16, "DMA source address");
    }
    if (dma.destination.region == region::kMemoryToMemory) {
      requireMultiple(dma.destination.address, 16, "DMA destination address");
      requireMultiple(dma.source.length, 16, "DMA length");
    }
  } else {
    requireMultiple(dma.source.address, 16, "DMA source address");
    requireMultiple(dma.destination.address, 16, "DMA destination address");
    requireMultiple(dma.source.length, 16, "DMA length");
  }
  emitter.set(Cmd0::Dma0SrcRegion, dma.source.region);
  emitter.setAddress(Cmd1::Dma0Src, dma.source.address);
  emitter.set(Cmd0::Dma0DstRegion, dma.destination.region);
  emitter.setAddress(Cmd1::Dma0Dst, dma.destination.address);
  emitter.setAddress(Cmd1::Dma0Len, dma.source.length);
}

} // namespace

void emitOperationRegisters(CommandEmitter& emitter, const NpuOperation& operation, const Architecture& architecture) {
  if (const auto* dma = std::get_if<DmaOperation>(&operation)) {
    emitDma(emitter, *dma, architecture);
    return;
  }
  const auto& op = std::get<BlockOperation>(operation);
  switch (op.kind) {
  case BlockOperation::Kind::Conv2D:
    emitCommon(emitter, op, op.blockTraversal, architecture, false, 0);
    break;
  case BlockOperation::Kind::DepthwiseConv2D:
    emitCommon(emitter, op, BlockTraversal::DepthFirst, architecture, false, 0);
    break;
  case BlockOperation::Kind::Pooling:
    emitPooling(emitter, op, architecture);
    break;
  case BlockOperation::Kind::Elementwise:
    emitElementwise(emitter, op, architecture);
    break;
  }
}

void emitOperationStart(CommandEmitter& emitter, const NpuOperation& operation) {
  if (const auto* dma = std::get_if<DmaOperation>(&operation)) {
    emitter.operation(Cmd0::OpDmaStart, dma->channel * 16 + dma->mode);
    return;
  }
  const auto& op = std::get<BlockOperation>(operation);
  switch (op.kind) {
  case BlockOperation::Kind::Conv2D:
    emitter.operation(Cmd0::OpConv);
    break;
  case BlockOperation::Kind::DepthwiseConv2D:
    emitter.operation(Cmd0::OpDepthwise);
    break;
  case BlockOperation::Kind::Pooling:
    emitter.operation(Cmd0::OpPool, poolingMode(op.pooling));
    break;
  case BlockOperation::Kind::Elementwise:
    emitter.operation(Cmd0::OpElementwise, elementwiseMode(op.elementwise));
    break;
  }
}

} // namespace ethosu::codegen
