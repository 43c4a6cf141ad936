// SPDX-License-Identifier: Apache-2.0
// Which feature maps may use the NHCWB16 brick format (Vela graph_optimiser_util.py
// check_format_restrictions): everything stays linear that the CPU, a DMA, a reshaped view, an
// unaligned concat/split offset or a subgraph boundary sees.
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

#include "npu/ir/graph_algorithms.hpp"

#include <algorithm>
#include <functional>

namespace ethosu::lowering {

using namespace npu;

namespace {

/// The NPU run (Vela's NPU subgraph) of each operation: runs of NPU operations in execution order, cut by
/// every other operation; -1 for those.
std::vector<int> npuRuns(const Subgraph& subgraph) {
  std::vector<int> runs(subgraph.operations.size(), -1);
  int run = 0;
  bool inRun = false;
  for (std::size_t i = 0; i < subgraph.operations.size(); ++i) {
    if (subgraph.operations[i].placement == Placement::Npu) {
      runs[i] = run;
      inRun = true;
    } else if (inRun) {
      ++run;
      inRun = false;
    }
  }
  return runs;
}

/// Whether a tensor crosses from one NPU subgraph to another (written in one, read or also written in
/// another): Vela's extract_subgraph forces the outputs of every NPU subgraph linear.
bool crossesNpuSubgraphs(const std::vector<OperationId>& producers, const std::vector<OperationId>& consumers,
                         const std::vector<int>& runs) {
  std::vector<int> touched;
  for (const auto& ops : {producers, consumers}) {
    for (OperationId op : ops) {
      if (runs[static_cast<std::size_t>(op)] >= 0) {
        touched.push_back(runs[static_cast<std::size_t>(op)]);
      }
    }
  }
  return std::adjacent_find(touched.begin(), touched.end(), std::not_equal_to<>()) != touched.end();
}

bool mustStayLinear(const Subgraph& subgraph, const DataflowIndex& dataflow, TensorId id,
                    const std::vector<int>& runs) {
  const Tensor& tensor = subgraph.tensor(id);
  if (tensor.isConstant() || isSubgraphInput(subgraph, id) || isSubgraphOutput(subgraph, id)) {
    return true;
  }
  const auto& producers = dataflow.producers(id);
  const auto& consumers = dataflow.consumers(id);
  if (producers.empty() || crossesNpuSubgraphs(producers, consumers, runs)) {
    return true;
  }
  const Shape4 shape = Shape4::fromShape(tensor.shape);
  for (OperationId producerId : producers) {
    const Operation& producer = subgraph.operation(producerId);
    if (producer.placement != Placement::Npu || producer.type == OpType::Memcpy ||
        producer.attributes.getOr<std::string>("memory_function", "") == "VariableTensorWrite" ||
        producer.attributes.getOr<std::int64_t>("linear_ofm_tensor", -1) == static_cast<std::int64_t>(id) ||
        (producer.writeOffset && producer.writeOffset->depth % 16 != 0) ||
        (!producer.ofmShapes.empty() && producer.ofmShapes[0] != shape &&
         !producer.attributes.getOr<bool>("ofm_view_keeps_brick", false)) ||
        (producer.sourceType == "RESIZE_BILINEAR" && producer.type == OpType::DepthwiseConv2DBias)) {
      return true;
    }
  }
  for (OperationId consumerId : consumers) {
    const Operation& consumer = subgraph.operation(consumerId);
    if (consumer.placement != Placement::Npu || consumer.type == OpType::Memcpy) {
      return true;
    }
    std::size_t slot = 0;
    if (consumer.ifm() == id) {
      slot = 0;
    } else if (isBinaryElementwise(consumer.type) && consumer.ifm2() == id) {
      slot = 1;
    } else {
      continue; // read as weights or another operand, not as a feature map
    }
    // A reader that sees the tensor in another shape needs it linear even when it reads only a part
    // (Vela _avoid_nhcwb16_for_shapes compares the IFM shape, never the read shape): ARG_MAX pools its
    // [1, H, W, C] values as [1, H*W, C, 1] in chunks of rows.
    if ((consumer.readOffsets[slot] && consumer.readOffsets[slot]->depth % 16 != 0) ||
        (consumer.ifmShapes.size() > slot && consumer.ifmShapes[slot] != shape)) {
      return true;
    }
    if (consumer.type == OpType::ReduceSum && tensor.type == DataType::Int32) {
      return true; // ReduceSum of int32 requires an NHWC IFM
    }
  }
  return false;
}

} // namespace

void chooseTensorFormats(Subgraph& subgraph, const LoweringContext& /*context*/) {
  // One index for all tensors (formats do not change who reads what): linear in the graph's size.
  const DataflowIndex dataflow(subgraph);
  const std::vector<int> runs = npuRuns(subgraph);
  for (std::size_t i = 0; i < subgraph.tensors.size(); ++i) {
    Tensor& tensor = subgraph.tensors[i];
    if (tensor.purpose != TensorPurpose::FeatureMap) {
      continue;
    }
    tensor.format =
        mustStayLinear(subgraph, dataflow, static_cast<TensorId>(i), runs) ? TensorFormat::NHWC : TensorFormat::NHCWB16;
  }
}

} // namespace ethosu::lowering
