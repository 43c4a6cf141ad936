// Vela's op_rewrite_list (tflite_graph_optimiser.py tflite_optimise_graph), in its order: every NPU
// operation goes through the list until no rewrite applies.
#include "ethosu_lowering/passes.hpp"
#include "ethosu_lowering/rewrite_support.hpp"
#include "operator_rewrites.hpp"

#include <array>

namespace ethosu::lowering {

using namespace npu;

namespace {
using RewriteFunction = RewriteResult (*)(Subgraph&, const Operation&);

constexpr std::array<RewriteFunction, 21> kOperatorRewrites{
    convertOpsToLut,
    convertSquaredDifference,
    convertMeanToDepthwiseConv,
    convertDepthwiseToConv,
    convertConvToFullyConnected,
    convertLstm,
    convertSoftmax,
    convertPrelu,
    convertLeakyRelu,
    convertAvgPoolToConv,
    fixupStridedConv,
    convertHardSwishToLut,
    rewriteFullyConnectedInput,
    fixupTransposeConv,
    fixupRelusWithDifferingScales,
    convertArgMax,
    fixupResize,
    fixupBiasTensors,
    convertTanhSigmoidToLut,
    convertQuantize,
    replacePadByHardwarePadding,
};
} // namespace

void rewriteOperators(Subgraph& subgraph, const LoweringContext& /*context*/) {
  rewriteEach(subgraph, [](Subgraph& graph, const Operation& op) -> RewriteResult {
    if (op.placement != Placement::Npu) {
      return std::nullopt;
    }
    for (const RewriteFunction rewrite : kOperatorRewrites) {
      if (auto replacement = rewrite(graph, op)) {
        return replacement;
      }
    }
    return std::nullopt;
  });
}

} // namespace ethosu::lowering
