// SPDX-License-Identifier: Apache-2.0
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

// set_tensor_equivalence (memory-only aliasing) and reorder_depthwise_weights (weights keep TFLite layouts
// here) have no counterpart.
constexpr std::array kOperatorRewrites{
    RewriteFunction{convertOpsToLut},
    RewriteFunction{convertSquaredDifference},
    RewriteFunction{convertMeanToDepthwiseConv},
    RewriteFunction{convertDepthwiseToConv},
    RewriteFunction{convertConvToFullyConnected},
    RewriteFunction{convertLstm},
    RewriteFunction{convertSoftmax},
    RewriteFunction{convertPrelu},
    RewriteFunction{convertMulMaxToAbsOrLeakyRelu},
    RewriteFunction{convertLeakyRelu},
    RewriteFunction{convertAvgPoolToConv},
    RewriteFunction{fixupStridedConv},
    RewriteFunction{convertHardSwishToLut},
    RewriteFunction{rewriteFullyConnectedInput},
    RewriteFunction{fixupTransposeConv},
    RewriteFunction{fixupRelusWithDifferingScales},
    RewriteFunction{convertArgMax},
    RewriteFunction{fixupResize},
    RewriteFunction{fixupBiasTensors},
    RewriteFunction{fixupAsymmetricWeights},
    RewriteFunction{convertTanhSigmoidToLut},
    RewriteFunction{convertQuantize},
    RewriteFunction{replacePadByHardwarePadding},
    RewriteFunction{fixupDilation},
    RewriteFunction{fixupTranspose},
};
/// The rewrites of Vela 2.1.1's op_rewrite_list that end with set_ifm_ofm_shapes (convert_to_lut,
/// convert_lrelu_to_mul_max, convert_mul_max_to_abs_or_lrelu, fixup_relus_with_differing_ifm_ofm_scaling,
/// the resize and mean rewrites): 2.1.1 runs them after remove_reshapes, so the operations they make see
/// their tensors in the tensors' own shapes, not a removed RESHAPE's view (removeReshapesVela21).
bool setsOwnTensorShapesVela21(RewriteFunction rewrite) {
  return rewrite == RewriteFunction{convertHardSwishToLut} || rewrite == RewriteFunction{convertLeakyRelu} ||
         rewrite == RewriteFunction{convertMulMaxToAbsOrLeakyRelu} ||
         rewrite == RewriteFunction{fixupRelusWithDifferingScales} ||
         rewrite == RewriteFunction{convertTanhSigmoidToLut} || rewrite == RewriteFunction{fixupResizeVela21} ||
         rewrite == RewriteFunction{convertMeanVela21};
}

} // namespace

void rewriteOperators(Subgraph& subgraph, const LoweringContext& context) {
  const bool vela21 = context.release == VelaRelease::V2_1;
  rewriteEach(subgraph, [vela21](Subgraph& graph, const Operation& op) -> RewriteResult {
    if (op.placement != Placement::Npu) {
      return std::nullopt;
    }
    for (RewriteFunction rewrite : kOperatorRewrites) {
      if (vela21 && rewrite == RewriteFunction{fixupStridedConv}) {
        rewrite = optimiseStridedConvVela21;
      } else if (vela21 && rewrite == RewriteFunction{convertMeanToDepthwiseConv}) {
        rewrite = convertMeanVela21;
      } else if (vela21 && rewrite == RewriteFunction{fixupResize}) {
        rewrite = fixupResizeVela21;
      } else if (vela21 && rewrite == RewriteFunction{convertSoftmax}) {
        rewrite = convertSoftmaxVela21;
      } else if (vela21 && rewrite == RewriteFunction{fixupBiasTensors}) {
        rewrite = fixupBiasTensorsVela21;
      } else if (vela21 && rewrite == RewriteFunction{convertQuantize}) {
        rewrite = convertQuantizeVela21;
      }
      if (auto replacement = rewrite(graph, op)) {
        if (vela21 && setsOwnTensorShapesVela21(rewrite)) {
          for (Operation& made : *replacement) {
            made.attributes.set("own_tensor_shapes", true);
          }
        }
        return replacement;
      }
    }
    return std::nullopt;
  });
}

} // namespace ethosu::lowering
