// SPDX-License-Identifier: Apache-2.0
#pragma once

// Vela 2.1's block configs (shared_buffer_allocation.py): every OFM block whose IFM and accumulator
// buffers fit the shared buffer with Vela 2.1's bank arithmetic. They differ from Vela 3.10's
// (architecture_allocator.py) in the bank sizes and in which blocks are tried, so a scheduler that
// reproduces Vela 2.1 needs these candidates, not 3.10's.

#include "ethosu/architecture/architecture.hpp"

#include "npu/plugin/accelerator.hpp"

#include <vector>

namespace ethosu::vela2 {

/// Every block config Vela 2.1 finds for the operation (find_block_configs_suitable_for_pass_and_shared_buffer),
/// in its order: width, then height, then depth. The IFM block is Vela 2.1's (get_ifm_block_size).
[[nodiscard]] std::vector<npu::BlockConfig> blockConfigCandidates(const Architecture& arch,
                                                                  const npu::Subgraph& subgraph,
                                                                  const npu::Operation& op,
                                                                  const npu::OperationShapes& shapes);

/// A BlockConfigSelector with Vela 2.1's candidates; the choice and the IFM areas come from `base`.
class Vela2BlockConfigSelector final : public npu::BlockConfigSelector {
public:
  Vela2BlockConfigSelector(const Architecture& arch, const npu::BlockConfigSelector& base) : arch_(arch), base_(base) {}

  [[nodiscard]] std::optional<npu::BlockConfig> choose(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                       const npu::OperationShapes& shapes) const override {
    return base_.choose(subgraph, op, shapes);
  }
  [[nodiscard]] std::vector<npu::BlockConfig> candidates(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                         const npu::OperationShapes& shapes) const override {
    return blockConfigCandidates(arch_, subgraph, op, shapes);
  }
  [[nodiscard]] npu::Shape4 requiredIfmArea(const npu::Subgraph& subgraph, const npu::Operation& op,
                                            const npu::Shape4& ofmArea) const override {
    return base_.requiredIfmArea(subgraph, op, ofmArea);
  }

private:
  const Architecture& arch_;
  const npu::BlockConfigSelector& base_;
};

} // namespace ethosu::vela2
