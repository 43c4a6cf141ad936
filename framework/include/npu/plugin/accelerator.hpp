// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/core/shape.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/performance.hpp"
#include "npu/plugin/plugin.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npu {

// ---------------------------------------------------------------------------------------------------
// What an accelerator is: identity, compute resources and the memory system it is attached to.
// ---------------------------------------------------------------------------------------------------

struct AcceleratorInfo {
  std::string variant;     ///< e.g. "ethos-u55-128"
  std::string displayName; ///< e.g. "Ethos_U55_128" (Vela's spelling, used in report file names)
  int macsPerCycle = 0;    ///< per core
  int cores = 1;
  Shape4 ofmMicroBlock{1, 1, 1, 1}; ///< smallest unit of output the hardware produces
  Shape4 ifmMicroBlock{1, 1, 1, 1};
  /// OFM depth granule at which a weight stream may be cut into depth slices for buffering
  /// (Vela's ArchitectureFeatures.OFMSplitDepth).
  int depthSliceQuantum = 16;
};

/// Bandwidth and latency of one memory as seen from the accelerator.
struct MemoryProperties {
  bool present = false;
  double clockScale = 1.0;             ///< memory clock relative to the core clock
  double bandwidthBytesPerCycle = 0.0; ///< in core cycles (already scaled)
  int readLatency = 0;                 ///< core cycles
  int writeLatency = 0;
  int burstLength = 1; ///< bytes
};

/// The system around the accelerator: clocks, memories and where each kind of data lives.
struct MemorySystem {
  std::string systemName; ///< e.g. "Ethos_U55_High_End_Embedded"
  std::string memoryMode; ///< e.g. "Shared_Sram"
  double coreClockHz = 0.0;
  std::array<MemoryProperties, kMemoryAreaCount> areas{}; ///< indexed by MemoryArea
  MemoryArea constantArea = MemoryArea::Unknown;          ///< permanent storage of weights and constants
  MemoryArea featureMapArea = MemoryArea::Unknown;        ///< where feature maps live by default
  MemoryArea fastStorageArea = MemoryArea::Unknown;       ///< staging memory for buffering (the "arena cache")
  std::int64_t arenaCacheSize = 0;                        ///< bytes of fast storage the schedule may use
  /// A schedule that needs more fast storage than arenaCacheSize: a compile error (the default), or,
  /// as Vela 3.10 does, the schedule anyway with a warning in every report.
  bool warnOnFastStorageOverflow = false;
  std::int64_t allocationAlignment = 16; ///< bytes; every buffer address is a multiple

  [[nodiscard]] const MemoryProperties& area(MemoryArea memory) const {
    return areas[static_cast<std::size_t>(memory)];
  }
  /// True when feature maps live outside fast storage and may be cached in it (U65 Dedicated_Sram).
  [[nodiscard]] bool fastStorageIsSeparate() const { return featureMapArea != fastStorageArea; }
};

// ---------------------------------------------------------------------------------------------------
// Sub-interfaces. Every function is const and thread-safe and keeps no state between calls: schedulers
// call them from many TBB tasks at once and rely on identical answers for identical questions.
// ---------------------------------------------------------------------------------------------------

/// Whether the accelerator can run an operation and, if not, which constraint failed.
struct SupportVerdict {
  bool supported = true;
  std::string constraint; ///< short name of the failed constraint, e.g. "stride_range"
  std::string reason;     ///< sentence for users, e.g. "Stride values for both width and height must be..."
};

/// One rule an operation must meet to run on the accelerator, as a supported-operators report lists it.
struct SupportConstraint {
  std::string id;          ///< the short name SupportVerdict::constraint uses, e.g. "stride_range"
  std::string description; ///< the rule in words
};

/// An operation type the accelerator can run and the rules it must meet, in the order they are checked.
struct SupportedOperatorType {
  std::string operatorType; ///< the IR operation type's name, e.g. "Conv2DBias"
  std::vector<SupportConstraint> constraints;
};

class NPU_API OperatorSupport {
public:
  virtual ~OperatorSupport() = default;
  /// Checks one operation of a (lowered or input) subgraph.
  [[nodiscard]] virtual SupportVerdict check(const Subgraph& subgraph, const Operation& op) const = 0;
  /// The tables check() works from, for a supported-operators report; empty when the plugin does not
  /// describe its checks.
  [[nodiscard]] virtual std::vector<SupportedOperatorType> describe() const { return {}; }
};

