// SPDX-License-Identifier: Apache-2.0
// One pass of the 2020 model: which blocks it runs, how often it re-reads its IFM and weights, the
// bytes it moves per memory and the cycles they take (Vela 2.1 npu_performance.performance_metrics_for_pass).

#include "ethosu/performance_vela2/vela2_estimates.hpp"

#include "ethosu/blocks/block_config.hpp"

#include "npu/core/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ethosu::vela2 {

namespace {

using npu::AccessDirection;
using npu::MemoryArea;
using npu::TensorPurpose;

bool readsBlocks(NpuBlockType type) {
  return type == NpuBlockType::ConvolutionMxN || type == NpuBlockType::ConvolutionDepthWise ||
         type == NpuBlockType::VectorProduct || type == NpuBlockType::Pooling || type == NpuBlockType::ReduceSum;
}

/// Bytes of a feature map as Vela 2.1's Tensor.bandwidth(): its shape rounded to the storage brick.
double featureMapBytes(const npu::FeatureMapQuery& featureMap) {
  npu::Shape4 shape = featureMap.shape;
  if (featureMap.format == npu::TensorFormat::NHCWB16) {
    shape.depth = static_cast<int>(npu::roundUp(shape.depth, 16));
  }
  return static_cast<double>(shape.elements()) * npu::bytesOf(featureMap.type);
}

/// Vela 2.1's choice of weight traversal for a convolution (weight_compressor.compress_weights).
BlockTraversal traversalFor(NpuBlockType blockType, int ifmDepth, int ifmBits, const npu::Kernel& kernel) {
  if (blockType == NpuBlockType::ConvolutionDepthWise) {
    return BlockTraversal::DepthWise;
  }
  if (blockType != NpuBlockType::ConvolutionMxN) {
    return BlockTraversal::Default;
  }
  const double kernelSize = static_cast<double>(kernel.width) * kernel.height;
  const double depth = ifmDepth;
  const double depthUtilisation = depth / static_cast<double>(npu::roundUp(ifmDepth, ifmBits == 8 ? 32 : 16));
  const double partKernelUtilisation =
      (depth / static_cast<double>(npu::roundUp(ifmDepth, 8))) *
      (kernelSize / static_cast<double>(npu::roundUp(static_cast<std::int64_t>(kernelSize), ifmBits == 8 ? 4 : 2)));
  return partKernelUtilisation >= depthUtilisation || ifmDepth <= 8 ? BlockTraversal::PartKernelFirst
                                                                    : BlockTraversal::DepthFirst;
}

std::optional<double> firstScale(const npu::Tensor* tensor) {
  if (tensor == nullptr || tensor->quantisation.scale.empty()) {
    return std::nullopt;
  }
  return tensor->quantisation.scale.front();
}

/// Scale and bias bytes Vela 3.10's encoder interleaves with the weights of one depth slice per core.
std::int64_t interleavedScaleBytes(int depth, int cores) {
  std::int64_t bytes = 0;
  for (int core = 0; core < cores; ++core) {
    const int channels = (depth + cores - 1 - core) / cores;
    bytes += npu::roundUp(std::int64_t{kScaleBiasBytesPerChannel} * channels, 16);
  }
  return bytes;
}

/// Storage size of the scale and bias tensor Vela 2.1 packs for an IFM-streamed pass (one stream of the
/// whole depth; weight_compressor.calc_scales_and_pack_biases): 10 bytes per channel, every core's
/// part padded to 16 bytes, the padding counted in whole 10-byte elements and the total rounded up
/// to the tensor's 16-byte alignment (Tensor.storage_size). Its first-pass DMA moves this many bytes.
std::int64_t packedScaleStorageBytes(int depth, int cores) {
  std::int64_t alignment = 0;
  for (int core = 0; core < std::min(cores, depth); ++core) {
    const std::int64_t channels = (depth - core + cores - 1) / cores;
    const std::int64_t bytes = std::int64_t{kScaleBiasBytesPerChannel} * channels;
    alignment += npu::roundUp(bytes, 16) - bytes;
  }
  const std::int64_t elements = depth + npu::divRoundUp(alignment, std::int64_t{kScaleBiasBytesPerChannel});
  return npu::roundUp(elements * kScaleBiasBytesPerChannel, 16);
}

/// Whether Vela 2.1's code generation puts the operation's second input first
/// (high_level_command_to_npu_op.ifm_ifm2_correct_order): a scalar first input, or one broadcast in a
/// dimension the second is not. It swaps the pass's operand shapes then, not its tensors.
bool swapsOperandViews(const npu::Subgraph& subgraph, const npu::Operation& op, const PassQuery& query) {
  const npu::Tensor* first = subgraph.findTensor(op.ifm());
  const npu::Tensor* second = subgraph.findTensor(op.ifm2());
  if (first == nullptr || second == nullptr || !query.ifm2) {
    return false;
  }
  if (first->shape.isScalar()) {
    return true;
  }
  if (second->shape.isScalar()) {
    return false;
  }
  const npu::Shape4& a = query.ifm.shape; // the first input (Vela 2.1's IFM, see passQueryFor)
  const npu::Shape4& b = query.ifm2->shape;
  const auto broadcast = [](int x, int y) { return x != y && x == 1; };
  return broadcast(a.batch, b.batch) || broadcast(a.height, b.height) || broadcast(a.width, b.width) ||
         broadcast(a.depth, b.depth);
}

} // namespace

