// SPDX-License-Identifier: Apache-2.0
#include "pass_graph.hpp"

#include "vela21_overwrite.hpp"

#include "scheduler_common/scheduling_graph.hpp"

#include "npu/core/diagnostics.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace npu::dp {

namespace {

constexpr int kSearchSliceDepth = 16;           // Vela 2.1 insert_dma: compress_weights(..., 16, 16, ...)
constexpr std::int64_t kAllocationQuantum = 16; // Vela: Tensor.AllocationQuantum

bool isIfmStreamable(OpType type) {
  return is(type, OpCategory::Convolution) || is(type, OpCategory::DepthwiseConvolution) ||
         is(type, OpCategory::Pooling);
}

/// The search estimate of one weight stream: encoded with 16-deep slices.
WeightEstimate estimateWeights(const Subgraph& subgraph, const Operation& op, const Accelerator& accelerator) {
  const Tensor& weights = subgraph.tensor(op.weights());
  const int channels = std::max(subgraph.ofmShape(op).depth, 1);
  BlockConfig block;
  block.ofmBlock = Shape4{1, 1, 1, std::min(kSearchSliceDepth, channels)};
  std::vector<int> slices;
  for (int depth = 0; depth < channels; depth += kSearchSliceDepth) {
    slices.push_back(depth);
  }
  slices.push_back(channels);
  const EncodedWeights encoded = accelerator.weights().encode(subgraph, op, block, slices, false);

  WeightEstimate estimate;
  // insert_dma compresses only the weights it considers copying into fast storage.
  const MemorySystem& memory = accelerator.memory();
  if (memory.constantArea != memory.fastStorageArea && !is(op.type, OpCategory::VectorProduct)) {
    estimate.sliceDepth = kSearchSliceDepth;
  }
  estimate.streamBytes = encoded.totalBytes;
  estimate.weightBytes = std::max<std::int64_t>(encoded.totalBytes - encoded.scaleBytes, 0);
  estimate.elements = weights.elements();
  // Vela 2.1 keeps depthwise weights as [H, W, 1, C] (graph_optimiser.reorder_depthwise_weights), so
  // their double buffers and slices are in OFM channels like a convolution's.
  estimate.outputChannels = channels;
  estimate.elementsPerChannel = estimate.elements / std::max(estimate.outputChannels, 1);
  // Vela divides every slice by the elements of a full slice (weight_compressor.compress_weights).
  const double sliceElements =
      static_cast<double>(estimate.elementsPerChannel) * std::min(kSearchSliceDepth, estimate.outputChannels);
  for (const EncodedWeightSlice& slice : encoded.slices) {
    std::int64_t scales = 0;
    for (const std::int64_t coreScales : slice.coreScaleBytes) {
      scales += coreScales;
    }
    if (sliceElements > 0) {
      estimate.worstCompression =
          std::max(estimate.worstCompression, static_cast<double>(slice.bytes - scales) / sliceElements);
    }
  }
  if (encoded.slices.empty() && estimate.elements > 0) {
    estimate.worstCompression = static_cast<double>(estimate.weightBytes) / static_cast<double>(estimate.elements);
  }
  return estimate;
}

} // namespace

std::int64_t allocationBytes(double bytes) {
  const auto whole = static_cast<std::int64_t>(std::ceil(bytes));
  return roundUp(std::max<std::int64_t>(whole, 1), kAllocationQuantum);
}

PassGraph::PassGraph(const Graph& graph, const NpuRegion& region, const Accelerator& accelerator, Progress* progress)
    : graph_(&graph), subgraph_(&graph.subgraphs.at(static_cast<std::size_t>(region.subgraph))), region_(&region),
      accelerator_(&accelerator) {
  buildPasses();
  linkPasses();
  estimateWeights(progress);
  computeNonLocalUsage();
}