/// Storage rules for feature maps.
class NPU_API TensorLayout {
public:
  virtual ~TensorLayout() = default;
  [[nodiscard]] virtual bool supportsFormat(TensorFormat format) const = 0;
  /// Quantum each dimension is rounded up to when stored, e.g. {1, 1, 1, 16} for NHCWB16.
  [[nodiscard]] virtual Shape4 storageRounding(TensorFormat format) const = 0;
  /// Bytes a feature map of `shape` takes in `format`, rounded to the allocation alignment.
  [[nodiscard]] virtual std::int64_t storageBytes(const Shape4& shape, DataType type, TensorFormat format) const = 0;
};

/// The shapes an operation (or a stripe of it) works on.
struct OperationShapes {
  Shape4 ifm;
  std::optional<Shape4> ifm2;
  Shape4 ofm;
};

/// How the accelerator processes an operation: the unit of work (block) and its internal settings.
struct BlockConfig {
  Shape4 ofmBlock{1, 1, 1, 1};
  Shape4 ifmBlock{1, 1, 1, 1};
  bool partKernelFirst = false; ///< weight traversal: part-kernel-first instead of depth-first
  int accumulatorBits = 32;
  /// Accelerator-private detail (e.g. internal buffer layout); opaque to schedulers, printed in reports.
  std::array<std::int32_t, 6> detail{};

  friend bool operator==(const BlockConfig&, const BlockConfig&) = default;
};

class NPU_API BlockConfigSelector {
public:
  virtual ~BlockConfigSelector() = default;
  /// The block config the accelerator would choose for these shapes; nullopt when none fits.
  [[nodiscard]] virtual std::optional<BlockConfig> choose(const Subgraph& subgraph, const Operation& op,
                                                          const OperationShapes& shapes) const = 0;
  /// Every valid block config for these shapes, in a deterministic order (for exhaustive searches).
  [[nodiscard]] virtual std::vector<BlockConfig> candidates(const Subgraph& subgraph, const Operation& op,
                                                            const OperationShapes& shapes) const = 0;
  /// IFM area (height, width) needed to produce `ofmArea` of the output: kernel, stride, dilation,
  /// padding and upscaling taken into account.
  [[nodiscard]] virtual Shape4 requiredIfmArea(const Subgraph& subgraph, const Operation& op,
                                               const Shape4& ofmArea) const = 0;
};

/// One OFM depth slice of an encoded weight stream.
struct EncodedWeightSlice {
  int depthStart = 0;
  int depthEnd = 0;
  std::int64_t offset = 0;                  ///< byte offset of the slice in the whole stream
  std::int64_t bytes = 0;                   ///< bytes of the slice (all cores, weights and scales)
  std::vector<std::int64_t> coreBytes;      ///< bytes per core, each already padded as streamed
  std::vector<std::int64_t> coreScaleBytes; ///< of which scale/bias bytes, per core
};

/// Weights of one operation encoded for the accelerator with a given OFM depth slicing.
struct EncodedWeights {
  std::int64_t totalBytes = 0;    ///< length of the whole stream (what is stored in memory)
  std::int64_t scaleBytes = 0;    ///< of which scales and biases
  std::int64_t originalBytes = 0; ///< the unencoded weights
  std::vector<EncodedWeightSlice> slices;
  std::vector<std::uint8_t> stream; ///< the encoded bytes, when requested
};

class NPU_API WeightEncoder {
public:
  virtual ~WeightEncoder() = default;
  /// Encodes the weights (and biases/scales) of `op` for `block` and the depth slicing given as
  /// boundaries, e.g. {0, 16, 32}. Operations without weights give an empty result.
  [[nodiscard]] virtual EncodedWeights encode(const Subgraph& subgraph, const Operation& op, const BlockConfig& block,
                                              std::span<const int> depthSlices, bool keepStream) const = 0;
};