// Vela 2.1 keeps a feature map out of the brick format (its avoid_NHCWB16) when an operation
// sees it in another shape, writes it at a depth offset that is not a multiple of 16, or it is the input
// of a SPLIT, SPLIT_V or UNPACK with such a part (graph_optimiser.rewrite_concat_ops, rewrite_split_ops,
// remove_reshapes; a SLICE or STRIDED_SLICE reads at any offset without it), and where the lowering
// marks an OFM so (avoid_brick_ofm: a softmax's max pool). Other reasons to store a feature map
// linearly (a subgraph boundary, a CPU neighbour) leave its bursts judged as brick.
bool avoidsBrickFormat(const npu::Subgraph& subgraph, npu::TensorId id) {
  const npu::Tensor* tensor = subgraph.findTensor(id);
  if (tensor == nullptr) {
    return false;
  }
  const npu::Shape4 shape = npu::Shape4::fromShape(tensor->shape);
  const auto unaligned = [](const std::optional<npu::Shape4>& offset) { return offset && offset->depth % 16 != 0; };
  for (const npu::Operation& op : subgraph.operations) {
    if (op.attributes.getOr<bool>("bypassed_reshape", false) && (op.ifm() == id || op.ofm() == id)) {
      // remove_reshapes: the tensor that stands for both sides of a removed RESHAPE of another shape.
      const npu::Tensor* input = subgraph.findTensor(op.ifm());
      const npu::Tensor* output = subgraph.findTensor(op.ofm());
      if (input != nullptr && output != nullptr &&
          npu::Shape4::fromShape(input->shape) != npu::Shape4::fromShape(output->shape)) {
        return true;
      }
    }
    if (op.placement != npu::Placement::Npu) {
      continue;
    }
    // An OFM the lowering marked as 2.1.1 does (a softmax's max pool).
    if (op.ofm() == id && op.attributes.getOr<bool>("avoid_brick_ofm", false)) {
      return true;
    }
    // "write_offset_keeps_brick": the flag of an unaligned write was another tensor's (removeReshapesVela21).
    const bool offsetAvoids =
        unaligned(op.writeOffset) && !op.attributes.getOr<bool>("write_offset_keeps_brick", false);
    // "ofm_view_keeps_brick": an activation fused into it left it its OFM view (fuseActivationsWithProducers).
    const bool viewAvoids = !op.ofmShapes.empty() && op.ofmShapes.front() != shape &&
                            !op.attributes.getOr<bool>("ofm_view_keeps_brick", false);
    if (op.ofm() == id && (offsetAvoids || viewAvoids)) {
      return true;
    }
    // A view the 2.1 lowering took from a memory-only pass it removed is a tensor of its own in 2.1.1.
    const std::int64_t ownTensorViews = op.attributes.getOr<std::int64_t>("brick_bursts_ifm", 0);
    for (std::size_t slot = 0; slot < 2; ++slot) {
      const bool view =
          op.ifmShapes.size() > slot && op.ifmShapes[slot] != shape && ((ownTensorViews >> slot) & 1) == 0;
      if ((slot == 0 ? op.ifm() : op.ifm2()) == id &&
          (op.attributes.getOr<bool>(slot == 0 ? "ifm_split_part_unaligned" : "ifm2_split_part_unaligned", false) ||
           view)) {
        return true;
      }
    }
  }
  return false;
}

