// SPDX-License-Identifier: Apache-2.0
#include "ethosu_lowering/lowering.hpp"

#include "ethosu_lowering/passes.hpp"

#include "npu/ir/graph_algorithms.hpp"

#include <array>
#include <string_view>

namespace ethosu::lowering {

using namespace npu;

LoweringContext makeContext(const Accelerator& accelerator, VelaRelease release) {
  // Vela architecture_features.py: shram_reserved_unused_banks is 2 when the SHRAM has more than 16
  // banks; Ethos-U55-32 and -64 have exactly 16, so a LUT cannot be fused into a producing pass there.
  const std::string& variant = accelerator.info().variant;
  const bool sixteenBanks = variant == "ethos-u55-32" || variant == "ethos-u55-64";
  return LoweringContext{accelerator.support(), !sixteenBanks, release};
}

namespace {

struct NamedPass {
  std::string_view name;
  void (*run)(Subgraph&, const LoweringContext&);
};

// The order of Vela 3.10: tflite_optimise_graph, check_format_restrictions, mark_tensor_purpose,
// pack_into_passes.
constexpr std::array kPasses{
    NamedPass{"removeDeadOperations", removeDeadOperations},
    NamedPass{"foldConstantOperations", foldConstantOperations},
    NamedPass{"placeOperations", placeOperations},
    NamedPass{"setOperationShapes", setOperationShapes},
    NamedPass{"convertConvolutionGroups", convertConvolutionGroups},
    NamedPass{"placeOperations", placeOperations},
    NamedPass{"setOperationShapes", setOperationShapes},
    NamedPass{"rewriteConcatenations", rewriteConcatenations},
    NamedPass{"rewriteSplits", rewriteSplits},
    NamedPass{"bypassMemoryOnlyOperations", bypassMemoryOnlyOperations},
    NamedPass{"rewriteOperators", rewriteOperators},
    NamedPass{"removeReshapesAfterRewrites", removeReshapesAfterRewrites},
    NamedPass{"removePassThroughOperations", removePassThroughOperations},
    NamedPass{"fuseActivationsWithProducers", fuseActivationsWithProducers},
    NamedPass{"convertRemainingPads", convertRemainingPads},
    NamedPass{"addPaddingFields", addPaddingFields},
    NamedPass{"removeSplitSliceReads", removeSplitSliceReads},
    NamedPass{"copyConstantOutputs", copyConstantOutputs},
    NamedPass{"removeDeadOperations", removeDeadOperations},
    NamedPass{"markTensorPurposes", markTensorPurposes},
    NamedPass{"packPasses", packPasses},
    NamedPass{"chooseTensorFormats", chooseTensorFormats},
    NamedPass{"removeUnusedTensors", removeUnusedTensors},
};

} // namespace

Graph lowerGraph(Graph graph, const Accelerator& accelerator, const LoweringOptions& options) {
  const LoweringContext context = makeContext(accelerator, options.release);
  if (options.verifyAfterEachPass) {
    requireValidGraph(graph, "the frontend (input of the Ethos-U lowering)");
  }
  for (const NamedPass& pass : kPasses) {
    for (Subgraph& subgraph : graph.subgraphs) {
      pass.run(subgraph, context);
    }
    if (options.verifyAfterEachPass) {
      requireValidGraph(graph, "lowering pass " + std::string(pass.name));
    }
  }
  return graph;
}

PlacementCounts countPlacements(const Subgraph& subgraph) {
  PlacementCounts counts;
  for (const Operation& op : subgraph.operations) {
    if (op.placement == Placement::Npu) {
      ++counts.npuPasses;
      counts.npuOperations += 1 + static_cast<int>(op.attributes.getOr<std::int64_t>("packed_operations", 0));
    } else {
      ++counts.cpuOperations;
    }
  }
  for (const PlacementRegion& region : partitionByPlacement(subgraph)) {
    if (region.placement == Placement::Npu) {
      ++counts.npuSubgraphs;
    }
  }
  return counts;
}

PlacementCounts countPlacements(const Graph& graph) {
  PlacementCounts total;
  for (const Subgraph& subgraph : graph.subgraphs) {
    const PlacementCounts counts = countPlacements(subgraph);
    total.npuOperations += counts.npuOperations;
    total.cpuOperations += counts.cpuOperations;
    total.npuPasses += counts.npuPasses;
    total.npuSubgraphs += counts.npuSubgraphs;
  }
  return total;
}

} // namespace ethosu::lowering
