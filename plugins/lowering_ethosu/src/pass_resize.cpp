// SPDX-License-Identifier: Apache-2.0
// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (Vela tflite_graph_optimiser.py fixup_resize and the
// functions it calls):
// - same size: an Identity, removed later like every pass-through;
// - a 1x1 IFM: an Add of the IFM broadcast onto zeros of the OFM's shape;
// - bilinear with half-pixel centres (2x only): an AvgPool copy, then four 2x2 depthwise convolutions with
//   edge-replicating tile padding, each writing every second row and column of the OFM;
// - otherwise (2x, 4x, 8x): x2 nearest-neighbour upscaling by 1x1 pools, the last one with a kernel of
//   the whole upscale factor for bilinear, or a depthwise convolution picking the nearest value for
//   nearest neighbour with aligned corners.
#include "ethosu_lowering/rewrite_support.hpp"
#include "nop_operations.hpp"
#include "operator_rewrites.hpp"

#include <array>
#include <cmath>

namespace ethosu::lowering {

using namespace npu;

namespace {

RewriteResult single(Operation op) {
  return std::vector<Operation>{std::move(op)};
}

Operation resizeToAdd(Subgraph& subgraph, const Operation& op) {
  Operation add = op;
  add.type = OpType::Add;
  add.name = op.name + "_add";
  add.kernel.reset();
  const Shape4 ofmShape = op.ofmShapes.empty() ? shape4Of(subgraph, op.ofm()) : op.ofmShapes[0];
  const Tensor& ifm = subgraph.tensor(op.ifm());
  const std::string zerosName =
      (op.inputs.size() > 1 && op.inputs[1] != kNoTensor ? subgraph.tensor(op.inputs[1]).name : ifm.name) + "_add";
  const std::vector<std::int64_t> zeros(static_cast<std::size_t>(ofmShape.elements()), 0);
  const TensorId zeroTensor = addConstant(subgraph, zerosName, toShape(ofmShape), ifm.type, zeros, unitQuantisation());
  add.inputs = {zeroTensor, op.ifm()};
  setDefaultShapes(subgraph, add);
  return add;
}

/// Upscale factor of a supported resize (Vela constraint_resize): OFM = f * IFM, or f * (IFM - 1) + 1
/// with aligned corners.
int upscaleFactor(const Operation& op, const Shape4& ifm, const Shape4& ofm) {
  if (op.attributes.getOr<bool>("align_corners", false)) {
    return ifm.height > 1 ? (ofm.height - 1) / (ifm.height - 1) : 1;
  }
  return ifm.height > 0 ? ofm.height / ifm.height : 1;
}

/// A depthwise convolution of `factor` x `factor` whose single coefficient 1 picks the nearest value
/// (Vela convert_resizenn_ac_to_depthwise_conv).
Operation nearestAlignedCorners(Subgraph& subgraph, Operation op, int factor) {
  const Tensor& ofm = subgraph.tensor(op.ofm());
  const int depth = ofm.shape.back(0);
  const DataType type = ofm.type;
  op.type = OpType::DepthwiseConv2DBias;
  op.activation.reset();
  op.padding = Padding::Valid;
  op.attributes.set("depth_multiplier", std::int64_t{1});
  Kernel kernel;
  kernel.width = factor;
  kernel.height = factor;
  op.kernel = kernel;
  // Depthwise weights [1, H, W, C]: the coefficient below and right of the kernel's centre.
  std::vector<std::int64_t> values(static_cast<std::size_t>(factor * factor * depth), 0);
  const int centre = (factor / 2) * factor + factor / 2;
  for (int channel = 0; channel < depth; ++channel) {
    values[static_cast<std::size_t>(centre * depth + channel)] = 1;
  }
  const TensorId weights = addConstant(subgraph, "weights", Shape{1, factor, factor, depth}, type, values,
                                       unitQuantisation(), TensorPurpose::Weights);
  op.inputs = {op.ifm(), weights, addZeroBias(subgraph, op.name, depth, DataType::Int8)};
  setDefaultShapes(subgraph, op);
  return op;
}

std::vector<Operation> upscaleAndAveragePool(Subgraph& subgraph, const Operation& op, int factor) {
  // Every pass keeps the operator's other inputs (the size constant), as Vela's clones of the operator
  // do (convert_resize_to_upscale_and_average_pool): the constant then takes its place in the read-only area.
  Operation base = op;
  const auto withInput = [&op](TensorId input) {
    std::vector<TensorId> inputs = op.inputs;
    inputs.at(0) = input;
    return inputs;
  };
  base.kernel = Kernel{};
  base.padding = Padding::Same; // irrelevant for a 1x1 kernel
  base.ifmResampling = Resampling::Nearest;
  const int doublings = static_cast<int>(std::lround(std::log2(factor)));
  std::vector<Operation> result;
  Shape4 shape = op.ifmShapes.empty() ? shape4Of(subgraph, op.ifm()) : op.ifmShapes[0];
  const Shape4 ofmShape = op.ofmShapes.empty() ? shape4Of(subgraph, op.ofm()) : op.ofmShapes[0];
  TensorId previous = op.ifm();
  for (int count = 0; count + 1 < doublings; ++count) {
    Operation twice = base;
    if (count > 0) {
      twice.name = op.name + "_" + std::to_string(count);
    }
    shape = shape.withHW(shape.height * 2, shape.width * 2);
    const Tensor& ofm = subgraph.tensor(op.ofm());
    const TensorId output =
        addFeatureMap(subgraph, ofm.name + "_" + std::to_string(count),
                      toShape(ofmShape.withHW(shape.height, shape.width)), ofm.type, ofm.quantisation);
    twice.inputs = withInput(previous);
    twice.outputs = {output};
    setDefaultShapes(subgraph, twice);
    previous = output;
    result.push_back(std::move(twice));
  }
  Operation last = base;
  if (doublings > 1) {
    last.name = op.name + "_" + std::to_string(doublings - 1);
  }
  last.inputs = withInput(previous);
  last.outputs = op.outputs;
  const bool alignCorners = op.attributes.getOr<bool>("align_corners", false);
  if (op.type == OpType::ResizeBilinear) {
    Kernel kernel;
    kernel.width = factor;
    kernel.height = factor;
    last.kernel = kernel;
    if (alignCorners) {
      last.padding = Padding::Valid;
    } else {
      // Padding to the right and bottom (this limits the kernel to 8x8).
      last.padding = Padding::Explicit;
      last.explicitPadding = {0, 0, factor - 1, factor - 1};
    }
    setDefaultShapes(subgraph, last);
  } else if (alignCorners) {
    last = nearestAlignedCorners(subgraph, last, factor);
  } else {
    setDefaultShapes(subgraph, last);
  }
  // The resize writes its own OFM shape, not the one a RESHAPE bypassed after it gave the tensor. Vela
  // takes the tensor's (its clones set their shapes from the tensors): random_354's 4x4x21 -> 8x8x21
  // resize then pools a 2x2x1344 IFM of a 336-byte tensor into one 1x1x1344 pixel, reading memory
  // nothing wrote. With its own shape the tensor is read in another shape, so it stays linear.
  last.ofmShapes = {ofmShape};
  result.push_back(std::move(last));
  return result;
}

/// Weights of the four 2x2 kernels of a half-pixel bilinear 2x upscale, times 16 (Vela
/// convert_resizebilinear_to_depthwise_convolutions _compute_kernels).
std::array<std::array<double, 4>, 4> halfPixelKernels(const Shape4& ifm, const Shape4& ofm) {
  const auto interpolation = [](int index, int inputSize, int outputSize) {
    const double scaled = (index + 0.5) * inputSize / outputSize - 0.5;
    return scaled - std::max(std::floor(scaled), 0.0);
  };
  std::array<std::array<double, 4>, 4> kernels{};
  std::size_t index = 0;
  for (const int y : {1, 2}) {
    for (const int x : {1, 2}) {
      const double fy = interpolation(y, ifm.height, ofm.height);
      const double fx = interpolation(x, ifm.width, ofm.width);
      // [row][column] of the 2x2 kernel, flattened: (0,0), (0,1), (1,0), (1,1).
      kernels[index++] = {fy * fx * 16, fy * (1 - fx) * 16, (1 - fy) * fx * 16, (1 - fy) * (1 - fx) * 16};
    }
  }
  return kernels;
}

std::vector<Operation> halfPixelBilinear(Subgraph& subgraph, const Operation& op) {
  const Tensor ifm = subgraph.tensor(op.ifm());
  const Tensor ofm = subgraph.tensor(op.ofm());
  const Shape4 ifmShape = shape4Of(subgraph, op.ifm());
  const Shape4 ofmShape = shape4Of(subgraph, op.ofm());
  std::vector<Operation> result;
  Operation copy = makeAvgPoolNop(op, "rb_init_avgpool");
  const TensorId intermediate = addFeatureMap(subgraph, "intermediate_tens", ifm.shape, ifm.type, ofm.quantisation);
  // Vela turns the operator itself into this AvgPool and adds the IFM to its inputs
  // (convert_resizebilinear_to_depthwise_convolutions): it keeps the size constant, which then takes its
  // place in the read-only area.
  copy.inputs = op.inputs;
  copy.outputs = {intermediate};
  setDefaultShapes(subgraph, copy);
  result.push_back(std::move(copy));

  const auto kernels = halfPixelKernels(ifmShape, ofmShape);
  // Tile padding replicates the edge in two directions: top-left, top-right, bottom-left, bottom-right.
  const std::array<ExplicitPadding, 4> directions{ExplicitPadding{1, 1, 0, 0}, ExplicitPadding{1, 0, 0, 1},
                                                  ExplicitPadding{0, 1, 1, 0}, ExplicitPadding{0, 0, 1, 1}};
  const int elementBytes = ofm.type == DataType::Int16 ? 2 : 1;
  Quantisation weightQuantisation;
  weightQuantisation.scale = {1.0 / 16};
  weightQuantisation.zeroPoint = {0};
  for (int row = 0; row < 2; ++row) {
    for (int column = 0; column < 2; ++column) {
      const auto index = static_cast<std::size_t>(row * 2 + column);
      Operation conv = deriveOperation(op, OpType::DepthwiseConv2DBias, "depthwise_conv_" + std::to_string(index));
      Kernel kernel;
      kernel.width = 2;
      kernel.height = 2;
      conv.kernel = kernel;
      conv.padding = Padding::Tile;
      conv.explicitPadding = directions[index];
      conv.rounding = RoundingMode::AwayZero;
      conv.attributes.set("depth_multiplier", std::int64_t{1});
      // Each convolution writes every second row and column, starting at its own corner.
      conv.attributes.set("ofm_stride_multiplier", std::vector<std::int64_t>{1, 2, 2});
      conv.attributes.set("ofm_tile_base_offset",
                          std::int64_t{(row * ofmShape.width + column) * ofmShape.depth * elementBytes});
      std::vector<std::int64_t> values;
      for (const double coefficient : kernels[index]) {
        for (int channel = 0; channel < ifmShape.depth; ++channel) {
          values.push_back(std::llround(coefficient));
        }
      }
      const TensorId weights = addConstant(subgraph, "weights", Shape{1, 2, 2, ifmShape.depth}, ifm.type, values,
                                           weightQuantisation, TensorPurpose::Weights);
      conv.inputs = {intermediate, weights, addZeroBias(subgraph, conv.name, ifmShape.depth, DataType::Int8)};
      conv.outputs = {op.ofm()};
      setDefaultShapes(subgraph, conv);
      conv.writeOffset = Shape4{0, 0, 0, 0};
      conv.writeShape = ifmShape;
      result.push_back(std::move(conv));
    }
  }
  return result;
}

} // namespace

RewriteResult fixupResize(Subgraph& subgraph, const Operation& op) {
  // A resize that already upscales its IFM on the fly is the result of this rewrite.
  if ((op.type != OpType::ResizeBilinear && op.type != OpType::ResizeNearestNeighbor) ||
      op.ifmResampling != Resampling::None) {
    return std::nullopt;
  }
  const Shape4 ifm = op.ifmShapes.empty() ? shape4Of(subgraph, op.ifm()) : op.ifmShapes[0];
  const Shape4 ofm = op.ofmShapes.empty() ? shape4Of(subgraph, op.ofm()) : op.ofmShapes[0];
  if (ifm == ofm) {
    Operation identity = op;
    identity.type = OpType::Identity;
    identity.inputs = {op.ifm()};
    identity.kernel.reset();
    return single(identity);
  }
  if (ifm.height == 1 && ifm.width == 1) {
    return single(resizeToAdd(subgraph, op));
  }
  if (op.type == OpType::ResizeBilinear && op.attributes.getOr<bool>("half_pixel_centers", false)) {
    return halfPixelBilinear(subgraph, op);
  }
  const int factor = upscaleFactor(op, ifm, ofm);
  if (factor != 2 && factor != 4 && factor != 8) {
    Operation cpu = op;
    cpu.placement = Placement::Cpu;
    cpu.placementReason = "resize is only lowered for upscale factors 2, 4 and 8";
    return single(cpu);
  }
  return upscaleAndAveragePool(subgraph, op, factor);
}

RewriteResult fixupResizeVela21(Subgraph& subgraph, const Operation& op) {
  if (op.type != OpType::ResizeBilinear || op.ifmResampling != Resampling::None) {
    return fixupResize(subgraph, op);
  }
  // 2.1.1 knows no half-pixel centres, and upscales by repeated 2x steps (2x - 1 with align_corners),
  // each a 2x2 average pool of the nearest-upscaled IFM writing an int16 intermediate but the last
  // (convert_resizebilinear_to_2x2_pool).
  Operation resize = op;
  resize.attributes.erase("half_pixel_centers");
  const Shape4 ifm = op.ifmShapes.empty() ? shape4Of(subgraph, op.ifm()) : op.ifmShapes[0];
  const Shape4 ofm = op.ofmShapes.empty() ? shape4Of(subgraph, op.ofm()) : op.ofmShapes[0];
  const int modifier = op.attributes.getOr<bool>("align_corners", false) ? 1 : 0;
  if (ifm == ofm || (ifm.height == 1 && ifm.width == 1) ||
      (ifm.height * 2 - modifier == ofm.height && ifm.width * 2 - modifier == ofm.width)) {
    return fixupResize(subgraph, resize);
  }
  std::vector<Operation> steps;
  const Tensor output = subgraph.tensor(op.ofm());
  TensorId previous = op.ifm();
  int height = ifm.height;
  int width = ifm.width;
  for (int count = 0; height < ofm.height && width < ofm.width; ++count) {
    height = height * 2 - modifier;
    width = width * 2 - modifier;
    Operation step = resize;
    if (count > 0) {
      step.name = op.name + "_" + std::to_string(count);
      // Only the first step's IFM is marked as upscaled in 2.1.1 (its Tensor.resampling_mode): the
      // intermediates are new tensors, and its cost model reads them as not upscaled.
      step.attributes.set("resize_later_step", true);
    }
    step.inputs.at(0) = previous;
    if (height == ofm.height && width == ofm.width) {
      step.outputs = op.outputs;
    } else {
      step.outputs = {addFeatureMap(subgraph, output.name + "_" + std::to_string(count),
                                    toShape(ofm.withHW(height, width)), DataType::Int16, output.quantisation)};
    }
    step.ifmShapes.clear();
    step.ofmShapes.clear();
    setDefaultShapes(subgraph, step);
    previous = step.outputs[0];
    steps.push_back(std::move(step));
  }
  return steps;
}

} // namespace ethosu::lowering
