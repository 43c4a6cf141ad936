// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ethosu/architecture/architecture.hpp"
#include "ethosu/architecture/operation_traits.hpp"
#include "ethosu/blocks/block_config.hpp"

#include "npu/plugin/accelerator.hpp"

#include <mutex>
#include <optional>
#include <unordered_map>

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
  /// Files queries by their shapes and kernel; equality of the whole query decides a hit.
  struct QueryHash {
    [[nodiscard]] std::size_t operator()(const BlockSearchQuery& query) const;
  };

  const Architecture& arch_;
  /// The answers given so far: the schedulers ask again for the same operations and stripe shapes (a
  /// MobileNet-v2 compile asks 127 times for 76 queries), and each search walks every block shape.
  mutable std::mutex mutex_;
  mutable std::unordered_map<BlockSearchQuery, std::optional<npu::BlockConfig>, QueryHash> chosen_;
};

} // namespace ethosu
