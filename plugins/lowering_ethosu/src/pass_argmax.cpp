// SPDX-License-Identifier: Apache-2.0
// ARG_MAX over the depth as a depthwise convolution, depthwise max pooling and casts (Vela
// tflite_graph_optimiser.py convert_argmax_to_depthwise_conv_and_max_pool):
//   1. a 1x1 depthwise convolution multiplies every value by 2^7 into int16 and adds the reversed
//      channel index (c - 1 - channel) as bias, so the index breaks ties towards the lowest channel;
//   2. max pooling over the depth of each pixel (the IFM seen as [1, H*W, C, 1]), in chunks of at most
//      2^16 / W rows, with a 16-bit LUT that keeps the 7 low bits and turns the reversed index back;
//   3. a cast of the int16 indices to int32 and, for an int64 OFM, a second cast through a tensor of
//      twice the depth so each index fills the low half of an int64.
#include "ethosu_lowering/rewrite_support.hpp"
#include "lut_tables.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

namespace ethosu::lowering {

using namespace npu;

namespace {

/// The 16-bit LUT of every entry: base c - 1 and slope -128 (Vela: "maxpool_LUT_extract_7_LSB").
LutTable extractIndexTable(int channels) {
  const std::int64_t slope = (std::int64_t{-128} & 0xFFFF) << 16;
  return LutTable{std::vector<std::int64_t>(512, slope + (channels - 1)), DataType::UInt32};
}

} // namespace

RewriteResult convertArgMax(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::ArgMax) {
    return std::nullopt;
  }
  const Tensor ifm = subgraph.tensor(op.ifm());
  const Tensor ofm = subgraph.tensor(op.ofm());
  const Shape4 ifmShape = op.ifmShapes.empty() ? Shape4::fromShape(ifm.shape) : op.ifmShapes[0];
  const int channels = ifmShape.depth;
  // The OFM gets the reduced depth back as a last dimension of one.
  const Shape4 ofmShape{ifmShape.batch, ifmShape.height, ifmShape.width, 1};
  std::vector<Operation> result;

  Operation shift = deriveOperation(op, OpType::DepthwiseConv2DBias, op.name + "_depthwise_conv_SHL_7");
  shift.kernel = Kernel{};
  shift.padding = Padding::Valid;
  shift.attributes.set("depth_multiplier", std::int64_t{1});
  const std::vector<std::int64_t> scale(static_cast<std::size_t>(channels), 128);
  std::vector<std::int64_t> reversedIndices;
  for (int channel = channels - 1; channel >= 0; --channel) {
    reversedIndices.push_back(channel);
  }
  const TensorId weights = addConstant(subgraph, "weights", Shape{1, 1, 1, channels}, DataType::UInt8, scale,
                                       unitQuantisation(), TensorPurpose::Weights);
  const TensorId bias = addConstant(subgraph, shift.name + "_bias", Shape{channels}, DataType::Int64, reversedIndices,
                                    {}, TensorPurpose::ScalesBiases);
  const TensorId shifted =
      addFeatureMap(subgraph, "int16_and_shifted_7_bits_left", toShape(ifmShape), DataType::Int16, ifm.quantisation);
  shift.inputs = {op.ifm(), weights, bias};
  shift.outputs = {shifted};
  shift.ifmShapes = {ifmShape};
  shift.ofmShapes = {ifmShape};
  result.push_back(std::move(shift));

  // Max pooling in chunks of rows: the pooled IFM is [1, H*W, C, 1] and H*W may exceed the hardware's
  // height limit.
  const TensorId lut = addLutTable(subgraph, "maxpool_LUT_extract_7_LSB", extractIndexTable(channels));
  const int maximumHeight = (1 << 16) / std::max(ifmShape.width, 1);
  std::vector<int> chunkHeights(static_cast<std::size_t>(ifmShape.height / maximumHeight), maximumHeight);
  if (ifmShape.height % maximumHeight != 0) {
    chunkHeights.push_back(ifmShape.height % maximumHeight);
  }
  const TensorId pooled = addFeatureMap(subgraph, "argmax_maxpool", Shape{1, ifmShape.height, ifmShape.width, 1},
                                        DataType::Int16, unitQuantisation());
  const Shape4 pooledShape{1, ifmShape.height * ifmShape.width, 1, 1};
  int rowsDone = 0;
  for (std::size_t chunk = 0; chunk < chunkHeights.size(); ++chunk) {
    Operation pool = makeDepthwiseMaxPool(subgraph, op, "dw_maxpool_" + std::to_string(chunk), shifted, ifmShape,
                                          unitQuantisation());
    pool.outputs = {pooled};
    pool.ofmShapes = {pooledShape};
    setLutActivation(pool, lut);
    const int rows = chunkHeights[chunk] * ifmShape.width;
    pool.readShapes[0] = Shape4{1, rows, ifmShape.depth, 1};
    pool.readOffsets[0] = Shape4{0, rowsDone * ifmShape.width, 0, 0};
    pool.writeShape = Shape4{1, rows, 1, 1};
    pool.writeOffset = Shape4{0, rowsDone * ifmShape.width, 0, 0};
    rowsDone += chunkHeights[chunk];
    result.push_back(std::move(pool));
  }

  const auto cast = [&](const std::string& name, TensorId from, TensorId to, const Shape4& shape) {
    Operation op32 = makeCast(subgraph, op, name, from, to);
    op32.ifmShapes = {shape};
    op32.ofmShapes = {shape};
    result.push_back(std::move(op32));
  };
  const auto copy = [&](const std::string& name, TensorId from, TensorId to, const Shape4& shape) {
    Operation memcpy = makeMemcpy(subgraph, op, name, from, to);
    memcpy.ofmShapes = {shape};
    result.push_back(std::move(memcpy));
  };
  if (ofm.type != DataType::Int64) {
    cast(op.name + "_cast_to_32bit_1", pooled, op.ofm(), ofmShape);
    return result;
  }
  // int64 indices: int16 -> int32, seen as int16 pairs -> int32 pairs, seen as int64.
  const Shape4 doubleDepth = ofmShape.withDepth(2);
  const TensorId indices32 = addFeatureMap(subgraph, op.name + "_32bit", toShape(ofmShape), DataType::Int32, {});
  const TensorId pairs16 =
      addFeatureMap(subgraph, op.name + "_16bit_2x_size", toShape(doubleDepth), DataType::Int16, {});
  const TensorId pairs32 =
      addFeatureMap(subgraph, op.name + "_32bit_2x_size", toShape(doubleDepth), DataType::Int32, {});
  cast(op.name + "_cast_to_32bit_1", pooled, indices32, ofmShape);
  copy(op.name + "_memcpy_1", indices32, pairs16, doubleDepth);
  cast(op.name + "_cast_to_32bit_2", pairs16, pairs32, doubleDepth);
  // Vela 3.10 names this copy with an unformatted f-string; the name is kept so reports line up.
  copy("f{orig_name}_memcpy_2", pairs32, op.ofm(), ofmShape);
  return result;
}

} // namespace ethosu::lowering
