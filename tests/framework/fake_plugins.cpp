// SPDX-License-Identifier: Apache-2.0
#include "fake_plugins.hpp"

#include <algorithm>
#include <numeric>

namespace npu::test {

namespace {
TensorId addFeatureMap(Subgraph& subgraph, const std::string& name) {
  Tensor tensor;
  tensor.name = name;
  tensor.shape = Shape{1, 8, 8, 16};
  tensor.type = DataType::Int8;
  tensor.purpose = TensorPurpose::FeatureMap;
  tensor.quantisation.scale = {0.5};
  tensor.quantisation.zeroPoint = {0};
  return subgraph.addTensor(std::move(tensor));
}

void addOperation(Subgraph& subgraph, OpType type, std::string sourceType, std::vector<TensorId> inputs,
                  TensorId output) {
  Operation op;
  op.type = type;
  op.sourceType = std::move(sourceType);
  op.inputs = std::move(inputs);
  op.outputs = {output};
  op.name = subgraph.tensor(output).name;
  subgraph.addOperation(std::move(op));
}
} // namespace

Graph makeChainGraph() {
  Graph graph;
  graph.name = "chain";
  Subgraph subgraph;
  subgraph.name = "main";
  const TensorId input = addFeatureMap(subgraph, "input");
  Tensor constant;
  constant.name = "one";
  constant.shape = Shape{1};
  constant.type = DataType::Int8;
  const std::vector<std::int8_t> one{1};
  constant.data = makeConstantBuffer(std::span<const std::int8_t>(one));
  const TensorId constantId = subgraph.addTensor(std::move(constant));
  const TensorId a = addFeatureMap(subgraph, "a");
  const TensorId b = addFeatureMap(subgraph, "b");
  const TensorId c = addFeatureMap(subgraph, "c");
  const TensorId d = addFeatureMap(subgraph, "d");
  addOperation(subgraph, OpType::Add, "ADD", {input, constantId}, a);
  addOperation(subgraph, OpType::Custom, "CUSTOM:fancy", {a}, b);
  addOperation(subgraph, OpType::Add, "ADD", {b, b}, c);
  addOperation(subgraph, OpType::Add, "ADD", {c, b}, d);
  subgraph.inputs = {input};
  subgraph.outputs = {d};
  graph.subgraphs.push_back(std::move(subgraph));
  return graph;
}

Graph FakeFrontend::read(const std::filesystem::path& file, const OptionValues&) const {
  Graph graph = makeChainGraph();
  graph.sourcePath = file.string();
  return graph;
}

FakeAccelerator::FakeAccelerator(std::int64_t fastStorageBytes) {
  info_.variant = "fake-1";
  info_.displayName = "Fake_1";
  info_.macsPerCycle = 1;
  memory_.systemName = "Fake_System";
  memory_.memoryMode = "Fake_Mode";
  memory_.coreClockHz = 1e6;
  auto& sram = memory_.areas[static_cast<std::size_t>(MemoryArea::Sram)];
  sram = MemoryProperties{true, 1.0, 4.0, 0, 0, 16};
  memory_.constantArea = MemoryArea::Sram;
  memory_.featureMapArea = MemoryArea::Sram;
  memory_.fastStorageArea = MemoryArea::Sram;
  memory_.arenaCacheSize = fastStorageBytes;
}

SupportVerdict FakeAccelerator::check(const Subgraph&, const Operation& op) const {
  if (op.type == OpType::Custom) {
    return {false, "custom", "custom operators run on the CPU"};
  }
  return {};
}

std::int64_t FakeAccelerator::storageBytes(const Shape4& shape, DataType type, TensorFormat) const {
  return roundUp(shape.elements() * bytesOf(type), 16);
}

std::optional<BlockConfig> FakeAccelerator::choose(const Subgraph&, const Operation&,
                                                   const OperationShapes& shapes) const {
  BlockConfig block;
  block.ofmBlock = elementwiseMin(shapes.ofm, Shape4{1, 4, 4, 16});
  block.ifmBlock = block.ofmBlock;
  return block;
}

std::vector<BlockConfig> FakeAccelerator::candidates(const Subgraph& s, const Operation& op,
                                                     const OperationShapes& shapes) const {
  return {*choose(s, op, shapes)};
}

EncodedWeights FakeAccelerator::encode(const Subgraph& subgraph, const Operation& op, const BlockConfig&,
                                       std::span<const int> depthSlices, bool) const {
  EncodedWeights encoded;
  const Tensor* weights = subgraph.findTensor(op.weights());
  if (weights == nullptr || depthSlices.size() < 2) {
    return encoded;
  }
  const std::int64_t depth = depthSlices.back();
  encoded.originalBytes = weights->byteSize();
  for (std::size_t i = 0; i + 1 < depthSlices.size(); ++i) {
    EncodedWeightSlice slice;
    slice.depthStart = depthSlices[i];
    slice.depthEnd = depthSlices[i + 1];
    slice.offset = encoded.totalBytes;
    const std::int64_t channels = slice.depthEnd - slice.depthStart;
    const std::int64_t scales = channels * 4;
    slice.bytes = roundUp(encoded.originalBytes * channels / depth + scales, 16);
    slice.coreBytes = {slice.bytes};
    slice.coreScaleBytes = {scales};
    encoded.totalBytes += slice.bytes;
    encoded.scaleBytes += scales;
    encoded.slices.push_back(slice);
  }
  return encoded;
}

CycleCost FakeAccelerator::cycles(const Subgraph&, const Operation&, const CostQuery& query) const {
  return CycleCost{query.ofm.shape.elements(), static_cast<double>(query.ofm.shape.elements())};
}

ElementAccess FakeAccelerator::elementAccess(const Subgraph&, const Operation&, const CostQuery& query) const {
  ElementAccess access;
  access.ifmRead[0] = static_cast<double>(query.ifm.shape.elements());
  access.ofmWrite = static_cast<double>(query.ofm.shape.elements());
  return access;
}

OperationPerformance FakeAccelerator::estimate(const Subgraph& s, const Operation& op,
                                               const PerformanceContext& context) const {
  OperationPerformance performance;
  const CycleCost cost = cycles(s, op, context.query);
  const ElementAccess access = elementAccess(s, op, context.query);
  performance.macs = cost.macs;
  performance.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Read) = access.ifmRead[0];
  performance.byteCount(MemoryArea::Sram, TensorPurpose::FeatureMap, AccessDirection::Write) = access.ofmWrite;
  const double accessCycles = (access.ifmRead[0] + access.ofmWrite) / 4.0;
  performance.cycles[static_cast<std::size_t>(CycleComponent::Npu)] = cost.cycles;
  performance.cycles[static_cast<std::size_t>(CycleComponent::SramAccess)] = accessCycles;
  performance.cycles[static_cast<std::size_t>(CycleComponent::Total)] = std::max(cost.cycles, accessCycles);
  return performance;
}

