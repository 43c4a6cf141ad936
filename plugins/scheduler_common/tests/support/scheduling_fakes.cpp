// SPDX-License-Identifier: Apache-2.0
#include "scheduling_fakes.hpp"

#include "npu/pipeline/compiler.hpp"

#include <algorithm>
#include <cmath>

namespace npu::test {

namespace {

double bandwidthOf(const MemorySystem& memory, MemoryArea area) {
  const double bandwidth = memory.area(area).bandwidthBytesPerCycle;
  return bandwidth > 0 ? bandwidth : 1.0;
}

std::int64_t macsOf(const Subgraph& subgraph, const Operation& op, const CostQuery& query) {
  const Kernel kernel = op.kernel.value_or(Kernel{});
  if (is(op.type, OpCategory::Convolution) || is(op.type, OpCategory::VectorProduct)) {
    return query.ofm.shape.elements() * kernel.elementsWH() * subgraph.ifmShape(op).depth;
  }
  return query.ofm.shape.elements() * kernel.elementsWH();
}

} // namespace

FakeSchedulingAccelerator::FakeSchedulingAccelerator(const FakeSystem& system) {
  info_.variant = "fake-scheduling";
  info_.displayName = "Fake_Scheduling";
  info_.macsPerCycle = 128;
  info_.depthSliceQuantum = 16;
  memory_.systemName = "Fake_System";
  memory_.memoryMode = system.separateFastStorage ? "Fake_Dedicated" : "Fake_Shared";
  memory_.coreClockHz = 1e9;
  const auto set = [&](MemoryArea area, double bandwidth) {
    memory_.areas[static_cast<std::size_t>(area)] = MemoryProperties{true, 1.0, bandwidth, 4, 4, 32};
  };
  set(MemoryArea::Sram, 8.0);
  set(MemoryArea::Dram, 4.0);
  set(MemoryArea::OffChipFlash, 1.0);
  memory_.constantArea = system.constantArea;
  memory_.featureMapArea = system.separateFastStorage ? MemoryArea::Dram : MemoryArea::Sram;
  memory_.fastStorageArea = MemoryArea::Sram;
  memory_.arenaCacheSize = system.fastStorageBytes;
  memory_.allocationAlignment = 16;
}

Shape4 FakeSchedulingAccelerator::storageRounding(TensorFormat format) const {
  return format == TensorFormat::NHCWB16 ? Shape4{1, 1, 1, 16} : Shape4{1, 1, 1, 1};
}

std::int64_t FakeSchedulingAccelerator::storageBytes(const Shape4& shape, DataType type, TensorFormat format) const {
  const Shape4 stored = roundUp(shape, storageRounding(format));
  return roundUp(std::max<std::int64_t>(stored.elements() * bytesOf(type), 1), 16);
}

std::optional<BlockConfig> FakeSchedulingAccelerator::choose(const Subgraph&, const Operation&,
                                                             const OperationShapes& shapes) const {
  BlockConfig block;
  block.ofmBlock =
      Shape4{1, std::min(shapes.ofm.height, 8), std::min(shapes.ofm.width, 8), std::min(shapes.ofm.depth, 16)};
  block.ifmBlock = block.ofmBlock;
  return block;
}

std::vector<BlockConfig> FakeSchedulingAccelerator::candidates(const Subgraph& s, const Operation& op,
                                                               const OperationShapes& shapes) const {
  return {*choose(s, op, shapes)};
}

Shape4 FakeSchedulingAccelerator::requiredIfmArea(const Subgraph& subgraph, const Operation& op,
                                                  const Shape4& ofmArea) const {
  const Kernel kernel = op.kernel.value_or(Kernel{});
  const int upscale = op.ifmResampling == Resampling::None ? 1 : 2;
  const int nearest = op.ifmResampling == Resampling::Nearest ? 1 : 0;
  const auto required = [&](int value, int stride, int border) {
    return static_cast<int>(divRoundUp((value - 1) * stride + border + nearest, upscale));
  };
  return Shape4{ofmArea.batch, required(ofmArea.height, kernel.strideY, kernel.areaHeight()),
                required(ofmArea.width, kernel.strideX, kernel.areaWidth()), subgraph.ifmShape(op).depth};
}

EncodedWeights FakeSchedulingAccelerator::encode(const Subgraph& subgraph, const Operation& op, const BlockConfig&,
                                                 std::span<const int> depthSlices, bool) const {
  EncodedWeights encoded;
  const Tensor* weights = subgraph.findTensor(op.weights());
  if (weights == nullptr) {
    return encoded;
  }
  const int depth = subgraph.ofmShape(op).depth;
  encoded.originalBytes = weights->byteSize();
  for (std::size_t i = 0; i + 1 < depthSlices.size(); ++i) {
    const int channels = depthSlices[i + 1] - depthSlices[i];
    EncodedWeightSlice slice;
    slice.depthStart = depthSlices[i];
    slice.depthEnd = depthSlices[i + 1];
    slice.offset = encoded.totalBytes;
    slice.bytes = roundUp(weights->byteSize() * channels / depth + 10 * channels, 16);
    slice.coreBytes = {slice.bytes};
    slice.coreScaleBytes = {10 * channels};
    encoded.totalBytes += slice.bytes;
    encoded.scaleBytes += 10 * channels;
    encoded.slices.push_back(slice);
  }
  return encoded;
}

CycleCost FakeSchedulingAccelerator::cycles(const Subgraph& subgraph, const Operation& op,
                                            const CostQuery& query) const {
  const std::int64_t macs = macsOf(subgraph, op, query);
  return CycleCost{macs, static_cast<double>(macs) / 128.0 + static_cast<double>(query.ofm.shape.elements()) / 16.0};
}

ElementAccess FakeSchedulingAccelerator::elementAccess(const Subgraph& subgraph, const Operation& op,
                                                       const CostQuery& query) const {
  ElementAccess access;
  access.ifmRead[0] = static_cast<double>(query.ifm.shape.elements());
  if (query.ifm2) {
    access.ifmRead[1] = static_cast<double>(query.ifm2->shape.elements());
  }
  access.ofmWrite = static_cast<double>(query.ofm.shape.elements());
  if (const Tensor* weights = subgraph.findTensor(op.weights())) {
    access.constantRead[0] = static_cast<double>(weights->elements());
  }
  return access;
}

double FakeSchedulingAccelerator::transferCycles(MemoryArea from, MemoryArea to, std::int64_t bytes) const {
  return static_cast<double>(bytes) / std::min(bandwidthOf(memory_, from), bandwidthOf(memory_, to));
}

OperationPerformance FakeSchedulingAccelerator::estimate(const Subgraph& subgraph, const Operation& op,
                                                         const PerformanceContext& context) const {
  OperationPerformance result;
  const CostQuery& query = context.query;
  const CycleCost cost = cycles(subgraph, op, query);
  const ElementAccess access = elementAccess(subgraph, op, query);
  result.macs = cost.macs;
  double npu = cost.cycles;
  const WeightTransfer& weights = context.weights;
  if (weights.present && weights.bufferArea) {
    const double first = transferCycles(weights.sourceArea, *weights.bufferArea, weights.firstTransferBytes);
    npu = weights.doubleBuffered
              ? std::max(weights.fullTransferCycles - context.previousSlackCycles + context.ownSlackCycles,
                         cost.cycles + std::max(first - context.previousSlackCycles, 0.0))
              : cost.cycles + weights.fullTransferCycles - std::min(first, context.previousSlackCycles);
    result.byteCount(weights.sourceArea, TensorPurpose::Weights, AccessDirection::Read) +=
        static_cast<double>(weights.encodedBytes);
  } else if (weights.present) {
    result.byteCount(weights.sourceArea, TensorPurpose::Weights, AccessDirection::Read) +=
        static_cast<double>(weights.encodedBytes);
  }
  result.byteCount(query.ifm.area, TensorPurpose::FeatureMap, AccessDirection::Read) += access.ifmRead[0];
  if (query.ifm2) {
    result.byteCount(query.ifm2->area, TensorPurpose::FeatureMap, AccessDirection::Read) += access.ifmRead[1];
  }
  result.byteCount(query.ofm.area, TensorPurpose::FeatureMap, AccessDirection::Write) += access.ofmWrite;
  result.cycles[static_cast<std::size_t>(CycleComponent::Npu)] = npu;
  double total = npu;
  const std::pair<CycleComponent, MemoryArea> components[] = {
      {CycleComponent::SramAccess, MemoryArea::Sram},
      {CycleComponent::DramAccess, MemoryArea::Dram},
      {CycleComponent::OffChipFlashAccess, MemoryArea::OffChipFlash}};
  for (const auto& [component, area] : components) {
    double bytes = 0.0;
    for (const auto& purpose : result.bytes[static_cast<std::size_t>(area)]) {
      bytes += purpose[0] + purpose[1];
    }
    const double accessCycles = bytes / bandwidthOf(memory_, area);
    result.cycles[static_cast<std::size_t>(component)] = accessCycles;
    total = std::max(total, accessCycles);
  }
  result.cycles[static_cast<std::size_t>(CycleComponent::Total)] = total;
  return result;
}

GraphBuilder::GraphBuilder(std::string name) {
  graph_.name = "handmade";
  Subgraph subgraph;
  subgraph.name = std::move(name);
  graph_.subgraphs.push_back(std::move(subgraph));
}

std::string GraphBuilder::nextName(const std::string& prefix, const std::string& name) {
  return name.empty() ? prefix + std::to_string(counter_++) : name;
}

Shape4 GraphBuilder::shapeOf(TensorId tensor) const {
  return Shape4::fromShape(subgraph().tensor(tensor).shape);
}

TensorId GraphBuilder::featureMap(Shape4 shape, const std::string& name) {
  Tensor tensor;
  tensor.name = name;
  tensor.shape = Shape{shape.batch, shape.height, shape.width, shape.depth};
  tensor.type = DataType::Int8;
  tensor.purpose = TensorPurpose::FeatureMap;
  tensor.format = TensorFormat::NHCWB16;
  tensor.quantisation.scale = {0.05};
  tensor.quantisation.zeroPoint = {0};
  return subgraph().addTensor(std::move(tensor));
}

TensorId GraphBuilder::constant(Shape shape, const std::string& name, TensorPurpose purpose, DataType type) {
  Tensor tensor;
  tensor.name = name;
  tensor.shape = std::move(shape);
  tensor.type = type;
  tensor.purpose = purpose;
  tensor.quantisation.scale = {0.01};
  tensor.quantisation.zeroPoint = {0};
  tensor.data = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(tensor.byteSize()), 1);
  return subgraph().addTensor(std::move(tensor));
}