/// Performance of operations: see performance.hpp for the query and result types.
class NPU_API CostModel {
public:
  virtual ~CostModel() = default;
  /// Compute cycles and MACs of one operation (or stripe) with the given shapes and block config.
  [[nodiscard]] virtual CycleCost cycles(const Subgraph& subgraph, const Operation& op,
                                         const CostQuery& query) const = 0;
  /// How many elements the operation reads and writes for the query.
  [[nodiscard]] virtual ElementAccess elementAccess(const Subgraph& subgraph, const Operation& op,
                                                    const CostQuery& query) const = 0;
  /// Cycles to copy `bytes` from one memory to another by DMA.
  [[nodiscard]] virtual double transferCycles(MemoryArea from, MemoryArea to, std::int64_t bytes) const = 0;
  /// Full per-operation estimate for the final report: cycles per memory, bandwidth per memory and
  /// purpose, MACs, given the memory homing and weight buffering the schedule chose.
  [[nodiscard]] virtual OperationPerformance estimate(const Subgraph& subgraph, const Operation& op,
                                                      const PerformanceContext& context) const = 0;
  /// Memory traffic of an operation the CPU runs, for a model that counts it in the network's totals
  /// (Vela 2.1 adds the memory-access cycles of its CPU passes; Vela 3.10 counts none). Feature maps are
  /// in the memory system's feature-map area, constants in its constant area. Default: not counted.
  [[nodiscard]] virtual std::optional<OperationPerformance> cpuOperation(const Subgraph& /*subgraph*/,
                                                                         const Operation& /*op*/) const {
    return std::nullopt;
  }
  /// A lower bound on the cycles of one scheduled operation, asked with the same context as estimate():
  /// per resource, the least cycles at the hardware's peak rates (see OperationBound). It must never
  /// exceed estimate()'s total for the same question, and a network's bound (NetworkBound) must not
  /// exceed the sum of its operations' estimates. Default: nullopt, and the framework derives one from
  /// the accelerator's description alone (genericOperationBound).
  [[nodiscard]] virtual std::optional<OperationBound> bound(const Subgraph& /*subgraph*/, const Operation& /*op*/,
                                                            const PerformanceContext& /*context*/) const {
    return std::nullopt;
  }
};

// ---------------------------------------------------------------------------------------------------
// The accelerator itself and the plugin that creates it.
// ---------------------------------------------------------------------------------------------------

class NPU_API Accelerator {
public:
  virtual ~Accelerator() = default;
  [[nodiscard]] virtual const AcceleratorInfo& info() const = 0;
  [[nodiscard]] virtual const MemorySystem& memory() const = 0;
  [[nodiscard]] virtual const OperatorSupport& support() const = 0;
  [[nodiscard]] virtual const TensorLayout& layout() const = 0;
  [[nodiscard]] virtual const BlockConfigSelector& blockConfigs() const = 0;
  [[nodiscard]] virtual const WeightEncoder& weights() const = 0;
  [[nodiscard]] virtual const CostModel& costModel() const = 0;
};

/// The bound derived from AcceleratorInfo and MemorySystem alone, for cost models that give none:
/// compute is the operation's MACs (or, without MACs, its output elements times its kernel area) at
/// macsPerCycle * cores; each memory's demand is the feature-map bytes the operation must read (the
/// input area its output needs: all of it unless strides skip some, scalars excepted) and write, plus the
/// whole encoded weight stream read once from its permanent home, at the memory's bandwidth.
[[nodiscard]] NPU_API OperationBound genericOperationBound(const AcceleratorInfo& info, const MemorySystem& memory,
                                                           const Subgraph& subgraph, const Operation& op,
                                                           const PerformanceContext& context);
/// The accelerator's cost model's bound, or the generic one when it gives none.
[[nodiscard]] NPU_API OperationBound operationBound(const Accelerator& accelerator, const Subgraph& subgraph,
                                                    const Operation& op, const PerformanceContext& context);

/// The `accelerator:` section of a pipeline, resolved.
struct AcceleratorConfig {
  std::string variant;    ///< "ethos-u55-128"
  std::string system;     ///< system config name or path ("" = the plugin's default)
  std::string memoryMode; ///< memory mode name or path ("" = the plugin's default)
  OptionValues options;   ///< the plugin's own options (e.g. cost_model, arena_cache_size)
  /// Where to look for named system configs and memory modes (configs/systems, configs/memory_modes).
  std::vector<std::filesystem::path> configSearchPath;
  SourceLocation location; ///< of the accelerator section, for errors
  /// Where each setting was written (config, system, memory_mode and each option, in the pipeline file
  /// or by --set), so an error blames the setting the user wrote.
  std::map<std::string, SourceLocation, std::less<>> settingLocations;
  /// Where `setting` was written, or the section when it was not.
  [[nodiscard]] SourceLocation locationOf(std::string_view setting) const {
    const auto found = settingLocations.find(setting);
    return found == settingLocations.end() ? location : found->second;
  }
};

class NPU_API AcceleratorPlugin : public Plugin {
public:
  /// The variants this plugin models, e.g. {"ethos-u55-32", "ethos-u55-64", ...}.
  [[nodiscard]] virtual std::vector<std::string> variants() const = 0;
  /// Builds an accelerator for a variant and system; Config errors name the bad setting.
  [[nodiscard]] virtual std::unique_ptr<Accelerator> create(const AcceleratorConfig& config) const = 0;
};

} // namespace npu
