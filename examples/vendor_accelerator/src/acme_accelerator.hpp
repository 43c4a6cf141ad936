// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "acme_architecture.hpp"

#include <npu/plugin/accelerator.hpp>

namespace acme {

/// Which operations the Acme NPU runs: int8 convolutions, depthwise convolutions, fully connected
/// layers, max/average pooling and additions/multiplications, small kernels and strides.
class Support final : public npu::OperatorSupport {
public:
  npu::SupportVerdict check(const npu::Subgraph& subgraph, const npu::Operation& op) const override;
  /// The same rules as data, for `npu-pipeline vela --supported-ops-report`.
  std::vector<npu::SupportedOperatorType> describe() const override;
};

class Layout final : public npu::TensorLayout {
public:
  bool supportsFormat(npu::TensorFormat format) const override { return format == npu::TensorFormat::NHWC; }
  npu::Shape4 storageRounding(npu::TensorFormat) const override { return {1, 1, 1, 1}; }
  std::int64_t storageBytes(const npu::Shape4& shape, npu::DataType type, npu::TensorFormat) const override;
};

class Blocks final : public npu::BlockConfigSelector {
public:
  std::optional<npu::BlockConfig> choose(const npu::Subgraph& subgraph, const npu::Operation& op,
                                         const npu::OperationShapes& shapes) const override;
  std::vector<npu::BlockConfig> candidates(const npu::Subgraph& subgraph, const npu::Operation& op,
                                           const npu::OperationShapes& shapes) const override;
  npu::Shape4 requiredIfmArea(const npu::Subgraph& subgraph, const npu::Operation& op,
                              const npu::Shape4& ofmArea) const override;
};

/// Weights are stored uncompressed, output channel by output channel, with 8 bytes of bias and
/// requantisation parameters per channel; every depth slice starts 16-byte aligned.
class Weights final : public npu::WeightEncoder {
public:
  npu::EncodedWeights encode(const npu::Subgraph& subgraph, const npu::Operation& op, const npu::BlockConfig& block,
                             std::span<const int> depthSlices, bool keepStream) const override;
};

/// Roofline: an operation takes the longer of its compute time and the time each memory needs for
/// the bytes the operation moves through it.
class CostModel final : public npu::CostModel {
public:
  CostModel(const Variant& variant, const npu::MemorySystem& memory) : variant_(variant), memory_(memory) {}
  npu::CycleCost cycles(const npu::Subgraph& subgraph, const npu::Operation& op,
                        const npu::CostQuery& query) const override;
  npu::ElementAccess elementAccess(const npu::Subgraph& subgraph, const npu::Operation& op,
                                   const npu::CostQuery& query) const override;
  double transferCycles(npu::MemoryArea from, npu::MemoryArea to, std::int64_t bytes) const override;
  npu::OperationPerformance estimate(const npu::Subgraph& subgraph, const npu::Operation& op,
                                     const npu::PerformanceContext& context) const override;

private:
  const Variant& variant_;
  const npu::MemorySystem& memory_;
};

class Accelerator final : public npu::Accelerator {
public:
  Accelerator(const Variant& variant, double clockHz, std::int64_t sramBytes);
  const npu::AcceleratorInfo& info() const override { return info_; }
  const npu::MemorySystem& memory() const override { return memory_; }
  const npu::OperatorSupport& support() const override { return support_; }
  const npu::TensorLayout& layout() const override { return layout_; }
  const npu::BlockConfigSelector& blockConfigs() const override { return blocks_; }
  const npu::WeightEncoder& weights() const override { return weights_; }
  const npu::CostModel& costModel() const override { return costModel_; }

private:
  npu::AcceleratorInfo info_;
  npu::MemorySystem memory_;
  Support support_;
  Layout layout_;
  Blocks blocks_;
  Weights weights_;
  CostModel costModel_;
};

} // namespace acme