void PassGraph::buildPasses() {
  const Subgraph& subgraph = *subgraph_;
  const MemorySystem& memory = accelerator_->memory();
  for (std::size_t i = 0; i < region_->operations.size(); ++i) {
    const OperationId id = region_->operations[i];
    const Operation& op = subgraph.operation(id);
    DpPass pass;
    pass.index = static_cast<int>(i);
    pass.op = id;
    pass.name = op.name;
    pass.type = op.type;
    pass.ifmStreamable = isIfmStreamable(op.type);
    pass.elementwise = isElementwise(op.type);
    pass.reversedOperands = scheduling::swapsOperands(subgraph, op);
    pass.ifm = pass.reversedOperands ? op.ifm2() : op.ifm();
    pass.ifm2 = pass.reversedOperands ? op.ifm() : op.ifm2();
    pass.ofm = op.ofm();
    const std::size_t primary = pass.reversedOperands ? 1 : 0;
    if (subgraph.validTensorId(pass.ifm)) {
      pass.shapes.ifm = op.readShapes[primary].value_or(subgraph.ifmShape(op, primary));
    }
    if (subgraph.validTensorId(pass.ifm2)) {
      pass.shapes.ifm2 = op.readShapes[1 - primary].value_or(subgraph.ifmShape(op, 1 - primary));
    }
    pass.shapes.ofm = op.writeShape.value_or(subgraph.ofmShape(op));
    std::set<TensorId> seen;
    for (const TensorId input : op.inputs) {
      if (subgraph.validTensorId(input) && !subgraph.tensor(input).isConstant() && seen.insert(input).second) {
        pass.featureMapInputs.push_back(input);
      }
    }
    if (subgraph.validTensorId(op.weights())) {
      pass.weights = op.weights();
      // insert_dma: weights are copied into fast storage unless only a vector product reads them.
      pass.weightsBuffered = memory.constantArea != memory.fastStorageArea && !is(op.type, OpCategory::VectorProduct);
    }
    pass.hasBias = subgraph.validTensorId(op.bias());
    passes_.push_back(std::move(pass));
  }
}

void PassGraph::linkPasses() {
  const Subgraph& subgraph = *subgraph_;
  std::map<TensorId, std::vector<int>> producers;
  for (const DpPass& pass : passes_) {
    for (const TensorId output : subgraph.operation(pass.op).outputs) {
      producers[output].push_back(pass.index);
    }
  }
  std::vector<std::vector<int>> linked(passes_.size());
  for (DpPass& pass : passes_) {
    for (const TensorId input : subgraph.operation(pass.op).inputs) {
      const auto it = producers.find(input);
      if (it == producers.end()) {
        continue;
      }
      for (const int producer : it->second) {
        auto& list = linked[static_cast<std::size_t>(pass.index)];
        if (producer != pass.index && std::find(list.begin(), list.end(), producer) == list.end()) {
          list.push_back(producer);
          passes_[static_cast<std::size_t>(producer)].successors.push_back(pass.index);
        }
      }
    }
  }
  for (DpPass& pass : passes_) {
    std::sort(pass.successors.begin(), pass.successors.end());
    pass.successors.erase(std::unique(pass.successors.begin(), pass.successors.end()), pass.successors.end());
  }
  // nn_graph.build_pass_dag_predecessors: a depth-first walk from the passes nobody reads drops every
  // link that would close a loop, so the search can recurse over predecessors without revisiting.
  enum class Visit : std::uint8_t { NotVisited, BeingVisited, Visited };
  std::vector<Visit> state(passes_.size(), Visit::NotVisited);
  struct Frame {
    int pass;
    std::size_t next;
  };
  // Passes nobody reads first; then, latest first, whatever only loops reach.
  std::vector<int> starts;
  for (const DpPass& pass : passes_) {
    if (pass.successors.empty()) {
      starts.push_back(pass.index);
    }
  }
  for (int index = size() - 1; index >= 0; --index) {
    starts.push_back(index);
  }
  for (const int startIndex : starts) {
    if (state[static_cast<std::size_t>(startIndex)] != Visit::NotVisited) {
      continue;
    }
    std::vector<Frame> stack{{startIndex, 0}};
    state[static_cast<std::size_t>(startIndex)] = Visit::BeingVisited;
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const auto& candidates = linked[static_cast<std::size_t>(frame.pass)];
      if (frame.next == candidates.size()) {
        state[static_cast<std::size_t>(frame.pass)] = Visit::Visited;
        stack.pop_back();
        continue;
      }
      const int predecessor = candidates[frame.next++];
      auto& predecessorState = state[static_cast<std::size_t>(predecessor)];
      if (predecessorState == Visit::BeingVisited) {
        hasLoops_ = true; // this link closes a loop and is dropped
        continue;
      }
      passes_[static_cast<std::size_t>(frame.pass)].predecessors.push_back(predecessor);
      if (predecessorState == Visit::NotVisited) {
        predecessorState = Visit::BeingVisited;
        stack.push_back({predecessor, 0});
      }
    }
  }
}

