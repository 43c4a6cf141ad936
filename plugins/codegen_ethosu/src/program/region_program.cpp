// SPDX-License-Identifier: Apache-2.0
#include "program/region_program.hpp"

#include "operations/npu_operation_builder.hpp"
#include "operations/operation_semantics.hpp"
#include "stream/lookup_tables.hpp"

#include "npu/core/diagnostics.hpp"

#include <map>
#include <utility>

namespace ethosu::codegen {

namespace {

/// Position in the region of the operation writing each tensor.
std::map<npu::TensorId, int> producersOf(const npu::Subgraph& subgraph, const npu::Schedule& schedule) {
  std::map<npu::TensorId, int> producers;
  for (std::size_t position = 0; position < schedule.operations.size(); ++position) {
    for (const npu::TensorId output : subgraph.operation(schedule.operations[position].op).outputs) {
      producers.try_emplace(output, static_cast<int>(position));
    }
  }
  return producers;
}

OperationGeometry geometryOf(const npu::Subgraph& subgraph, const npu::ScheduledOperation& scheduled,
                             const OperationInfo& info, const std::map<npu::TensorId, int>& producers) {
  const npu::Operation& op = subgraph.operation(scheduled.op);
  OperationGeometry geometry;
  geometry.blockType = info.blockType;
  // Stripes are cut in the operation's own operand order (as Vela's high-level commands are); operands
  // swapped only for the hardware are swapped back when the NPU operation is built.
  geometry.ifmShape = info.ifm.shape;
  if (info.ifm2) {
    geometry.ifm2Shape = info.ifm2->shape;
    if (info.swappedForHardware) {
      std::swap(geometry.ifmShape, *geometry.ifm2Shape);
    }
  }
  geometry.ofmShape = info.ofm.shape;
  const npu::Kernel kernel = op.kernel.value_or(npu::Kernel{});
  geometry.strideX = runnableStride(kernel.strideX, info.ofm.shape.width, info.name);
  geometry.strideY = runnableStride(kernel.strideY, info.ofm.shape.height, info.name);
  if (const auto skirt = op.attributes.get<std::vector<std::int64_t>>("skirt"); skirt && skirt->size() == 4) {
    geometry.skirt = std::array<int, 4>{static_cast<int>((*skirt)[0]), static_cast<int>((*skirt)[1]),
                                        static_cast<int>((*skirt)[2]), static_cast<int>((*skirt)[3])};
  }
  // Vela: the kernel height comes from the pooling size or the weights; other operations have none.
  const bool pooling = info.blockType == NpuBlockType::Pooling || info.blockType == NpuBlockType::ReduceSum;
  const int kernelHeight = (pooling || op.weights() != npu::kNoTensor) ? kernel.height : 1;
  geometry.dilatedKernelHeight = kernel.dilationY * (kernelHeight - 1) + 1;
  // Vela divides by the height of the tensor the IFM is stored in; an operation reading a split part
  // reads only the part's rows, which Vela divides by too (a part's OFM can be lower than the whole IFM:
  // its upscaling is then 0 and numpy divides by it with a warning). The part's height is the one the
  // hardware upscales; for a whole IFM both are the same.
  const int readHeight = std::max(info.ifmReadShape.value_or(info.ifm.shape).height, 1);
  if (op.type == npu::OpType::Conv2DBackpropInputSwitchedBias) {
    geometry.upscaling = std::max(info.ofm.shape.height / readHeight, 1);
  } else if (op.ifmResampling == npu::Resampling::Nearest) {
    geometry.upscaling = std::max(static_cast<int>(npu::divRoundUp(info.ofm.shape.height, readHeight)), 1);
  }
  geometry.writeOffset = op.writeOffset;
  geometry.writeShape = op.writeShape;
  geometry.readOffsets = op.readOffsets;
  geometry.readShapes = op.readShapes;
  // The IFM's read as code generation addresses it (a split part in the reader's view, see describe).
  geometry.readOffsets[0] = info.ifmReadOffset;
  geometry.readShapes[0] = info.ifmReadShape;
  geometry.ofmStripe = scheduled.ofmStripe;
  if (info.ofmReshaped) {
    // Written in its IFM's shape: only a whole OFM has the same stripe in both shapes.
    if (scheduled.ofmStripe != subgraph.ofmShape(op, 0) || op.writeOffset ||
        info.ofm.tileOffsets != decltype(info.ofm.tileOffsets){}) {
      npu::throwInternalError("elementwise operation '" + info.name + "' writes its OFM in its IFM's shape " +
                              info.ofm.shape.str() + " but is striped or writes a part");
    }
    geometry.ofmStripe = info.ofm.shape;
  }
  geometry.depthSlices = scheduled.weights ? scheduled.weights->depthSlices : std::vector<int>{0, info.ofm.shape.depth};
  geometry.hasWeights = info.weights != nullptr;
  geometry.weightBuffers = scheduled.weights ? static_cast<int>(scheduled.weights->bufferBytes.size()) : 0;
  geometry.hasLookupTable = info.lookupTable != npu::kNoTensor;
  geometry.memoryCopy = info.memoryCopy;
  geometry.binaryElementwise = info.kind == BlockOperation::Kind::Elementwise && !info.unary;
  geometry.cascade = scheduled.cascade;
  geometry.rollingBufferRows = scheduled.ifmRollingBuffer ? scheduled.ifmRollingBuffer->height : 0;
  geometry.name = info.name;
  const npu::TensorId ifm = scheduled.reversedOperands ? op.ifm2() : op.ifm();
  if (const auto producer = producers.find(ifm); producer != producers.end()) {
    geometry.producer = producer->second;
  }
  return geometry;
}

std::vector<CascadeSpan> cascadeSpans(const npu::Schedule& schedule) {
  std::map<npu::OperationId, int> positions;
  for (std::size_t position = 0; position < schedule.operations.size(); ++position) {
    positions[schedule.operations[position].op] = static_cast<int>(position);
  }
  std::vector<CascadeSpan> spans;
  for (const npu::CascadeInfo& cascade : schedule.cascades) {
    if (cascade.id != static_cast<int>(spans.size()) + 1) {
      npu::throwInternalError("schedule '" + schedule.label + "' numbers its cascades out of order");
    }
    spans.push_back(CascadeSpan{positions.at(cascade.first), positions.at(cascade.last)});
  }
  return spans;
}

} // namespace

namespace {

/// The region's program up to its NPU operations, and where its lookup tables are in SHRAM.
RegionProgram planRegion(const RegionSources& sources, const Architecture& architecture,
                         std::vector<LookupTablePlacement>& tables) {
  const npu::Subgraph& subgraph =
      sources.graph.subgraphs.at(static_cast<std::size_t>(sources.schedule.region.subgraph));
  RegionProgram program;
  program.operations = describeRegion(sources);
  const auto producers = producersOf(subgraph, sources.schedule);
  std::vector<OperationGeometry> geometries;
  std::vector<bool> copyIsNeeded;
  std::vector<LookupTableUse> tableUses;
  for (std::size_t position = 0; position < sources.schedule.operations.size(); ++position) {
    const OperationInfo& info = program.operations[position];
    geometries.push_back(geometryOf(subgraph, sources.schedule.operations[position], info, producers));
    copyIsNeeded.push_back(info.memoryCopy && (info.ifm.storage.region != info.ofm.storage.region ||
                                               info.ifm.storage.address != info.ofm.storage.address));
    LookupTableUse use;
    if (info.lookupTable != npu::kNoTensor) {
      use.used = true;
      use.identity = storageKey(subgraph, info.lookupTable);
      use.bytes = npu::roundUp(info.lookupTableBytes, 16);
    }
    tableUses.push_back(use);
  }
  auto commands = generateHighLevelStream(geometries, cascadeSpans(sources.schedule), copyIsNeeded);
  const auto lutStart = std::int64_t{CommonArchitecture::kShramBankBytes} * architecture.availableShramBanks(true);
  auto plan = planLookupTables(std::move(commands), tableUses, lutStart, CommonArchitecture::kShramLutBytes,
                               architecture.shramReservedEndBanks() == 0);
  for (const LookupTableSlot& slot : plan.placements) {
    tables.push_back(LookupTablePlacement{slot.slot, slot.address});
  }
  program.commands = std::move(plan.commands);
  return program;
}

} // namespace

RegionProgram buildRegionProgram(const RegionSources& sources, const Architecture& architecture) {
  std::vector<LookupTablePlacement> tables;
  RegionProgram program = planRegion(sources, architecture, tables);
  for (const HighLevelCommand& command : program.commands) {
    appendNpuOperations(command, program.operations, tables, architecture.cores(), program.npuOperations);
  }
  return program;
}

void forEachNpuOperation(const RegionSources& sources, const Architecture& architecture,
                         const std::function<void(const NpuOperation&)>& consume) {
  std::vector<LookupTablePlacement> tables;
  const RegionProgram program = planRegion(sources, architecture, tables);
  std::vector<NpuOperation> operations; // of one command
  for (const HighLevelCommand& command : program.commands) {
    operations.clear();
    appendNpuOperations(command, program.operations, tables, architecture.cores(), operations);
    for (const NpuOperation& operation : operations) {
      consume(operation);
    }
  }
}

} // namespace ethosu::codegen
