// SPDX-License-Identifier: Apache-2.0
#pragma once

// The high-level command stream of one NPU region: the stripes each operation runs (which OFM box it
// writes, which IFM boxes it reads, with what padding) and the DMAs that feed them (weight depth slices
// into weight buffers, lookup tables into SHRAM, feature-map copies), in execution order. Cascaded
// operations are interleaved: a consumer's stripe is preceded by just enough of its producer's stripes.
// Behaviour of Vela 3.10's high_level_command_stream_generator.py.

#include "stream/box.hpp"

#include "ethosu/architecture/npu_block_type.hpp"

#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace ethosu::codegen {

/// What the stream generator needs to know about one scheduled operation.
struct OperationGeometry {
  NpuBlockType blockType = NpuBlockType::Default;
  npu::Shape4 ifmShape;                ///< the operation's 4D view of its (primary) IFM
  std::optional<npu::Shape4> ifm2Shape;
  npu::Shape4 ofmShape;
  int strideX = 1;
  int strideY = 1;
  std::optional<std::array<int, 4>> skirt;
  int dilatedKernelHeight = 1;
  int upscaling = 1;
  std::optional<npu::Shape4> writeOffset; ///< concatenation: where the OFM box goes
  std::optional<npu::Shape4> writeShape;
  std::array<std::optional<npu::Shape4>, 2> readOffsets; ///< split/slice reads of IFM and IFM2
  std::array<std::optional<npu::Shape4>, 2> readShapes;
  npu::Shape4 ofmStripe;           ///< the OFM stripe the schedule chose
  std::vector<int> depthSlices;    ///< OFM depth boundaries of the weight stream: {0, ..., depth}
  bool hasWeights = false;
  int weightBuffers = 0;           ///< 0: weights read in place; 1 or 2: copied into buffers by DMA
  bool hasLookupTable = false;
  bool memoryCopy = false;         ///< a DMA of the whole IFM to the OFM instead of a stripe
  bool binaryElementwise = false;
  int cascade = 0;                 ///< 0: not cascaded
  /// Inside a cascade (and not its first operation): the position of the operation producing the IFM.
  int producer = -1;
  /// Rows of the IFM the cascade's rolling buffer holds (0: the IFM is stored whole).
  int rollingBufferRows = 0;
  std::string name; ///< for error messages
};

struct StripeCommand {
  int operation = 0; ///< position in the region's schedule
  Box ifmBox;
  std::optional<Box> ifm2Box;
  Box ofmBox;
  std::optional<Box> weightBox; ///< the OFM depth range of the weights this stripe uses
  int weightBuffer = -1;        ///< which weight buffer it reads; -1: the weights in place
  bool firstStripeInHeight = true;
  bool lastStripeInHeight = true;
  int padTop = 0;
  int padBottom = 0;
};

struct DmaCommand {
  enum class Source : std::uint8_t { Weights, LookupTable, FeatureMap };
  Source source = Source::Weights;
  int operation = 0;
  Box box;              ///< weights: the OFM depth range copied; otherwise the whole tensor
  int weightBuffer = 0; ///< weights: the destination buffer
};

using HighLevelCommand = std::variant<StripeCommand, DmaCommand>;

/// Position of the first and last operation of a cascade.
struct CascadeSpan {
  int first = 0;
  int last = 0;
};

/// The commands of a region whose operations are `operations` (in execution order) with cascades
/// `cascades` (by id - 1). Memory copies whose source and destination coincide produce nothing.
/// `copyIsNeeded(position)` tells whether a memory copy must move data.
[[nodiscard]] std::vector<HighLevelCommand> generateHighLevelStream(std::span<const OperationGeometry> operations,
                                                                    std::span<const CascadeSpan> cascades,
                                                                    const std::vector<bool>& copyIsNeeded);

} // namespace ethosu::codegen
