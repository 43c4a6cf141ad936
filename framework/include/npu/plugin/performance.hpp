// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/core/shape.hpp"
#include "npu/ir/data_type.hpp"
#include "npu/ir/tensor.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace npu {

struct BlockConfig;

/// One feature map operand of a cost query: what is read or written, in which layout and memory.
struct FeatureMapQuery {
  Shape4 shape;
  DataType type = DataType::Int8;
  TensorFormat format = TensorFormat::NHWC;
  MemoryArea area = MemoryArea::Sram;
};

/// A question to the cost model about one operation (or one stripe of it). The operation itself
/// (type, kernel, activation, weights) is passed beside the query.
struct CostQuery {
  FeatureMapQuery ifm;                           ///< the primary input as read (after operand swapping)
  std::optional<FeatureMapQuery> ifm2;           ///< second input of binary operations
  FeatureMapQuery ofm;                           ///< the output as written
  bool hasScalesBiases = false;                  ///< the operation streams scales/biases
  MemoryArea constantArea = MemoryArea::Unknown; ///< where weights/scales are read from
  const BlockConfig* block = nullptr;            ///< must be set
  bool reversedOperands = false;                 ///< ifm and ifm2 were swapped relative to the operation inputs
};

struct CycleCost {
  std::int64_t macs = 0;
  double cycles = 0.0;
};

/// Element (not byte) counts of accesses; callers scale by element size.
struct ElementAccess {
  std::array<double, 2> ifmRead{}; ///< ifm, ifm2
  double ofmWrite = 0.0;
  double weightsRefetch = 0.0;
  std::array<double, 2> constantRead{}; ///< weights, scales/biases
};

/// Components of an operation's cycle count, as in Vela's per-layer report.
enum class CycleComponent : std::uint8_t {
  Npu,
  SramAccess,
  DramAccess,
  OnChipFlashAccess,
  OffChipFlashAccess,
  Total,
};
inline constexpr int kCycleComponentCount = 6;
inline constexpr int kTensorPurposeCount = 9;
inline constexpr int kAccessDirectionCount = 2;
enum class AccessDirection : std::uint8_t { Read, Write };

/// Weight traffic of one operation as the schedule arranged it.
struct WeightTransfer {
  bool present = false;
  std::int64_t encodedBytes = 0;               ///< whole encoded stream, weights and scales
  MemoryArea sourceArea = MemoryArea::Unknown; ///< where the stream is stored permanently
  /// Set when weights are copied (DMA) into buffers before use.
  std::optional<MemoryArea> bufferArea;
  bool doubleBuffered = false;
  std::int64_t firstTransferBytes = 0; ///< bytes of the first DMA (first depth slice, all cores)
  double fullTransferCycles = 0.0;     ///< cycles to transfer all weights into the buffers
  /// Scales and biases are also copied into the buffer memory once and read from there (Vela 2.1's
  /// cached bias/scale tensor of IFM-streamed passes).
  bool scalesBuffered = false;
  /// The OFM depth of the slices the stream is encoded in, when a scheduler asks about a stream it
  /// encoded in slices of its own (Vela 2.1 scores candidates with weights encoded 16 deep); 0: the
  /// schedule's block depth when double-buffered, otherwise one slice.
  int sliceDepth = 0;
};

/// When an operation's performance is asked for. Vela 2.1 estimated at three points with different
/// views of a pass, which its cost model reproduces; other cost models may ignore the phase.
enum class EstimatePhase {
  /// A cost query about one candidate (a scheduler's or a tool's), outside the phases below.
  Query,
  /// Asked by a scheduler while it searches, before the operation becomes commands (Vela 2.1 applies
  /// an activation packed into a pass only from then on, and scores weights it has not encoded yet).
  Search,
  /// The estimate of a finished schedule (a report's): Vela 2.1 makes its final estimate after code
  /// generation, which may have changed how a pass views its operands.
  Final,
};

/// A DMA of constant data done for the operation (e.g. a LUT into internal memory).
struct ConstantTransfer {
  MemoryArea from = MemoryArea::Unknown;
  MemoryArea to = MemoryArea::Unknown;
  std::int64_t bytes = 0;
  TensorPurpose purpose = TensorPurpose::Lut;
};