OperationId GraphBuilder::addOperation(Operation op) {
  op.placement = Placement::Npu;
  const Subgraph& s = subgraph();
  for (const TensorId input : {op.ifm(), op.ifm2()}) {
    if (s.validTensorId(input)) {
      op.ifmShapes.push_back(Shape4::fromShape(s.tensor(input).shape));
    }
  }
  op.ofmShapes.push_back(Shape4::fromShape(s.tensor(op.ofm()).shape));
  return subgraph().addOperation(std::move(op));
}

TensorId GraphBuilder::input(Shape4 shape, const std::string& name) {
  const TensorId tensor = featureMap(shape, name);
  subgraph().tensor(tensor).format = TensorFormat::NHWC;
  subgraph().inputs.push_back(tensor);
  return tensor;
}

TensorId GraphBuilder::append(OpType type, const char* sourceType, const std::string& name,
                              std::vector<TensorId> inputs, Shape4 ofmShape, std::optional<Kernel> kernel,
                              Padding padding) {
  const TensorId ofm = featureMap(ofmShape, name);
  Operation op;
  op.type = type;
  op.sourceType = sourceType;
  op.name = name;
  op.inputs = std::move(inputs);
  op.outputs = {ofm};
  if (kernel) {
    op.kernel = *kernel;
  }
  op.padding = padding;
  addOperation(std::move(op));
  return ofm;
}

