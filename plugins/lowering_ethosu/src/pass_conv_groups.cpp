// SPDX-License-Identifier: Apache-2.0
// Grouped convolutions (the IFM is deeper than the weights' input depth) as a SPLIT of the IFM along the
// depth, one convolution per group and a CONCATENATION of their outputs (Vela tflite_graph_optimiser.py
// convert_conv_groups). It runs right after placement, before concatenations and splits are rewritten;
// the new operations are placed again by the accelerator's checks, as Vela checks them when its
// traversal reaches them.
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"

namespace ethosu::lowering {

using namespace npu;

namespace {

/// The slice [first, first + count) along the first axis (output channels of OHWI weights, or of a bias).
TensorId outputChannelSlice(Subgraph& subgraph, TensorId source, int first, int count, const std::string& name) {
  const Tensor tensor = subgraph.tensor(source);
  const std::int64_t perChannel = tensor.shape.rank() > 0 ? tensor.elements() / tensor.shape[0] : 1;
  const auto values = tensor.integerValues();
  const std::vector<std::int64_t> slice(values.begin() + first * perChannel,
                                        values.begin() + (first + count) * perChannel);
  std::vector<int> dims(tensor.shape.dims().begin(), tensor.shape.dims().end());
  dims[0] = count;
  Quantisation quantisation = tensor.quantisation;
  if (quantisation.scale.size() > 1) {
    quantisation.scale.assign(tensor.quantisation.scale.begin() + first,
                              tensor.quantisation.scale.begin() + first + count);
  }
  if (quantisation.zeroPoint.size() > 1) {
    quantisation.zeroPoint.assign(tensor.quantisation.zeroPoint.begin() + first,
                                  tensor.quantisation.zeroPoint.begin() + first + count);
  }
  return addConstant(subgraph, name, Shape(dims), tensor.type, slice, quantisation, tensor.purpose);
}

Operation unplaced(const Operation& origin, OpType type, std::string name) {
  Operation op = deriveOperation(origin, type, std::move(name));
  op.placement = Placement::Unplaced;
  return op;
}

std::vector<Operation> splitIntoGroups(Subgraph& subgraph, const Operation& conv, int groups) {
  const Tensor ifm = subgraph.tensor(conv.ifm());
  const Tensor ofm = subgraph.tensor(conv.ofm());
  const int ifmDepthPerGroup = ifm.shape.back(0) / groups;
  const int filtersPerGroup = subgraph.tensor(conv.weights()).shape[0] / groups;
  const auto withDepth = [](const Shape& shape, int depth) {
    std::vector<int> dims(shape.dims().begin(), shape.dims().end());
    dims.back() = depth;
    return Shape(dims);
  };

  Operation split = unplaced(conv, OpType::Split, conv.name + "_split");
  split.attributes.set("num_splits", std::int64_t{groups});
  const std::vector<std::int64_t> depthAxis{-1};
  split.inputs = {addConstant(subgraph, split.name + "_axis", Shape{}, DataType::Int32, depthAxis), conv.ifm()};
  Operation concat = unplaced(conv, OpType::ConcatTFLite, conv.name + "_concat");
  concat.attributes.set("axis", std::int64_t{-1});
  concat.outputs = {conv.ofm()};

  std::vector<Operation> convolutions;
  for (int group = 0; group < groups; ++group) {
    const std::string suffix = "_cg" + std::to_string(group);
    const TensorId part = addFeatureMap(subgraph, split.name + "_out" + std::to_string(group),
                                        withDepth(ifm.shape, ifmDepthPerGroup), ifm.type, ifm.quantisation);
    split.outputs.push_back(part);
    // Vela gives the parts of the concatenation the IFM's type.
    const TensorId result = addFeatureMap(subgraph, concat.name + "_in" + std::to_string(group),
                                          withDepth(ofm.shape, filtersPerGroup), ifm.type, ofm.quantisation);
    concat.inputs.push_back(result);
    Operation groupConv = conv;
    groupConv.name = conv.name + suffix;
    groupConv.placement = Placement::Unplaced;
    groupConv.placementReason.clear();
    groupConv.ifmShapes.clear();
    groupConv.ofmShapes.clear();
    const int first = group * filtersPerGroup;
    groupConv.inputs[0] = part;
    groupConv.inputs[1] = outputChannelSlice(subgraph, conv.weights(), first, filtersPerGroup,
                                             subgraph.tensor(conv.weights()).name + suffix);
    if (conv.bias() != kNoTensor) {
      groupConv.inputs[2] =
          outputChannelSlice(subgraph, conv.bias(), first, filtersPerGroup, subgraph.tensor(conv.bias()).name + suffix);
    }
    groupConv.outputs = {result};
    convolutions.push_back(std::move(groupConv));
  }
  std::vector<Operation> result{std::move(split)};
  result.insert(result.end(), convolutions.begin(), convolutions.end());
  result.push_back(std::move(concat));
  return result;
}

} // namespace

void convertConvolutionGroups(Subgraph& subgraph, const LoweringContext& /*context*/) {
  rewriteEach(subgraph, [](Subgraph& graph, const Operation& op) -> std::optional<std::vector<Operation>> {
    if (op.placement != Placement::Npu || op.type != OpType::Conv2DBias || op.weights() == kNoTensor ||
        !graph.tensor(op.weights()).isConstant() || graph.tensor(op.weights()).shape.rank() != 4 ||
        graph.tensor(op.ifm()).shape.rank() == 0) {
      return std::nullopt;
    }
    const int ifmDepth = graph.tensor(op.ifm()).shape.back(0);
    const int kernelDepth = graph.tensor(op.weights()).shape.back(0);
    if (kernelDepth <= 0 || ifmDepth == kernelDepth || ifmDepth % kernelDepth != 0) {
      return std::nullopt;
    }
    return splitIntoGroups(graph, op, ifmDepth / kernelDepth);
  });
}

} // namespace ethosu::lowering
