// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test support for schedulers: a small fake accelerator whose answers are easy to work out by hand (a
// fake cost model, block configs, weight encoder and memory system), and a builder for hand-made
// graphs of NPU operations.

#include "npu/ir/graph.hpp"
#include "npu/plugin/accelerator.hpp"
#include "npu/schedule/schedule.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npu::test {

struct FakeSystem {
  std::int64_t fastStorageBytes = std::int64_t{1} << 20;
  /// Feature maps in DRAM with the SRAM as a separate fast storage (like Vela's Dedicated_Sram);
  /// otherwise everything in SRAM (Shared_Sram).
  bool separateFastStorage = false;
  MemoryArea constantArea = MemoryArea::OffChipFlash;
};

/// Block: up to 8x8x16 of the OFM stripe. Cycles: one per 128 MACs plus one per 16 OFM elements.
/// Weights: the weight tensor's bytes in proportion to each depth slice, plus 10 bytes of scale and
/// bias per channel, each slice padded to 16. DMA: bytes divided by the slower memory's bandwidth.
class FakeSchedulingAccelerator final : public Accelerator,
                                        OperatorSupport,
                                        TensorLayout,
                                        BlockConfigSelector,
                                        WeightEncoder,
                                        CostModel {
public:
  explicit FakeSchedulingAccelerator(const FakeSystem& system = {});

  const AcceleratorInfo& info() const override { return info_; }
  const MemorySystem& memory() const override { return memory_; }
  const OperatorSupport& support() const override { return *this; }
  const TensorLayout& layout() const override { return *this; }
  const BlockConfigSelector& blockConfigs() const override { return *this; }
  const WeightEncoder& weights() const override { return *this; }
  const CostModel& costModel() const override { return *this; }

  SupportVerdict check(const Subgraph&, const Operation&) const override { return {}; }
  bool supportsFormat(TensorFormat) const override { return true; }
  Shape4 storageRounding(TensorFormat format) const override;
  std::int64_t storageBytes(const Shape4& shape, DataType type, TensorFormat format) const override;
  std::optional<BlockConfig> choose(const Subgraph&, const Operation&, const OperationShapes& shapes) const override;
  std::vector<BlockConfig> candidates(const Subgraph& s, const Operation& op,
                                      const OperationShapes& shapes) const override;
  Shape4 requiredIfmArea(const Subgraph& subgraph, const Operation& op, const Shape4& ofmArea) const override;
  EncodedWeights encode(const Subgraph& subgraph, const Operation& op, const BlockConfig& block,
                        std::span<const int> depthSlices, bool keepStream) const override;
  CycleCost cycles(const Subgraph& subgraph, const Operation& op, const CostQuery& query) const override;
  ElementAccess elementAccess(const Subgraph& subgraph, const Operation& op, const CostQuery& query) const override;
  double transferCycles(MemoryArea from, MemoryArea to, std::int64_t bytes) const override;
  OperationPerformance estimate(const Subgraph& subgraph, const Operation& op,
                                const PerformanceContext& context) const override;

private:
  AcceleratorInfo info_;
  MemorySystem memory_;
};

/// Builds a subgraph of NPU operations on int8 feature maps; every created feature map may use the
/// brick format (as the lowering marks it) except the graph's inputs and outputs.
class GraphBuilder {
public:
  explicit GraphBuilder(std::string name = "main");

  TensorId input(Shape4 shape, const std::string& name = "input");
  /// A convolution with a kxk kernel, "same" padding and the given stride.
  TensorId conv(TensorId ifm, int depth, int kernel = 3, int stride = 1, const std::string& name = "");
  TensorId depthwise(TensorId ifm, int kernel = 3, int stride = 1, const std::string& name = "");
  TensorId maxPool(TensorId ifm, int kernel = 2, int stride = 2, const std::string& name = "");
  /// A copy of a feature map (a bypassed RESHAPE that must be materialised).
  TensorId memcpy(TensorId ifm, const std::string& name = "");
  /// Elementwise addition of two feature maps.
  TensorId add(TensorId a, TensorId b, const std::string& name = "");
  /// Elementwise addition of a feature map and a per-channel constant (the constant as `constantFirst`
  /// says: first or second operand).
  TensorId addConstant(TensorId ifm, bool constantFirst = false, const std::string& name = "");
  TensorId fullyConnected(TensorId ifm, int outputs, const std::string& name = "");
  void output(TensorId tensor);

  [[nodiscard]] const Subgraph& subgraph() const { return graph_.subgraphs.front(); }
  [[nodiscard]] Subgraph& subgraph() { return graph_.subgraphs.front(); }
  /// The graph (every operation placed on the NPU).
  [[nodiscard]] Graph build() const { return graph_; }
  [[nodiscard]] Shape4 shapeOf(TensorId tensor) const;

private:
  TensorId featureMap(Shape4 shape, const std::string& name);
  TensorId constant(Shape shape, const std::string& name, TensorPurpose purpose, DataType type);
  OperationId addOperation(Operation op);
  /// Adds an NPU operation of `type` named `name` writing a new feature map of `ofmShape`, which it returns.
  TensorId append(OpType type, const char* sourceType, const std::string& name, std::vector<TensorId> inputs,
                  Shape4 ofmShape, std::optional<Kernel> kernel = std::nullopt, Padding padding = Padding::Valid);
  std::string nextName(const std::string& prefix, const std::string& name);

  Graph graph_;
  int counter_ = 0;
};

/// The NPU regions of a graph (the framework's findNpuRegions).
[[nodiscard]] std::vector<NpuRegion> npuRegions(const Graph& graph);

} // namespace npu::test
