// SPDX-License-Identifier: Apache-2.0
#include "ethosu/blocks/block_config_selector.hpp"

namespace ethosu {

BlockSearchQuery blockSearchQueryFor(const OperationTraits& traits, const npu::OperationShapes& shapes) {
  BlockSearchQuery query;
  query.blockType = traits.blockType;
  query.ofm = shapes.ofm;
  query.ifm = shapes.ifm;
  query.ifm2 = shapes.ifm2;
  query.usesScalar = traits.usesScalar;
  query.ifmBits = npu::bitsOf(traits.ifmType);
  query.kernel = traits.kernel;
  // scheduler.SchedulerOperation._get_block_config: two banks for an activation LUT.
  query.lutBanks = traits.usesLookupTable ? CommonArchitecture::kLutBanks : 0;
  query.scaled = traits.scaled;
  query.resampling = traits.resampling;
  return query;
}

std::size_t BlockConfigSelector::QueryHash::operator()(const BlockSearchQuery& query) const {
  std::size_t hash = static_cast<std::size_t>(query.blockType);
  for (const int value : {query.ofm.batch, query.ofm.height, query.ofm.width, query.ofm.depth, query.ifm.height,
                          query.ifm.width, query.ifm.depth, query.ifmBits, query.kernel.width, query.kernel.height,
                          query.kernel.strideX, query.kernel.strideY}) {
    hash = (hash ^ static_cast<std::size_t>(value)) * 0x100000001b3ULL;
  }
  return hash;
}

std::optional<npu::BlockConfig> BlockConfigSelector::choose(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                            const npu::OperationShapes& shapes) const {
  const BlockSearchQuery query = blockSearchQueryFor(traitsOf(subgraph, op), shapes);
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto found = chosen_.find(query); found != chosen_.end()) {
      return found->second;
    }
  }
  // Searched without the lock: two threads asking the same query at once both search, with one answer.
  const auto config = findBlockConfig(arch_, query);
  std::optional<npu::BlockConfig> block;
  if (config) {
    block = toBlockConfig(*config);
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  chosen_.emplace(query, block);
  return block;
}

std::vector<npu::BlockConfig> BlockConfigSelector::candidates(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                              const npu::OperationShapes& shapes) const {
  std::vector<npu::BlockConfig> result;
  for (const auto& config : allBlockConfigs(arch_, blockSearchQueryFor(traitsOf(subgraph, op), shapes))) {
    result.push_back(toBlockConfig(config));
  }
  return result;
}

npu::Shape4 BlockConfigSelector::requiredIfmArea(const npu::Subgraph& subgraph, const npu::Operation& op,
                                                 const npu::Shape4& ofmArea) const {
  const OperationTraits traits = traitsOf(subgraph, op);
  const npu::Shape4 area = ifmAreaRequired(ofmArea, traits.kernel, traits.resampling);
  const npu::Shape4 ifm = subgraph.ifmShape(op, traits.primaryIsIfm2 ? 1 : 0);
  return {ofmArea.batch, area.height, area.width, ifm.depth};
}

} // namespace ethosu