void operandShapesVela21(const npu::Subgraph& subgraph, const npu::Operation& op, npu::Shape4& ifm, npu::Shape4* ifm2,
                         npu::Shape4& ofm) {
  if (op.attributes.getOr<std::string>("memory_function", "") == "ConcatSliceWrite") {
    ofm = subgraph.ofmShape(op);
  }
  if (op.readShapes[0]) {
    ifm = subgraph.ifmShape(op, 0);
  }
  if (ifm2 != nullptr && op.readShapes[1]) {
    *ifm2 = subgraph.ifmShape(op, 1);
  }
  const auto own = [&op](std::string_view key, npu::Shape4& shape) {
    const auto listed = op.attributes.get<std::vector<std::int64_t>>(key);
    if (listed && listed->size() == 4) {
      shape = npu::Shape4{static_cast<int>((*listed)[0]), static_cast<int>((*listed)[1]),
                          static_cast<int>((*listed)[2]), static_cast<int>((*listed)[3])};
    }
  };
  own("vela21_ifm_shape", ifm);
  if (ifm2 != nullptr) {
    own("vela21_ifm2_shape", *ifm2);
  }
  own("vela21_ofm_shape", ofm);
}

// graph_optimiser.add_attrs_to_resizebilinear and convert_resizebilinear_to_2x2_pool mark the IFM of
// an NPU resize, fixup_conv2d_backprop the IFM of every transpose convolution (the CPU's too). They run
// before remove_SplitSliceRead: a reader a split's read was moved into marked the split's output, not
// the tensor it now reads. Only the first 2x step of a resize marks its IFM (the later steps read new
// intermediates), so the later steps are costed as not upscaled.
npu::Resampling ifmResampling(const npu::Subgraph& subgraph, const npu::Operation& op) {
  if (!subgraph.validTensorId(op.ifm())) {
    return op.ifmResampling;
  }
  for (const npu::Operation& reader : subgraph.operations) {
    if (reader.placement == npu::Placement::Npu && reader.ifmResampling != npu::Resampling::None &&
        reader.ifm() == op.ifm() && !reader.readShapes[0] &&
        !reader.attributes.getOr<bool>("resize_later_step", false)) {
      return reader.ifmResampling;
    }
    constexpr std::size_t kTransposeConvIfm = 2; // TFLite's TRANSPOSE_CONV inputs: shape, weights, IFM
    if (reader.type == npu::OpType::Conv2DBackpropInput && reader.inputs.size() > kTransposeConvIfm &&
        reader.inputs[kTransposeConvIfm] == op.ifm()) {
      return npu::Resampling::Transpose;
    }
  }
  return npu::Resampling::None;
}

std::int64_t passMacs(const PassQuery& query) {
  const NpuBlockType type = query.traits.blockType;
  const npu::Shape4& ofm = query.ofm.shape;
  const std::int64_t outputPositions = std::int64_t{ofm.batch} * ofm.height * ofm.width;
  const npu::Kernel& kernel = query.traits.kernel;
  switch (type) {
  case NpuBlockType::ConvolutionMxN:
    return outputPositions * kernel.elementsWH() * query.ifm.shape.depth * ofm.depth;
  case NpuBlockType::ConvolutionDepthWise:
    return outputPositions * kernel.elementsWH() * ofm.depth;
  case NpuBlockType::VectorProduct:
  case NpuBlockType::ReduceSum:
    return outputPositions * std::int64_t{query.ifm.shape.depth} * ofm.depth;
  default:
    return 0;
  }
}

