// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/api.hpp"
#include "npu/ir/graph.hpp"
#include "npu/plugin/plugin.hpp"

namespace npu {

class Accelerator;

/// Rewrites a graph into the operations an accelerator executes, and places every operation on the
/// NPU or the CPU (with the reason). The result must pass verifyGraph().
class NPU_API LoweringPlugin : public Plugin {
public:
  [[nodiscard]] virtual Graph lower(Graph graph, const Accelerator& accelerator,
                                    const OptionValues& options) const = 0;
};

} // namespace npu