namespace {

/// The OFM of a kernel with "same" padding and `stride` over `in`, with `depth` channels.
Shape4 stridedShape(const Shape4& in, int stride, int depth) {
  return Shape4{1, static_cast<int>(divRoundUp(in.height, stride)), static_cast<int>(divRoundUp(in.width, stride)),
                depth};
}

} // namespace

TensorId GraphBuilder::conv(TensorId ifm, int depth, int kernel, int stride, const std::string& name) {
  const Shape4 in = shapeOf(ifm);
  const std::string opName = nextName("conv", name);
  const TensorId weights =
      constant(Shape{depth, kernel, kernel, in.depth}, opName + "_weights", TensorPurpose::Weights, DataType::Int8);
  const TensorId bias = constant(Shape{depth}, opName + "_bias", TensorPurpose::ScalesBiases, DataType::Int32);
  return append(OpType::Conv2DBias, "CONV_2D", opName, {ifm, weights, bias}, stridedShape(in, stride, depth),
                Kernel{kernel, kernel, stride, stride, 1, 1}, Padding::Same);
}

TensorId GraphBuilder::depthwise(TensorId ifm, int kernel, int stride, const std::string& name) {
  const Shape4 in = shapeOf(ifm);
  const std::string opName = nextName("depthwise", name);
  const TensorId weights =
      constant(Shape{1, kernel, kernel, in.depth}, opName + "_weights", TensorPurpose::Weights, DataType::Int8);
  const TensorId bias = constant(Shape{in.depth}, opName + "_bias", TensorPurpose::ScalesBiases, DataType::Int32);
  return append(OpType::DepthwiseConv2DBias, "DEPTHWISE_CONV_2D", opName, {ifm, weights, bias},
                stridedShape(in, stride, in.depth), Kernel{kernel, kernel, stride, stride, 1, 1}, Padding::Same);
}