npu::OperationPerformance estimatePass(const Architecture& arch, const PassQuery& query) {
  npu::OperationPerformance result;
  npu::OperationPerformance scaled; // bytes weighted by burst efficiency, for the access cycles
  const auto add = [&](MemoryArea area, TensorPurpose purpose, AccessDirection direction, double bytes,
                       double scaledBytes) {
    result.byteCount(area, purpose, direction) += bytes;
    scaled.byteCount(area, purpose, direction) += scaledBytes;
  };
  const NpuBlockType blockType = query.traits.blockType;
  const npu::Shape4& ofmShape = query.ofm.shape;
  Block ofmBlock{std::min(query.ofmBlock.width, ofmShape.width), std::min(query.ofmBlock.height, ofmShape.height),
                 std::min(query.ofmBlock.depth, ofmShape.depth)};
  // Every NPU pass reads its inputs in the IFM block of its (clamped) OFM block, elementwise ones too.
  const npu::Shape4& ifmShape = query.ifm.shape;
  const int ifmDepth =
      ifmBlockDepth(blockType, ifmShape.depth, npu::bitsOf(query.ifm.type), query.traversal, ofmBlock.depth);
  Block ifmBlock = ifmBlockSize(arch, ifmDepth, ofmBlock, query.traits.kernel, query.traits.resampling);
  ifmBlock.width = std::min(ifmBlock.width, ifmShape.width);
  ifmBlock.height = std::min(ifmBlock.height, ifmShape.height);
  double ifmReadMultiple = 1.0;
  double weightReadMultiple = 1.0;
  double npuCycles = 0.0;

  if (readsBlocks(blockType)) {
    const bool vectorProduct = blockType == NpuBlockType::VectorProduct;
    const int limit = vectorProduct ? 1 : 8;
    const int kernelHeight = vectorProduct ? 1 : query.traits.kernel.height;
    const int kernelWidth = vectorProduct ? 1 : query.traits.kernel.width;
    const auto subKernels = npu::divRoundUp(kernelHeight, limit) * npu::divRoundUp(kernelWidth, limit);
    const bool rereadsPerDepth = blockType != NpuBlockType::ConvolutionDepthWise && blockType != NpuBlockType::Pooling;
    // Vela 2.1 counts the depth stages of the weights' bandwidth shape, which a ReduceSum has all zero:
    // its IFM is read zero times (no IFM bytes at all).
    const auto depthStages = blockType == NpuBlockType::ReduceSum ? 0
                             : rereadsPerDepth                    ? npu::divRoundUp(ofmShape.depth, ofmBlock.depth)
                                                                  : 1;
    ifmReadMultiple = static_cast<double>(subKernels * depthStages);
    weightReadMultiple = static_cast<double>(npu::divRoundUp(ofmShape.height, ofmBlock.height) *
                                             npu::divRoundUp(ofmShape.width, ofmBlock.width));
    result.macs = passMacs(query);
    npuCycles = convolutionPoolingCycles(arch, query, ofmBlock, ifmBlock);
  } else if (blockType == NpuBlockType::ElementWise) {
    npuCycles = outputCycles(arch, query, ofmShape.elements(), false, ofmBlock);
  }

  // Outputs: the burst estimate counts the bytes of the format it judges (a brick-format OFM rounded
  // up to 16 channels) while the byte count keeps the stored format's.
  const double ofmBytes = featureMapBytes(query.ofm);
  const npu::TensorFormat ofmBurstFormat = query.ofmBurstFormat.value_or(query.ofm.format);
  npu::FeatureMapQuery ofmAsJudged = query.ofm;
  ofmAsJudged.format = ofmBurstFormat;
  add(query.ofm.area, TensorPurpose::FeatureMap, AccessDirection::Write, ofmBytes,
      transferEfficiencyBytes(arch, query.ofm.area, false, ofmBurstFormat, npu::bytesOf(query.ofm.type), ofmShape,
                              ofmBlock, featureMapBytes(ofmAsJudged)));

  // Weights: copied once by DMA into their buffer and read from it per OFM block, or read in place.
  double dmaBytes = 0.0;
  std::optional<MemoryArea> dmaSource;
  if (query.weights) {
    const PassWeights& weights = *query.weights;
    const double bytes = weights.bandwidthBytes.value_or(static_cast<double>(weights.bytes));
    if (weights.bufferArea) {
      add(weights.storageArea, TensorPurpose::Weights, AccessDirection::Read, bytes, bytes);
      add(*weights.bufferArea, TensorPurpose::Weights, AccessDirection::Write, bytes, bytes);
      add(*weights.bufferArea, TensorPurpose::Weights, AccessDirection::Read, bytes * weightReadMultiple,
          bytes * weightReadMultiple);
      // A first pass's DMA copies the weight tensor's storage: every slice as encoded.
      dmaBytes += static_cast<double>(weights.storageBytes.value_or(weights.bytes));
      dmaSource = weights.storageArea;
    } else {
      add(weights.storageArea, TensorPurpose::Weights, AccessDirection::Read, bytes * weightReadMultiple,
          bytes * weightReadMultiple);
    }
  }
  // Scales and biases are a tensor of their own that Vela 2.1 accounts as a feature map; it reads the
  // one-dimensional tensor with the burst of a brick-format IFM of its bias type.
  if (query.hasScales) {
    const double bytes = query.scaleBytes ? static_cast<double>(*query.scaleBytes)
                                          : static_cast<double>(kScaleBiasBytesPerChannel) * ofmShape.depth;
    const double scaledBytes =
        transferEfficiencyBytes(arch, query.scaleArea, true, npu::TensorFormat::NHCWB16, query.scaleElementBytes,
                                npu::Shape4{1, 1, 1, 1}, Block{ifmBlock.width, 1, 0}, bytes);
    add(query.scaleArea, TensorPurpose::FeatureMap, AccessDirection::Read, bytes, scaledBytes);
    if (query.scaleBufferArea) {
      add(*query.scaleBufferArea, TensorPurpose::ScalesBiases, AccessDirection::Write, bytes, bytes);
      add(*query.scaleBufferArea, TensorPurpose::ScalesBiases, AccessDirection::Read, bytes, bytes);
    }
    if (query.scaleBufferArea) {
      // The scales are copied by a DMA of their own: once packed (the final estimate), of their
      // storage size; while a scheduler searches, of the model's biases.
      dmaBytes += query.scaleBytes ? bytes : static_cast<double>(packedScaleStorageBytes(ofmShape.depth, arch.cores()));
      dmaSource = dmaSource.value_or(query.scaleArea);
    }
  }
  if (query.lut) {
    // The lookup table is one of the pass's inputs: its bursts are judged as a brick-format [1, 1, 1, N]
    // feature map read with the IFM block.
    const auto bytes = static_cast<double>(query.lut->bytes);
    const int entries = std::max<int>(1, static_cast<int>(query.lut->bytes / query.lutElementBytes));
    add(query.lut->from, TensorPurpose::Lut, AccessDirection::Read, bytes,
        transferEfficiencyBytes(arch, query.lut->from, true, npu::TensorFormat::NHCWB16, query.lutElementBytes,
                                npu::Shape4{1, 1, 1, entries}, ifmBlock, bytes));
    dmaBytes += bytes; // the table is copied into the accelerator by a DMA of its own
    dmaSource = dmaSource.value_or(query.lut->from);
  }

  for (const PassQuery::ConstantRead& constant : query.constantReads) {
    const auto bytes = static_cast<double>(constant.bytes);
    const MemoryArea area = arch.memory().constantArea;
    add(area, TensorPurpose::FeatureMap, AccessDirection::Read, bytes,
        transferEfficiencyBytes(arch, area, true, npu::TensorFormat::NHCWB16, constant.elementBytes,
                                npu::Shape4{1, 1, 1, constant.elements}, ifmBlock, bytes));
  }

  // Inputs.
  const double ifmBytes = featureMapBytes(query.ifm) * ifmReadMultiple;
  add(query.ifm.area, TensorPurpose::FeatureMap, AccessDirection::Read, ifmBytes,
      transferEfficiencyBytes(arch, query.ifm.area, true, query.ifmBurstFormat.value_or(query.ifm.format),
                              npu::bytesOf(query.ifm.type), query.ifmBurstShape.value_or(query.ifm.shape), ifmBlock,
                              ifmBytes));
  if (query.ifm2) {
    const double ifm2Bytes = featureMapBytes(*query.ifm2);
    add(query.ifm2->area, TensorPurpose::FeatureMap, AccessDirection::Read, ifm2Bytes,
        transferEfficiencyBytes(arch, query.ifm2->area, true, query.ifm2BurstFormat.value_or(query.ifm2->format),
                                npu::bytesOf(query.ifm2->type), query.ifm2BurstShape.value_or(query.ifm2->shape),
                                ifmBlock, ifm2Bytes));
  }

  if (query.firstNpuPass && dmaSource && arch.bandwidthPerCycle(*dmaSource) > 0.0) {
    npuCycles += dmaBytes / arch.bandwidthPerCycle(*dmaSource);
  }

  return withAccessCycles(arch, result, scaled, npuCycles);
}

