#pragma once
// The real Ethos-U accelerator of a reference configuration (reference/README.md: C1/C2/C5 ethos-u55-128,
// C3 ethos-u65-256, C4 ethos-u55-64, each with its Vela system config and memory mode), with Vela 3.10's
// supported-operator checks.

#include "ethosu/accelerator/accelerator.hpp"
#include "ethosu/support/operator_support.hpp"

#include "npu/plugin/accelerator.hpp"

#include <memory>
#include <string>

namespace ethosu::lowering::test {

/// ethosu::makeAccelerator builds the architecture; the checks are ethosu::OperatorSupportChecker itself,
/// so the tests do not depend on which support implementation the factory currently wires in.
class ReferenceAccelerator final : public npu::Accelerator {
public:
  explicit ReferenceAccelerator(const std::string& config);
  [[nodiscard]] const npu::AcceleratorInfo& info() const override { return accelerator_->info(); }
  [[nodiscard]] const npu::MemorySystem& memory() const override { return accelerator_->memory(); }
  [[nodiscard]] const npu::OperatorSupport& support() const override { return support_; }
  [[nodiscard]] const npu::TensorLayout& layout() const override { return accelerator_->layout(); }
  [[nodiscard]] const npu::BlockConfigSelector& blockConfigs() const override { return accelerator_->blockConfigs(); }
  [[nodiscard]] const npu::WeightEncoder& weights() const override { return accelerator_->weights(); }
  [[nodiscard]] const npu::CostModel& costModel() const override { return accelerator_->costModel(); }

private:
  std::unique_ptr<ethosu::Accelerator> accelerator_;
  ethosu::OperatorSupportChecker support_;
};

} // namespace ethosu::lowering::test
