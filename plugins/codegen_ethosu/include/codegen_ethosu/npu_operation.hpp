// SPDX-License-Identifier: Apache-2.0
#pragma once

// The NPU operations a register command stream is generated from: one hardware operation each (a
// stripe of a layer, or a DMA), with every address already resolved to (region, offset). This is the
// boundary between the high-level command stream (which knows the graph, the schedule and the
// allocation) and the register-level generator (which knows only the hardware). It carries what Vela
// 3.10's api.py NpuOperation classes carry, in our own types.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ethosu::codegen {

/// Regions a base address is relative to (Vela's BasePointerIndex); the driver maps each to memory.
namespace region {
inline constexpr int kReadOnly = 0;    ///< the flash tensor: weights, scales, LUTs, constant feature maps
inline constexpr int kScratch = 1;     ///< the tensor arena
inline constexpr int kScratchFast = 2; ///< the fast scratch area (only when it is a separate memory)
/// DMA destination "region" of a LUT: the accelerator's internal SHRAM (Vela's BASE_PTR_INDEX_MEM2MEM).
inline constexpr int kMemoryToMemory = (1 << 8) | 3;
} // namespace region

enum class NpuDataType : std::uint8_t { Uint8, Int8, Uint16, Int16, Int32 };
[[nodiscard]] constexpr int bitsOf(NpuDataType type) {
  switch (type) {
  case NpuDataType::Uint8:
  case NpuDataType::Int8: return 8;
  case NpuDataType::Uint16:
  case NpuDataType::Int16: return 16;
  case NpuDataType::Int32: return 32;
  }
  return 8;
}
[[nodiscard]] constexpr bool isSigned(NpuDataType type) {
  return type == NpuDataType::Int8 || type == NpuDataType::Int16 || type == NpuDataType::Int32;
}

enum class NpuLayout : std::uint8_t { NHWC, NHCWB16 };

struct AddressRange {
  int region = 0;
  std::int64_t address = 0; ///< offset from the region's base
  std::int64_t length = 0;  ///< bytes
  friend bool operator==(const AddressRange&, const AddressRange&) = default;
};

/// Height/width/depth of (part of) a feature map.
struct Shape3 {
  int height = 0;
  int width = 0;
  int depth = 0;
  friend bool operator==(const Shape3&, const Shape3&) = default;
};

/// The up to four tiles a feature map is stored in (a rolling buffer wraps around in height). With one
/// tile: height0 = the shape's height, height1 = height0, width0 = the width, addresses[1..3] = 0.
struct TileBox {
  int height0 = 0;
  int height1 = 0;
  int width0 = 0;
  std::array<std::int64_t, 4> addresses{};
  friend bool operator==(const TileBox&, const TileBox&) = default;
};

struct Quantisation {
  std::optional<double> scale; ///< nullopt: unscaled
  std::int64_t zeroPoint = 0;
  friend bool operator==(const Quantisation&, const Quantisation&) = default;
};

struct FeatureMap {
  NpuDataType type = NpuDataType::Uint8;
  int region = 0;
  Shape3 shape;  ///< the part of the feature map the operation reads or writes
  TileBox tiles;
  std::optional<Quantisation> quantisation;
  NpuLayout layout = NpuLayout::NHWC;
  /// Byte strides between rows (height), columns (width) and 16-channel bricks or channels (depth).
  Shape3 strides;
  std::string name; ///< tensor name, for listings and error messages
  friend bool operator==(const FeatureMap&, const FeatureMap&) = default;
};

struct NpuKernel {
  int width = 1;
  int height = 1;
  int strideX = 1;
  int strideY = 1;
  int dilationX = 1;
  int dilationY = 1;
  friend bool operator==(const NpuKernel&, const NpuKernel&) = default;
};

struct NpuPadding {
  int top = 0;
  int left = 0;
  int bottom = 0;
  int right = 0;
  friend bool operator==(const NpuPadding&, const NpuPadding&) = default;
};