void PassGraph::estimateWeights(Progress* progress) {
  const std::int64_t limit = accelerator_->memory().arenaCacheSize;
  tbb::parallel_for(std::size_t{0}, passes_.size(), [&](std::size_t i) {
    DpPass& pass = passes_[i];
    if (progress != nullptr) {
      progress->advance(1);
    }
    if (pass.weights == kNoTensor) {
      return;
    }
    pass.weightEstimate = std::make_shared<const WeightEstimate>(
        npu::dp::estimateWeights(*subgraph_, operation(pass.index), *accelerator_));
    // insert_dma.weights_fit_sram: a double buffer of 16 channels must fit.
    const WeightEstimate& estimate = *pass.weightEstimate;
    const double minimum =
        estimate.worstCompression * static_cast<double>(estimate.elementsPerChannel) * kSearchSliceDepth * 2.0;
    if (limit > 0 && minimum > static_cast<double>(limit)) {
      pass.weightsBuffered = false;
    }
  });
}

std::int64_t PassGraph::linearBytes(TensorId tensor) const {
  const Tensor& t = subgraph_->tensor(tensor);
  return allocationBytes(static_cast<double>(t.byteSize()));
}

std::int64_t PassGraph::inputBytesInSearchedMemory(int index) const {
  std::int64_t bytes = 0;
  if (featureMapsInSearchedMemory()) {
    for (const TensorId input : pass(index).featureMapInputs) {
      bytes += linearBytes(input);
    }
  }
  return bytes;
}

std::int64_t PassGraph::outputBytesInSearchedMemory(int index) const {
  std::int64_t bytes = 0;
  if (featureMapsInSearchedMemory()) {
    for (const TensorId output : operation(index).outputs) {
      if (subgraph_->validTensorId(output)) {
        bytes += linearBytes(output);
      }
    }
  }
  return bytes;
}

std::int64_t PassGraph::residentWeightBytes(int index, double scaling) const {
  const DpPass& p = pass(index);
  if (!p.weightsBuffered || !p.weightEstimate) {
    return 0;
  }
  return allocationBytes(static_cast<double>(p.weightEstimate->weightBytes) * scaling);
}

std::int64_t PassGraph::doubleBufferBytes(int index, int blockDepth, double scaling) const {
  const DpPass& p = pass(index);
  if (!p.weightsBuffered || !p.weightEstimate) {
    return 0;
  }
  const WeightEstimate& estimate = *p.weightEstimate;
  const auto channels = std::min<std::int64_t>(estimate.outputChannels, std::int64_t{2} * blockDepth);
  return allocationBytes(static_cast<double>(estimate.elementsPerChannel * channels) * estimate.worstCompression *
                         scaling);
}

std::int64_t PassGraph::rollingBufferBytes(int index, int height) const {
  const DpPass& p = pass(index);
  const Tensor& ifm = subgraph_->tensor(p.ifm);
  const Shape4 shape = Shape4::fromShape(ifm.shape);
  // Rolling buffers hold brick-format rows, so the depth is rounded to 16 (tensor.storage_size_for_sub_purpose).
  const std::int64_t rows = std::min(shape.height, height);
  const std::int64_t depth = roundUp(shape.depth, 16);
  return allocationBytes(static_cast<double>(rows * shape.width * depth * bytesOf(ifm.type)));
}

std::string PassGraph::describe(int index) const {
  return subgraph_->describe(pass(index).op);
}

