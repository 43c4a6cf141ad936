// SPDX-License-Identifier: Apache-2.0
#pragma once

// In-process fakes of every plugin kind, simple but real, for testing the framework's compile driver,
// evaluation and reports without any accelerator knowledge.
#include "npu/plugin/accelerator.hpp"
#include "npu/plugin/allocator.hpp"
#include "npu/plugin/frontend.hpp"
#include "npu/plugin/scheduler.hpp"

#include <map>

namespace npu::test {

/// A chain input -> ADD(+const) -> CUSTOM -> ADD -> ADD -> output on [1, 8, 8, 16] int8 maps: the custom
/// operator splits the chain into two NPU regions.
Graph makeChainGraph();

class FakeFrontend final : public FrontendPlugin {
public:
  std::vector<std::string> fileExtensions() const override { return {".fake"}; }
  Graph read(const std::filesystem::path& file, const OptionValues&) const override;
};

/// One MAC per output element, one cycle per output element, SRAM fast storage of a given size.
class FakeAccelerator final : public Accelerator,
                              OperatorSupport,
                              TensorLayout,
                              BlockConfigSelector,
                              WeightEncoder,
                              CostModel {
public:
  explicit FakeAccelerator(std::int64_t fastStorageBytes);
  const AcceleratorInfo& info() const override { return info_; }
  const MemorySystem& memory() const override { return memory_; }
  const OperatorSupport& support() const override { return *this; }
  const TensorLayout& layout() const override { return *this; }
  const BlockConfigSelector& blockConfigs() const override { return *this; }
  const WeightEncoder& weights() const override { return *this; }
  const CostModel& costModel() const override { return *this; }

  SupportVerdict check(const Subgraph&, const Operation& op) const override;
  bool supportsFormat(TensorFormat format) const override { return format == TensorFormat::NHWC; }
  Shape4 storageRounding(TensorFormat) const override { return {1, 1, 1, 1}; }
  std::int64_t storageBytes(const Shape4& shape, DataType type, TensorFormat) const override;
  std::optional<BlockConfig> choose(const Subgraph&, const Operation&, const OperationShapes& shapes) const override;
  std::vector<BlockConfig> candidates(const Subgraph& s, const Operation& op,
                                      const OperationShapes& shapes) const override;
  Shape4 requiredIfmArea(const Subgraph&, const Operation&, const Shape4& ofmArea) const override { return ofmArea; }
  /// "Encodes" weights uncompressed: each depth slice holds its share of the weights plus 4-byte biases.
  EncodedWeights encode(const Subgraph& subgraph, const Operation& op, const BlockConfig&,
                        std::span<const int> depthSlices, bool) const override;
  CycleCost cycles(const Subgraph&, const Operation&, const CostQuery& query) const override;
  ElementAccess elementAccess(const Subgraph&, const Operation&, const CostQuery& query) const override;
  double transferCycles(MemoryArea, MemoryArea, std::int64_t bytes) const override {
    return static_cast<double>(bytes);
  }
  OperationPerformance estimate(const Subgraph& s, const Operation& op, const PerformanceContext& c) const override;
  /// Its own rates: one output element per cycle (faster than its one MAC per cycle for kernels), and
  /// the elements it counts as bytes at 4 per cycle.
  std::optional<OperationBound> bound(const Subgraph&, const Operation&, const PerformanceContext& c) const override;

private:
  AcceleratorInfo info_;
  MemorySystem memory_;
};

/// The fake accelerator behind a cost model of a test's own: every call forwards to a FakeAccelerator
/// except what a subclass overrides; its lower bound is the contract's default (no bound of its own).
class ForwardingAccelerator : public Accelerator, public CostModel {
public:
  const AcceleratorInfo& info() const override { return fake_.info(); }
  const MemorySystem& memory() const override { return fake_.memory(); }
  const OperatorSupport& support() const override { return fake_.support(); }
  const TensorLayout& layout() const override { return fake_.layout(); }
  const BlockConfigSelector& blockConfigs() const override { return fake_.blockConfigs(); }
  const WeightEncoder& weights() const override { return fake_.weights(); }
  const CostModel& costModel() const override { return *this; }
  CycleCost cycles(const Subgraph& s, const Operation& op, const CostQuery& q) const override {
    return fake_.costModel().cycles(s, op, q);
  }
  ElementAccess elementAccess(const Subgraph& s, const Operation& op, const CostQuery& q) const override {
    return fake_.costModel().elementAccess(s, op, q);
  }
  double transferCycles(MemoryArea from, MemoryArea to, std::int64_t bytes) const override {
    return fake_.costModel().transferCycles(from, to, bytes);
  }
  OperationPerformance estimate(const Subgraph& s, const Operation& op, const PerformanceContext& c) const override {
    return fake_.costModel().estimate(s, op, c);
  }

private:
  FakeAccelerator fake_{1 << 20};
};

class FakeAcceleratorPlugin final : public AcceleratorPlugin {
public:
  std::vector<std::string> variants() const override { return {"fake-1"}; }
  std::vector<OptionSpec> options() const override {
    return {{"fast_storage", OptionType::Bytes, "1MiB", "fast storage size", {}, false}};
  }
  std::unique_ptr<Accelerator> create(const AcceleratorConfig& config) const override {
    return std::make_unique<FakeAccelerator>(config.options.getInt("fast_storage"));
  }
};

/// Every operation whole, in order; every feature map lives in fast storage from its producer to
/// its last consumer in the region (region inputs from time 0, outputs to the end).
class FakeScheduler final : public SchedulerPlugin {
public:
  Schedule schedule(const ScheduleRequest& request) const override;
};

/// Each range at the next free aligned address: no reuse at all.
class FakeLinearAllocator final : public AllocatorPlugin {
public:
  std::vector<std::int64_t> allocate(std::span<const LiveRange> ranges, const OptionValues&) const override;
};

} // namespace npu::test