npu::OperationPerformance withAccessCycles(const Architecture& arch, npu::OperationPerformance result,
                                           const npu::OperationPerformance& scaled, double npuCycles) {
  // npu_performance.update_summary_cycles.
  const auto accessCycles = [&](MemoryArea area) {
    const double bandwidth = arch.bandwidthPerCycle(area);
    if (bandwidth <= 0.0) {
      return 0.0;
    }
    double bytes = 0.0;
    for (int purpose = 0; purpose < npu::kTensorPurposeCount; ++purpose) {
      for (int direction = 0; direction < npu::kAccessDirectionCount; ++direction) {
        bytes += scaled.byteCount(area, static_cast<TensorPurpose>(purpose), static_cast<AccessDirection>(direction));
      }
    }
    return bytes / bandwidth;
  };
  auto& cycles = result.cycles;
  cycles[static_cast<std::size_t>(npu::CycleComponent::Npu)] = npuCycles;
  cycles[static_cast<std::size_t>(npu::CycleComponent::SramAccess)] = accessCycles(MemoryArea::Sram);
  cycles[static_cast<std::size_t>(npu::CycleComponent::DramAccess)] = accessCycles(MemoryArea::Dram);
  cycles[static_cast<std::size_t>(npu::CycleComponent::OnChipFlashAccess)] = accessCycles(MemoryArea::OnChipFlash);
  cycles[static_cast<std::size_t>(npu::CycleComponent::OffChipFlashAccess)] = accessCycles(MemoryArea::OffChipFlash);
  cycles[static_cast<std::size_t>(npu::CycleComponent::Total)] =
      *std::max_element(cycles.begin(), cycles.begin() + static_cast<std::ptrdiff_t>(npu::CycleComponent::Total));
  return result;
}