void PassGraph::computeNonLocalUsage() {
  // live_range.extract_live_ranges_from_passes over the searched memory. Vela's NPU subgraph begins
  // with a startup pass at time 0 that produces the region's inputs (extract_npu_subgraphs), so pass i
  // runs at time 2i + 2 and the inputs are live from time 0; a tensor is live from its first to its
  // last use; an elementwise OFM may share its IFM's range. Sharing a range does not save memory here:
  // Vela 2.1 (scheduler.calc_non_local_mem_usage) adds every tensor's size over its whole range, so a
  // fused OFM counts from its IFM's first use on.
  const Subgraph& subgraph = *subgraph_;
  const int count = size();
  const std::int64_t endTime = 2 * static_cast<std::int64_t>(count + 1);
  std::vector<std::int64_t> usage(static_cast<std::size_t>(endTime + 2), 0);
  struct Range {
    std::int64_t start = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = -1;
  };
  struct Member {
    std::size_t range = 0;
    std::int64_t size = 0;
  };
  std::map<TensorId, Member> memberOf;
  std::vector<Range> ranges;
  std::vector<Member> weightMembers;
  const auto range = [&](TensorId tensor) -> Range& {
    const auto [it, inserted] = memberOf.emplace(tensor, Member{ranges.size(), linearBytes(tensor)});
    if (inserted) {
      ranges.push_back(Range{});
    }
    return ranges[it->second.range];
  };
  const bool featureMaps = featureMapsInSearchedMemory();
  if (featureMaps) {
    // merge_elementwise_op_ranges, as in the final allocation but before any format is decided.
    const scheduling::SchedulingGraph view(*graph_, *region_, *accelerator_);
    const scheduling::TensorFilter featureMap = [&](TensorId tensor) { return !subgraph.tensor(tensor).isConstant(); };
    for (const DpPass& p : passes_) {
      if (memberOf.contains(p.ofm)) {
        continue;
      }
      if (const auto input = vela21InputOverwrittenBeforeScheduling(view, p.index, featureMap)) {
        static_cast<void>(range(*input)); // creates the range when the input has none yet
        memberOf[p.ofm] = Member{memberOf.at(*input).range, linearBytes(p.ofm)};
      }
    }
  }
  const auto mark = [](Range& r, std::int64_t time) {
    r.start = std::min(r.start, time);
    r.end = std::max(r.end, time + 1);
  };
  if (featureMaps) {
    for (const TensorId input : region_->inputs) {
      mark(range(input), 0);
    }
  }
  std::vector<std::int64_t> local(static_cast<std::size_t>(count), 0);
  for (const DpPass& p : passes_) {
    const std::int64_t time = 2 * static_cast<std::int64_t>(p.index + 1);
    auto& own = local[static_cast<std::size_t>(p.index)];
    if (featureMaps) {
      for (const TensorId input : p.featureMapInputs) {
        mark(range(input), time);
        own += linearBytes(input);
      }
      for (const TensorId output : operation(p.index).outputs) {
        if (subgraph.validTensorId(output)) {
          mark(range(output), time);
          own += linearBytes(output);
        }
      }
    }
    if (p.weightsBuffered) {
      const std::int64_t bytes = residentWeightBytes(p.index, 1.0);
      weightMembers.push_back(Member{ranges.size(), bytes});
      ranges.push_back(Range{time, time + 1});
      own += bytes;
    }
  }
  if (featureMaps) {
    for (const TensorId output : region_->outputs) {
      if (const auto it = memberOf.find(output); it != memberOf.end()) {
        mark(ranges[it->second.range], endTime);
      }
    }
  }
  const auto addUsage = [&](const Member& member) {
    const Range& r = ranges[member.range];
    for (std::int64_t t = std::max<std::int64_t>(r.start, 0); t < r.end && t < static_cast<std::int64_t>(usage.size());
         ++t) {
      usage[static_cast<std::size_t>(t)] += member.size;
    }
  };
  for (const auto& [tensor, member] : memberOf) {
    addUsage(member);
  }
  for (const Member& member : weightMembers) {
    addUsage(member);
  }
  nonLocalUsage_.resize(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    nonLocalUsage_[static_cast<std::size_t>(i)] =
        usage[static_cast<std::size_t>(2 * i + 2)] - local[static_cast<std::size_t>(i)];
  }
  // The startup pass is scheduled too: a strategy holding everything live at time 0 (its outputs),
  // part of every strategy set of the region.
  startupSram_ = usage.front();
}

} // namespace npu::dp