enum class ActivationFunction : std::uint8_t { NoneOrRelu, Tanh, Sigmoid, TableLookup };

struct NpuActivation {
  ActivationFunction function = ActivationFunction::NoneOrRelu;
  std::optional<double> min; ///< in real units; nullopt: the type's range
  std::optional<double> max;
  int lookupTableIndex = 0; ///< SHRAM LUT slot, 0..7, for TableLookup
  friend bool operator==(const NpuActivation&, const NpuActivation&) = default;
};

enum class NpuRounding : std::uint8_t { TFLite, Truncate, Natural };
enum class NpuResampling : std::uint8_t { None, Nearest, Transpose };
enum class BlockTraversal : std::uint8_t { DepthFirst, PartKernelFirst };
enum class ElementwiseFunction : std::uint8_t { Add, Sub, Mul, Abs, Min, Max, LeakyRelu, Clz, Shr, Shl };
enum class PoolingFunction : std::uint8_t { Max, Average, ReduceSum };

/// Scaling given explicitly instead of derived from the quantisation (Vela's ExplicitScaling).
struct ExplicitScaling {
  bool perChannel = false;
  std::vector<std::int64_t> shift;
  std::vector<std::int64_t> multiplier;
  friend bool operator==(const ExplicitScaling&, const ExplicitScaling&) = default;
};

/// A (multiplier, shift) pair given for an elementwise operation's OFM scale (Vela's tuple rescale).
struct ScaleShift {
  std::int64_t scale = 0;
  std::int64_t shift = 0;
  friend bool operator==(const ScaleShift&, const ScaleShift&) = default;
};

/// Vela's NpuPoolingOperation/NpuElementWiseOperation.rescale: nothing, a float factor (resize
/// operations), a (scale, shift) pair (elementwise) or explicit scaling (pooling).
using Rescale = std::variant<std::monostate, double, ScaleShift, ExplicitScaling>;

/// A convolution, depthwise convolution, pooling or elementwise operation over one OFM box.
struct BlockOperation {
  enum class Kind : std::uint8_t { Conv2D, DepthwiseConv2D, Pooling, Elementwise };
  Kind kind = Kind::Conv2D;
  std::string name; ///< the layer's name, for listings and error messages

  FeatureMap ifm;
  std::optional<FeatureMap> ifm2;    ///< binary elementwise operations
  std::optional<double> ifm2Scalar;  ///< real (unquantised) value when IFM2 is a scalar
  FeatureMap ofm;
  std::optional<NpuKernel> kernel;   ///< absent for elementwise operations
  std::vector<AddressRange> weights; ///< one per core in use; empty without weights
  std::vector<AddressRange> biases;  ///< scales and biases, one per core in use
  std::optional<NpuPadding> padding;
  std::optional<NpuActivation> activation;
  Shape3 blockConfig;
  NpuRounding rounding = NpuRounding::TFLite;
  bool fusedQuantize = false; ///< fused with a QUANTIZE (affects scaling)
  NpuResampling ifmUpscale = NpuResampling::None;

  BlockTraversal blockTraversal = BlockTraversal::PartKernelFirst; ///< Conv2D only
  PoolingFunction pooling = PoolingFunction::Max;                  ///< Pooling only
  ElementwiseFunction elementwise = ElementwiseFunction::Add;      ///< Elementwise only
  bool reversedOperands = false;                                   ///< Elementwise only
  Rescale rescale;                                                 ///< Pooling and Elementwise

  friend bool operator==(const BlockOperation&, const BlockOperation&) = default;
};

struct DmaOperation {
  std::string name; ///< destination tensor name, for listings
  AddressRange source;
  AddressRange destination;
  int channel = 0; ///< 0: the user channel
  int mode = 0;    ///< 0: external
  friend bool operator==(const DmaOperation&, const DmaOperation&) = default;
};

using NpuOperation = std::variant<BlockOperation, DmaOperation>;

} // namespace ethosu::codegen
