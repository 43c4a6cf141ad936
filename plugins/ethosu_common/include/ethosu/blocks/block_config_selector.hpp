// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ethosu/architecture/architecture.hpp"
#include "ethosu/architecture/operation_traits.hpp"
#include "ethosu/blocks/block_config.hpp"

#include "npu/plugin/accelerator.hpp"

namespace ethosu {

/// The search query of an operation with the given (stripe) shapes. `shapes.ifm` is the primary input
/// as the scheduler reads it, i.e. IFM2's shape when primaryInputIsIfm2().
[[nodiscard]] BlockSearchQuery blockSearchQueryFor(const OperationTraits& traits, const npu::OperationShapes& shapes);

/// npu::BlockConfigSelector for an Ethos-U architecture (Vela 3.10 architecture_allocator).
class BlockConfigSelector final : public npu::BlockConfigSelector {
public:
  explicit BlockConfigSelector(const Architecture& arch) : arch_(arch) {}

  [[nodiscard]] std::optional<npu::BlockConfig> choose(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                       const npu::OperationShapes& shapes) const override;
  [[nodiscard]] std::vector<npu::BlockConfig> candidates(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                         const npu::OperationShapes& shapes) const override;
  [[nodiscard]] npu::Shape4 requiredIfmArea(const npu::Subgraph& subgraph, const npu::Operation& op,
                                            const npu::Shape4& ofmArea) const override;

private:
  const Architecture& arch_;
};

} // namespace ethosu