TensorId GraphBuilder::maxPool(TensorId ifm, int kernel, int stride, const std::string& name) {
  const Shape4 in = shapeOf(ifm);
  return append(OpType::MaxPool, "MAX_POOL_2D", nextName("maxpool", name), {ifm}, stridedShape(in, stride, in.depth),
                Kernel{kernel, kernel, stride, stride, 1, 1});
}

TensorId GraphBuilder::memcpy(TensorId ifm, const std::string& name) {
  return append(OpType::Memcpy, "RESHAPE", nextName("memcpy", name), {ifm}, shapeOf(ifm));
}

TensorId GraphBuilder::add(TensorId a, TensorId b, const std::string& name) {
  return append(OpType::Add, "ADD", nextName("add", name), {a, b}, shapeOf(a));
}

TensorId GraphBuilder::addConstant(TensorId ifm, bool constantFirst, const std::string& name) {
  const std::string opName = nextName("add", name);
  const Shape4 in = shapeOf(ifm);
  const TensorId value =
      constant(Shape{1, 1, 1, in.depth}, opName + "_constant", TensorPurpose::FeatureMap, DataType::Int8);
  return append(OpType::Add, "ADD", opName,
                constantFirst ? std::vector<TensorId>{value, ifm} : std::vector<TensorId>{ifm, value}, in);
}

TensorId GraphBuilder::fullyConnected(TensorId ifm, int outputs, const std::string& name) {
  const Shape4 in = shapeOf(ifm);
  const std::string opName = nextName("fc", name);
  const TensorId weights = constant(Shape{outputs, static_cast<int>(in.elements())}, opName + "_weights",
                                    TensorPurpose::Weights, DataType::Int8);
  const TensorId bias = constant(Shape{outputs}, opName + "_bias", TensorPurpose::ScalesBiases, DataType::Int32);
  const TensorId ofm = featureMap(Shape4{1, 1, 1, outputs}, opName);
  Operation op;
  op.type = OpType::FullyConnected;
  op.sourceType = "FULLY_CONNECTED";
  op.name = opName;
  op.inputs = {ifm, weights, bias};
  op.outputs = {ofm};
  const auto id = addOperation(std::move(op));
  subgraph().operation(id).ifmShapes = {Shape4{1, 1, 1, static_cast<int>(in.elements())}};
  return ofm;
}

void GraphBuilder::output(TensorId tensor) {
  subgraph().tensor(tensor).format = TensorFormat::NHWC;
  subgraph().outputs.push_back(tensor);
}

std::vector<NpuRegion> npuRegions(const Graph& graph) {
  return findNpuRegions(graph);
}

} // namespace npu::test