PassQuery passQueryFor(const Architecture& arch, const npu::Subgraph& subgraph, const npu::Operation& op,
                       const npu::PerformanceContext& context) {
  const npu::CostQuery& cost = context.query;
  npu::require(cost.block != nullptr, "a cost query needs a block config");
  PassQuery query;
  query.traits = traitsOf(subgraph, op);
  query.traits.resampling = ifmResampling(subgraph, op);
  // A stand-alone activation packed into the pass is the primary operation's only once the pass becomes
  // commands (high_level_command_stream_generator); the search saw the operation's own.
  if (const auto packed = op.attributes.get<std::string>("command_stream_activation");
      packed && context.phase != npu::EstimatePhase::Search) {
    query.traits.activation = npu::opTypeFromName(*packed);
  }
  query.ifm = cost.ifm;
  query.ifm2 = cost.ifm2;
  query.ofm = cost.ofm;
  // Vela 2.1 costs a binary elementwise pass with its operation's first input as the IFM, even a
  // scalar or constant one (pass_packing orders a pass's inputs as its primary operation's; only the
  // command stream swaps them): its memory, type and block read decide the command cycles.
  if (cost.reversedOperands && query.ifm2) {
    std::swap(query.ifm, *query.ifm2);
  }
  // npu_performance.estimate_memory_transfer_efficiency judges bursts in the brick format unless the
  // feature map avoids it (avoid_NHCWB16), whatever the format it is stored in.
  const auto allowedFormat = [&](npu::TensorId tensor) -> std::optional<npu::TensorFormat> {
    const npu::Tensor* t = subgraph.findTensor(tensor);
    if (t == nullptr || (t->purpose != npu::TensorPurpose::FeatureMap && !t->isConstant())) {
      return std::nullopt;
    }
    return t->format == npu::TensorFormat::NHCWB16 || !avoidsBrickFormat(subgraph, tensor) ? npu::TensorFormat::NHCWB16
                                                                                           : npu::TensorFormat::NHWC;
  };
  // The weights were encoded for the depth the operation reads (weight_compressor), before its IFM
  // became what Vela 2.1 sees (a concatenation's copy writes all of its output, a part's reader reads
  // the whole tensor).
  const int weightsIfmDepth = query.ifm.shape.depth;
  operandShapesVela21(subgraph, op, query.ifm.shape, query.ifm2 ? &query.ifm2->shape : nullptr, query.ofm.shape);
  // A constant operand of an elementwise operation is read where it is stored (mark_tensors keeps
  // constants in permanent storage; only weights, biases and LUTs are copied by DMA).
  const auto readInPlace = [&](npu::TensorId tensor, npu::FeatureMapQuery& featureMap) {
    const npu::Tensor* t = subgraph.findTensor(tensor);
    if (t != nullptr && t->isConstant() && arch.memory().constantArea != npu::MemoryArea::Unknown) {
      featureMap.area = arch.memory().constantArea;
    }
  };
  readInPlace(op.ifm(), query.ifm);
  if (query.ifm2) {
    readInPlace(op.ifm2(), *query.ifm2);
    if (context.phase == npu::EstimatePhase::Final && swapsOperandViews(subgraph, op, query)) {
      query.ifmBurstShape = query.ifm2->shape;
      query.ifm2BurstShape = query.ifm.shape;
    }
  }
  query.ifmBurstFormat = allowedFormat(op.ifm());
  query.ifm2BurstFormat = allowedFormat(op.ifm2());
  query.ofmBurstFormat = allowedFormat(op.ofm());
  const npu::Shape4& block = cost.block->ofmBlock;
  query.ofmBlock = Block{block.width, block.height, block.depth};
  const int ifmBits = npu::bitsOf(query.ifm.type);
  query.traversal = traversalFor(query.traits.blockType, weightsIfmDepth, ifmBits, query.traits.kernel);
  query.accumulator40 = ifmBits == 16 && query.traits.blockType != NpuBlockType::Pooling && query.traits.scaled;
  if (query.traits.type == npu::OpType::Add || query.traits.type == npu::OpType::Sub) {
    const auto ifmScale = firstScale(subgraph.findTensor(op.ifm()));
    const auto ifm2Scale = firstScale(subgraph.findTensor(op.ifm2()));
    const auto ofmScale = firstScale(subgraph.findTensor(op.ofm()));
    query.advancedAddSub = ifmScale && ifm2Scale && ofmScale && *ifmScale != *ifm2Scale;
  }
  query.hasScales = cost.hasScalesBiases;
  query.scaleBytes = context.scaleBytes;
  query.scaleArea = cost.constantArea;
  const npu::WeightTransfer& weights = context.weights;
  if (weights.present) {
    PassWeights passWeights;
    const std::int64_t scales = query.hasScales ? interleavedScaleBytes(query.ofm.shape.depth, arch.cores()) : 0;
    passWeights.bytes = std::max<std::int64_t>(weights.encodedBytes - scales, 0);
    // Weight-streamed weights are compressed in slices of the block depth (while a scheduler searches:
    // of the depth it encoded them in), and Vela 2.1 counts their bandwidth as if every slice were full
    // (the tensor's average compression scale over its slices).
    const int depth = query.ofm.shape.depth;
    const int encodedDepth = weights.sliceDepth > 0   ? weights.sliceDepth
                             : weights.doubleBuffered ? cost.block->ofmBlock.depth
                                                      : 0;
    const int sliceDepth = std::min(encodedDepth, depth);
    if (sliceDepth > 0) {
      passWeights.storageBytes = passWeights.bytes;
      const auto slices = npu::divRoundUp(depth, sliceDepth);
      // Vela keeps the fraction (a float compression scale times the weight shape's elements).
      passWeights.bandwidthBytes =
          static_cast<double>(passWeights.bytes) * depth / static_cast<double>(slices * sliceDepth);
      passWeights.bytes = static_cast<std::int64_t>(std::llround(*passWeights.bandwidthBytes));
    }
    // Vela 2.1 compresses weights before scheduling only where it gives them a DMA (insert_dma's
    // weights_fit_sram); a fully connected layer's (read in place, its only reader a vector product)
    // keeps the ratio Tensor.set_format assumes for compressed weights, 5/8, until the search is done.
    const npu::Tensor* weightTensor = subgraph.findTensor(op.weights());
    if (context.phase == npu::EstimatePhase::Search && query.traits.blockType == NpuBlockType::VectorProduct &&
        weightTensor != nullptr) {
      constexpr double kAssumedCompression = 5.0 / 8.0;
      passWeights.bandwidthBytes =
          static_cast<double>(weightTensor->elements()) * npu::bytesOf(weightTensor->type) * kAssumedCompression;
      passWeights.bytes = static_cast<std::int64_t>(std::llround(*passWeights.bandwidthBytes));
    }
    passWeights.storageArea = weights.sourceArea;
    passWeights.bufferArea = weights.bufferArea;
    query.weights = passWeights;
    query.scaleArea = weights.sourceArea;
  }
  if (const npu::Tensor* bias = subgraph.findTensor(op.bias())) {
    query.scaleElementBytes = npu::bytesOf(bias->type);
  } else {
    query.scaleElementBytes = 4; // the bias Vela 2.1 adds (fixup_bias_tensors): int32 for every IFM
  }
  if (weights.present && weights.scalesBuffered && weights.bufferArea) {
    query.scaleBufferArea = weights.bufferArea;
  }
  // Vela 2.1 keeps a transpose convolution's output-shape constant among the pass's inputs
  // (fixup_conv2d_backprop swaps it behind the IFM), and every 2x step of a bilinear resize its size
  // constant (convert_resizebilinear_to_2x2_pool keeps the operator's inputs): the pass reads it
  // where it is stored.
  std::optional<npu::TensorId> shapeConstant;
  if (op.type == npu::OpType::Conv2DBackpropInputSwitchedBias && op.inputs.size() > 2) {
    shapeConstant = op.inputs[2];
  } else if (op.type == npu::OpType::ResizeBilinear && op.inputs.size() > 1) {
    shapeConstant = op.inputs[1];
  }
  if (shapeConstant) {
    const npu::Tensor* constant = subgraph.findTensor(*shapeConstant);
    if (constant != nullptr && constant->isConstant() && arch.memory().constantArea != MemoryArea::Unknown) {
      query.constantReads.push_back(
          PassQuery::ConstantRead{constant->byteSize(), npu::bytesOf(constant->type),
                                  static_cast<int>(std::max<std::int64_t>(1, constant->elements()))});
    }
  }
  query.lut = context.lutTransfer;
  if (op.activation) {
    if (const npu::Tensor* lut = subgraph.findTensor(op.activation->lut)) {
      query.lutElementBytes = npu::bytesOf(lut->type);
    }
  }
  query.firstNpuPass = context.startsRegion;
  // A convolution or pooling pass that packed a stand-alone activation writes the activation's OFM, but
  // Vela 2.1's estimate_conv_pooling_cycles takes the primary operation's own OFM, an intermediate that
  // no scheduler moves out of the feature-map area (an elementwise pass takes the pass's OFM).
  if (op.attributes.getOr<bool>("ofm_of_packed_activation", false) && readsBlocks(query.traits.blockType)) {
    query.commandOfmArea = arch.memory().featureMapArea;
  }
  if (op.attributes.getOr<bool>("pass_primary_nop", false)) {
    const npu::Tensor* ifm = subgraph.findTensor(op.ifm());
    const npu::MemorySystem& memory = arch.memory();
    query.commandOfmArea = ifm != nullptr && ifm->isConstant() ? memory.constantArea : memory.featureMapArea;
    query.commandOfmType = query.ifm.type;
  }
  return query;
}

} // namespace ethosu::vela2