/// Everything the final estimate of one scheduled operation needs beyond the operation itself.
struct PerformanceContext {
  CostQuery query;
  WeightTransfer weights;
  std::optional<ConstantTransfer> lutTransfer;
  /// NPU cycles of the previous operation under which this one's buffered DMA could already run.
  double previousSlackCycles = 0.0;
  /// This operation's own slack for the next operation's DMA (its compute cycles when buffered).
  double ownSlackCycles = 0.0;
  /// Bytes of scales and biases the operation reads, when the asker knows them apart from the weight
  /// stream (e.g. a scheduler scoring the model's unencoded biases before encoding); unset: the cost
  /// model derives them.
  std::optional<std::int64_t> scaleBytes;
  /// The operation starts its region: nothing ran before it under which its DMA could be hidden
  /// (Vela 2.1 adds the DMA of the first NPU pass to its NPU cycles).
  bool startsRegion = false;
  /// Who asks, and when: a cost model may answer as the compiler it reproduces did at that point.
  EstimatePhase phase = EstimatePhase::Query;
};

/// Final per-operation figures.
struct OperationPerformance {
  std::array<double, kCycleComponentCount> cycles{}; ///< indexed by CycleComponent
  std::int64_t macs = 0;
  /// Bytes moved, indexed [MemoryArea][TensorPurpose][AccessDirection].
  std::array<std::array<std::array<double, kAccessDirectionCount>, kTensorPurposeCount>, kMemoryAreaCount> bytes{};

  [[nodiscard]] double cycle(CycleComponent component) const { return cycles[static_cast<std::size_t>(component)]; }
  [[nodiscard]] double& byteCount(MemoryArea area, TensorPurpose purpose, AccessDirection direction) {
    return bytes[static_cast<std::size_t>(area)][static_cast<std::size_t>(purpose)]
                [static_cast<std::size_t>(direction)];
  }
  [[nodiscard]] double byteCount(MemoryArea area, TensorPurpose purpose, AccessDirection direction) const {
    return bytes[static_cast<std::size_t>(area)][static_cast<std::size_t>(purpose)]
                [static_cast<std::size_t>(direction)];
  }
  OperationPerformance& operator+=(const OperationPerformance& other);
};

/// What can bound an operation's cycles from below: the compute array, each memory's bandwidth, and the
/// DMA that streams weights into buffers.
enum class BoundResource : std::uint8_t { Compute, Sram, Dram, OnChipFlash, OffChipFlash, WeightStreaming };
inline constexpr int kBoundResourceCount = 6;
/// The resource's name in reports ("compute", "sram", "dram", "on_chip_flash", "off_chip_flash",
/// "weight_streaming").
[[nodiscard]] const char* nameOf(BoundResource resource);
/// The bandwidth resource of a memory; nullopt for an area the bound does not count.
[[nodiscard]] NPU_API std::optional<BoundResource> boundResourceOf(MemoryArea area);

/// A lower bound on an operation's cycles: no schedule of it, on this accelerator and memory homing,
/// takes fewer. Each resource's least busy time at its peak rate; the operation's bound is the largest.
struct OperationBound {
  /// Indexed by BoundResource; 0 for a resource the operation does not use.
  std::array<double, kBoundResourceCount> cycles{};
  /// Of cycles[WeightStreaming], what may run before the operation starts, under the previous one (weights
  /// prefetched into a buffer). Not in the operation's own bound; a network's bound counts it (see
  /// NetworkBound).
  double cyclesAhead = 0.0;

  [[nodiscard]] double resource(BoundResource which) const { return cycles[static_cast<std::size_t>(which)]; }
  /// Least cycles of the resource within the operation itself.
  [[nodiscard]] double ownCycles(BoundResource which) const;
  /// The bound: the largest own demand over all resources.
  [[nodiscard]] double total() const;
  /// The resource with the largest own demand (the first one on ties, in BoundResource order).
  [[nodiscard]] BoundResource boundBy() const;
};

} // namespace npu