std::optional<OperationBound> FakeAccelerator::bound(const Subgraph&, const Operation&,
                                                     const PerformanceContext& context) const {
  OperationBound result;
  const auto outputs = static_cast<double>(context.query.ofm.shape.elements());
  result.cycles[static_cast<std::size_t>(BoundResource::Compute)] = outputs;
  result.cycles[static_cast<std::size_t>(BoundResource::Sram)] =
      (static_cast<double>(context.query.ifm.shape.elements()) + outputs) / 4.0;
  return result;
}

Schedule FakeScheduler::schedule(const ScheduleRequest& request) const {
  const Subgraph& subgraph = request.graph.subgraphs.at(static_cast<std::size_t>(request.region.subgraph));
  const auto& accelerator = request.accelerator;
  Schedule schedule;
  schedule.label = subgraph.name + "_fake";
  schedule.region = request.region;
  std::map<TensorId, std::pair<std::int64_t, std::int64_t>> lifetimes;
  const auto last = static_cast<std::int64_t>(request.region.operations.size()) - 1;
  for (TensorId input : request.region.inputs) {
    lifetimes[input] = {0, 0};
  }
  for (std::size_t t = 0; t < request.region.operations.size(); ++t) {
    const OperationId id = request.region.operations[t];
    const Operation& op = subgraph.operation(id);
    ScheduledOperation scheduled;
    scheduled.op = id;
    const OperationShapes shapes{subgraph.ifmShape(op), std::nullopt, subgraph.ofmShape(op)};
    scheduled.blockConfig = *accelerator.blockConfigs().choose(subgraph, op, shapes);
    scheduled.ifmStripe = shapes.ifm;
    scheduled.ofmStripe = shapes.ofm;
    schedule.operations.push_back(scheduled);
    const auto time = static_cast<std::int64_t>(t);
    for (TensorId input : op.inputs) {
      if (lifetimes.contains(input)) {
        lifetimes[input].second = time;
      }
    }
    lifetimes[op.ofm()] = {time, time};
  }
  for (TensorId output : request.region.outputs) {
    lifetimes[output].second = last;
  }
  for (const auto& [tensor, lifetime] : lifetimes) {
    const Tensor& t = subgraph.tensor(tensor);
    schedule.tensorHomes[tensor] = TensorHome{MemoryArea::Sram, TensorFormat::NHWC};
    LiveRange range{t.name, lifetime.first, lifetime.second,
                    accelerator.layout().storageBytes(Shape4::fromShape(t.shape), t.type, TensorFormat::NHWC), 16};
    schedule.buffers.push_back(BufferRequest{range, MemoryArea::Sram, {tensor}});
  }
  return schedule;
}

std::vector<std::int64_t> FakeLinearAllocator::allocate(std::span<const LiveRange> ranges, const OptionValues&) const {
  std::vector<std::int64_t> addresses;
  std::int64_t next = 0;
  for (const auto& range : ranges) {
    next = roundUp(next, std::max<std::int64_t>(range.alignment, 1));
    addresses.push_back(next);
    next += range.size;
  }
  return addresses;
}

} // namespace npu::test
