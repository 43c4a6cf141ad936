// SPDX-License-Identifier: Apache-2.0
#pragma once

// Test helper: rebuilds, for each operation Vela 3.10 scheduled, the questions our model must answer.
// The operation itself (types, kernel, activation, formats) comes from the real model read by the
// TFLite frontend and lowered by the Ethos-U lowering; shapes, block configs, weight sizes and buffers
// come from Vela's schedule.txt. Header-only so that every test area can use it.

#include "vela_reference_files.hpp"

#include "ethosu/accelerator/accelerator.hpp"
#include "ethosu/architecture/operation_traits.hpp"
#include "ethosu/blocks/block_config.hpp"
#include "ethosu/performance/vela3_estimates.hpp"

#include "ethosu_lowering/lowering.hpp"
#include "frontend_tflite/model_reader.hpp"

#include "test_support.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace ethosu::test {

/// A Vela reference configuration (see /work/shared/reference/README.md).
struct ReferenceConfig {
  std::string name; ///< "C1"
  std::string variant;
  std::string system;
  std::string memoryMode;
  /// Configuration whose schedule.txt gives the shapes when this one has none (C4 ran Vela's MAX
  /// schedule like C1, so its operations have C1's shapes; block configs and weights differ).
  std::string scheduleFrom;
};

inline const std::vector<ReferenceConfig>& referenceConfigs() {
  static const std::vector<ReferenceConfig> configs{
      {"C1", "ethos-u55-128", "ethos_u55_high_end_embedded", "shared_sram", "C1"},
      {"C3", "ethos-u65-256", "ethos_u65_high_end", "dedicated_sram", "C3"},
      {"C4", "ethos-u55-64", "ethos_u55_deep_embedded", "shared_sram", "C1"},
  };
  return configs;
}

inline std::unique_ptr<Accelerator> makeReferenceAccelerator(const ReferenceConfig& config) {
  npu::AcceleratorConfig accelerator;
  accelerator.variant = config.variant;
  accelerator.system = config.system;
  accelerator.memoryMode = config.memoryMode;
  accelerator.configSearchPath = {npu::test::sourceDir() / "configs"};
  return makeAccelerator(accelerator);
}

/// An operation of the lowered model and the subgraph holding it.
struct LoweredOperation {
  const npu::Subgraph* subgraph = nullptr;
  const npu::Operation* operation = nullptr;
};

/// The lowered model with its operations findable by Vela's names (each name used once, in order).
class LoweredModel {
public:
  LoweredModel(const std::filesystem::path& model, const npu::Accelerator& accelerator)
      : graph_(lowering::lowerGraph(npu::tflite_frontend::readModelFile(model), accelerator)) {
    for (const auto& subgraph : graph_.subgraphs) {
      for (const auto& op : subgraph.operations) {
        byName_.emplace(op.name, LoweredOperation{&subgraph, &op});
      }
    }
  }

  /// The next operation of that name not handed out yet.
  std::optional<LoweredOperation> take(const std::string& name) {
    const auto found = byName_.find(name);
    if (found == byName_.end()) {
      return std::nullopt;
    }
    const LoweredOperation result = found->second;
    byName_.erase(found);
    return result;
  }

private:
  npu::Graph graph_;
  std::multimap<std::string, LoweredOperation> byName_;
};

/// Everything needed to ask our model about one scheduled operation.
struct ReferenceOperation {
  const ScheduledOperation* scheduled = nullptr;
  LoweredOperation lowered;
  OperationTraits traits;
  BlockSearchQuery blockQuery; ///< with the stripe shapes Vela searched with
};

inline ReferenceOperation referenceOperation(const ScheduledOperation& scheduled, const LoweredOperation& lowered) {
  ReferenceOperation reference{&scheduled, lowered, traitsOf(*lowered.subgraph, *lowered.operation), {}};
  const OperationTraits& traits = reference.traits;
  BlockSearchQuery& query = reference.blockQuery;
  query.blockType = traits.blockType;
  query.ofm = scheduled.ofmStripe;
  query.ifm = scheduled.ifmStripe;
  query.ifm2 = scheduled.ifm2Stripe;
  query.usesScalar = traits.usesScalar;
  query.ifmBits = npu::bitsOf(traits.ifmType);
  query.kernel = traits.kernel;
  query.lutBanks = traits.usesLookupTable ? 2 : 0;
  query.scaled = traits.scaled;
  query.resampling = traits.resampling;
  return reference;
}

/// Walks every scheduled operation of `schedule`, matched to the lowered model where possible. `visit`
/// gets the index of the schedule section, the operation's position in it and the reference operation.
inline void forEachReferenceOperation(
    const ReferenceSchedule& schedule, const std::filesystem::path& modelFile, const Accelerator& accelerator,
    const std::function<void(std::size_t, std::size_t, const std::optional<ReferenceOperation>&)>& visit) {
  LoweredModel model(modelFile, accelerator);
  for (std::size_t section = 0; section < schedule.sections.size(); ++section) {
    const auto& operations = schedule.sections[section].operations;
    for (std::size_t i = 0; i < operations.size(); ++i) {
      const auto& scheduled = operations[i];
      const auto lowered = model.take(scheduled.name);
      if (!lowered || npu::nameOf(lowered->operation->type) != scheduled.type) {
        visit(section, i, std::nullopt);
        continue;
      }
      visit(section, i, referenceOperation(scheduled, *lowered));
    }
  }
}

} // namespace ethosu::test
